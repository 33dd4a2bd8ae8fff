"""Deals in tests, the same at every run: each test draws its matches' seeds from a stream
seeded by its own id (``tests/conftest.py`` points the services' ``new_seed`` at it), and a
test that needs a deal of some kind picks its seed by what the engine deals from it, never by
dealing until one suits."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import Rules, State, new_match


class Deals:
    """Stands for ``games.engine.new_seed`` where the services call it: the next seed queued
    (``queue``), else the next of a stream seeded by ``name``."""

    def __init__(self, name: str):
        self._stream = random.Random(name)
        self._queued: list[int] = []

    def __call__(self) -> int:
        if self._queued:
            return self._queued.pop(0)
        return self._stream.getrandbits(128)

    def queue(self, *seeds: int) -> None:
        """The next matches made are dealt from ``seeds``, in order."""
        self._queued.extend(seeds)


# The stream of the test under way (tests/conftest.py makes one per test).
current = Deals("no test")


def begin(name: str) -> Deals:
    global current
    current = Deals(name)
    return current


def seed_where(suits: Callable[[State], bool], tries: int = 10_000, **rules) -> int:
    """The first seed (0, 1, 2, ...) whose opening deal under ``rules`` suits the test."""
    for seed in range(tries):
        if suits(new_match(seed, Rules(**rules))):
            return seed
    raise AssertionError(f"no deal of the first {tries} suits")
