"""Rate limits in tests: the clock their counts read (``limits``' storages and
``games.services.throttle``), moved by a test instead of waited for."""

from __future__ import annotations

import os
import uuid

import limits.storage.memory
import limits.storage.redis
import pytest

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


def on_redis(settings) -> str:
    """Count the limits in Redis, as every server process does when REDIS_URL is set, under a
    key prefix of this test's own, which is returned (the test is skipped without Redis)."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL: runs in CI's PostgreSQL + Redis pass")
    prefix = f"test-{uuid.uuid4()}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }
    return prefix
