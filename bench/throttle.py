"""What one rate-limit check costs (``games.services.throttle.hit``): the ``limits`` library's
moving window against the hand-written sliding log it replaced, in the same sitting.

The hand-written one is read from git (``--against``, the last commit that had it) into a
module of its own, ``games.services._throttle_before``; nothing of it stays in the tree. Each
case runs on both caches a server may have: this process's memory (``make run``) and Redis
(REDIS_URL, as production; skipped when it is not set). Rounds alternate the two
implementations, each first in every other round. Prints the median over rounds of µs per
check (wall, and this process's CPU), for checks let through (a fresh key each time, under its
limit) and checks refused (a key already at its limit). Every key it counts expires within 11
seconds.

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/throttle.py [--checks 5000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.before import module_at  # noqa: E402

# The last commit whose games/services/throttle.py was the hand-written sliding log.
BEFORE = "e0f5c57"


def before(rev: str):
    """The hand-written limiter of ``rev``, imported as a sibling of today's."""
    return module_at(rev, "games/services/throttle.py")


def caches(redis_url: str) -> dict[str, dict]:
    found = {"memory": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if redis_url:
        found["redis"] = {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"bench-{uuid.uuid4()}",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
        }
    return found


def let_through(module, checks: int) -> tuple[float, float]:
    """µs per check, wall and this process's CPU, of ``checks`` keys seen once each."""
    run = uuid.uuid4().hex
    started, cpu = time.perf_counter(), time.process_time()
    for number in range(checks):
        module.hit("bench", f"{run}-{number}", 30, 10)
    return per_check(started, cpu, checks)


def refused(module, checks: int) -> tuple[float, float]:
    """µs per check, wall and CPU, of one key at its limit: every check refused, with its
    wait."""
    key = uuid.uuid4().hex
    for _ in range(30):
        module.hit("bench", key, 30, 10)
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(checks):
        try:
            module.hit("bench", key, 30, 10)
        except module.Throttled:
            pass
        else:
            raise SystemExit("a check past the limit went through")
    return per_check(started, cpu, checks)


def per_check(started: float, cpu: float, checks: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return wall / checks * 1e6, cpu / checks * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=5000, help="checks per case and round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", default=BEFORE, help="the commit of the hand-written one")
    args = parser.parse_args()
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwx")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import django
    from django.conf import settings

    django.setup()
    from django.test.utils import override_settings

    from games.services import throttle

    modules = {f"before ({args.against})": before(args.against), "limits": throttle}
    print(f"µs per check, median of {args.rounds} rounds of {args.checks}: wall (min-max), CPU")
    for cache_name, config in caches(settings.REDIS_URL or os.environ.get("REDIS_URL", "")).items():
        with override_settings(CACHES={"default": config}):
            times: dict[tuple[str, str], list[tuple[float, float]]] = {}
            for round in range(args.rounds):
                # Each first in every other round: neither always finds the caches warm.
                for name, module in sorted(modules.items(), reverse=round % 2 == 1):
                    for case, measure in (("let through", let_through), ("refused", refused)):
                        times.setdefault((name, case), []).append(measure(module, args.checks))
        for (name, case), found in times.items():
            wall, cpu = [at[0] for at in found], [at[1] for at in found]
            print(
                f"  {cache_name:6} {name:18} {case:11} {statistics.median(wall):7.1f}"
                f" ({min(wall):.1f}-{max(wall):.1f})  CPU {statistics.median(cpu):6.1f}"
            )


if __name__ == "__main__":
    main()
