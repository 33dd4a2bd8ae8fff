"""Rate limits in tests: their counts live in fixed windows (``games.services.throttle``)."""

from __future__ import annotations

import time


def in_one_window(seconds: int, needed: float = 2.0) -> None:
    """Return when at least ``needed`` seconds of the current ``seconds``-long window are left,
    waiting for the next one if fewer are: a test whose events must be counted together (the
    last one refused) would otherwise now and then straddle two windows and see it let through."""
    left = seconds - time.time() % seconds
    if left < needed:
        time.sleep(left + 0.01)
