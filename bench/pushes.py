"""What one push from synchronous code costs (``games.services.events.send_to_group``, the way
the task worker pushes every computer move and every task's news): today's, on the process's
push loop, against the one of an older commit (``--against``, by default the last that used
``async_to_sync``: a new event loop, a new thread and a new connection to Redis per push), in
the same sitting. The older module is read from git (``bench/before.py``); nothing of it stays
in the tree.

It needs Redis (REDIS_URL, as production; a database of its own, the tests use 0 and 5): the
in-memory layer reaches no other process, and the task worker pushes through Redis. Rounds
alternate the two, each first in every other round. Prints the median over rounds of ms per
push, wall and this process's CPU (all its threads), with the Redis server's connections
opened per push.

    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python bench/pushes.py [--pushes 500]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.before import module_at  # noqa: E402

# The last commit whose pushes from synchronous code made a loop of their own each time.
BEFORE = "1d71d2f"


def connections(stats) -> int:
    """The Redis server's connections received so far (INFO stats, asked over ``stats``, a
    client of its own that keeps its one connection)."""
    return int(stats.info("stats")["total_connections_received"])


def pushes(module, count: int, stats) -> tuple[float, float, float]:
    """ms per push, wall and CPU, and connections opened per push, of ``count`` pushes."""
    opened = connections(stats)
    started, cpu = time.perf_counter(), time.process_time()
    for number in range(count):
        module.send_to_group("bench_pushes", {"type": "bench.push", "number": number})
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return wall / count * 1e3, cpu / count * 1e3, (connections(stats) - opened) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pushes", type=int, default=500, help="pushes per round and way")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", default=BEFORE, help="the older commit")
    args = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        sys.exit("Set REDIS_URL: the task worker pushes through Redis")
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwx")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import django
    import redis

    django.setup()
    from games.services import events

    stats = redis.Redis.from_url(redis_url)

    modules = {f"before ({args.against})": module_at(args.against, "games/services/events.py")}
    modules["push loop"] = events
    print(f"ms per push, median of {args.rounds} rounds of {args.pushes}: wall (min-max), CPU")
    times: dict[str, list[tuple[float, float, float]]] = {}
    for round in range(args.rounds):
        for name, module in sorted(modules.items(), reverse=round % 2 == 1):
            times.setdefault(name, []).append(pushes(module, args.pushes, stats))
    for name, found in times.items():
        wall, cpu = [at[0] for at in found], [at[1] for at in found]
        opened = statistics.median(at[2] for at in found)
        print(
            f"  {name:18} {statistics.median(wall):6.3f} ({min(wall):.3f}-{max(wall):.3f})"
            f"  CPU {statistics.median(cpu):6.3f}  Redis connections per push {opened:.2f}"
        )


if __name__ == "__main__":
    main()
