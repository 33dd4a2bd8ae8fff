"""A task worker between tasks, as docs/OPERATING.md runs it (``manage.py run_worker``, its
default interval), today's against an older commit's (``--against``: the last that looked for
work every interval instead of waiting for PostgreSQL's notice), alternated in one sitting:

- idle: its CPU over ``--idle`` seconds with nothing queued (% of one core);
- how late a task starts: ``--tasks`` tasks queued one by one at seeded random moments, half
  due at once (a clock's end, a push), half 0.8 s after they were queued (a computer's move):
  from the moment each was due to its start, as the worker recorded it (``started_at``).

The task is ``challenge_lapse`` of a challenge that does not exist: it reads one row and ends,
so only the worker's wait is measured. The older ``run_worker`` is read from git
(``bench/before.py``) and run by this file in a process of its own; nothing of it stays in the
tree. Needs DATABASE_URL (PostgreSQL); makes ``<name>_bench_wake``.

    export DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre
    .venv/bin/python bench/worker_wake.py [--rounds 3] [--tasks 40] [--idle 10]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEFORE = "3dcc392"  # the last commit whose workers looked for work every interval
COMMAND = "games/management/commands/run_worker.py"
DUE_LATER = 0.8  # seconds: a computer's move after the player's (COMPUTER_MOVE_DELAY_SECONDS)


def serve(rev: str) -> None:
    """Run ``run_worker`` as ``rev`` had it, in this process (started by ``worker``)."""
    import django

    django.setup()
    from django.core.management import call_command

    from bench.before import module_at

    command = module_at(rev, COMMAND).Command() if rev else None
    call_command(command or "run_worker", "--no-startup-delay", "-v0")


def worker(rev: str) -> subprocess.Popen:
    """A worker of today's tree (``rev`` empty) or of ``rev``, once its first heartbeat is in."""
    from games.models import WorkerBeat

    WorkerBeat.objects.all().delete()
    process = subprocess.Popen([sys.executable, __file__, "--serve", rev or "-"], cwd=ROOT)
    while not WorkerBeat.objects.exists():
        if process.poll() is not None:
            sys.exit("the worker did not start")
        time.sleep(0.05)
    return process


def idle_share(process: subprocess.Popen, seconds: float) -> float:
    """The worker's CPU over ``seconds`` with nothing queued, in % of one core."""
    from bench.load.servers import process_cpu_seconds

    began, cpu = time.perf_counter(), process_cpu_seconds(process.pid)
    time.sleep(seconds)
    return (process_cpu_seconds(process.pid) - cpu) / (time.perf_counter() - began) * 100


def lateness(count: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """ms from due to started, of tasks due at once and of tasks due ``DUE_LATER`` s after."""
    from django.utils import timezone
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from games.tasks import challenge_lapse

    queued = []
    for number in range(count):
        time.sleep(rng.uniform(0.05, 0.6))  # queued at moments the worker cannot foresee
        later = number % 2 == 1
        task = challenge_lapse.using(run_after=timezone.now() + timedelta(seconds=DUE_LATER))
        queued.append((later, (task if later else challenge_lapse).enqueue(10**9 + number).id))
    rows = DBTaskResult.objects.filter(pk__in=[pk for _, pk in queued])
    while rows.exclude(status=TaskResultStatus.SUCCESSFUL).exists():
        time.sleep(0.1)
    started = {str(row.pk): row for row in rows}
    late: tuple[list[float], list[float]] = ([], [])
    for later, pk in queued:
        row = started[pk]
        due = row.run_after if later else row.enqueued_at
        late[later].append((row.started_at - due).total_seconds() * 1e3)
    return late


def describe(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):6.1f} / {p95:6.1f} / {ordered[-1]:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BEFORE, help="the older commit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds idle per round")
    parser.add_argument("--tasks", type=int, default=40, help="tasks per round")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve("" if args.serve == "-" else args.serve)

    from bench.load import in_process_env

    in_process_env("bench_wake")
    import django

    django.setup()
    ways = {"today": "", args.against: args.against}
    idle = {way: [] for way in ways}
    late = {way: ([], []) for way in ways}
    for number in range(args.rounds):
        order = list(ways) if number % 2 == 0 else list(reversed(ways))
        for way in order:
            process = worker(ways[way])
            try:
                idle[way].append(idle_share(process, args.idle))
                at_once, later = lateness(args.tasks, random.Random(number))
                late[way][0].extend(at_once)
                late[way][1].extend(later)
            finally:
                process.terminate()
                process.wait()
            print(f"round {number + 1}, {way}: idle {idle[way][-1]:.2f} % of a core", flush=True)
    print(f"\n{'':>10}  idle, % of a core (median of {args.rounds})  ms late, p50 / p95 / max:")
    print(f"{'':>10}  {'':>30}  due at once            due {DUE_LATER} s later")
    for way in ways:
        share = statistics.median(idle[way])
        print(f"{way:>10}  {share:30.2f}  {describe(late[way][0])}  {describe(late[way][1])}")


if __name__ == "__main__":
    main()
