"""Rate limits in tests: the clock their counts read (``limits``' storages and
``games.services.throttle``), moved by a test instead of waited for."""

from __future__ import annotations

import limits.storage.memory
import limits.storage.redis

from games.services import throttle


class Clock:
    """Stands for the ``time`` module where the limits read it: ``time()`` is ``at``."""

    def __init__(self, at: float):
        self.at = at

    def time(self) -> float:
        return self.at


def moved_clock(monkeypatch, at: float) -> Clock:
    clock = Clock(at)
    for module in (limits.storage.memory, limits.storage.redis, throttle):
        monkeypatch.setattr(module, "time", clock)
    return clock
