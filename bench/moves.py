"""Server CPU per move, in one process, stage by stage: what a socket's move costs the server
without the noise of a loaded machine (bench/load/ measures the whole under load).

Plays ``--matches`` matches between fresh players through the match socket's own code
(``MatchConsumer._move``: the session check, ``moves.move_submit``, the table the move left and
the mover's board), then what the opponent's server process does with the push (its room reads
the match, ``tables.read_tables``, and renders the opponent's board). The push itself (the
channel layer, the sockets) is not counted. Prints the CPU time (``time.process_time``) per
move of each stage, median and p90 over all moves, and the total. Run it before and after a
change, in the same sitting.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    .venv/bin/python bench/moves.py [--matches 40] [--moves 60]

It makes a database of its own (``<name>_bench_moves``: bench/load/'s may be in use),
dropped and created afresh at each run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import in_process_env  # noqa: E402

STAGES = ["session check", "move_submit", "mover's board", "opponent: read", "opponent's board"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--moves", type=int, default=60, help="moves per match at most")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the moves into FILE")
    args = parser.parse_args()
    in_process_env("bench_moves")  # no Redis: only this process's work is measured

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services
    from games.engine import legal_actions
    from games.realtime import consumers
    from games.realtime.tables import Table, read_tables
    from games.services import events
    from games.web.moves import move_submit

    def socket(user, match) -> consumers.MatchConsumer:
        """A match socket's state as ``connect`` leaves it, for ``user``."""
        client = Client()
        client.force_login(user)
        consumer = consumers.MatchConsumer()
        consumer.user, consumer.match_id = user, match.pk
        consumer.session_key = client.cookies["sessionid"].value
        consumer.language, consumer.base_url = "en", "http://127.0.0.1:8000"
        consumer.casual_for_you = False
        return consumer

    # The push after the commit goes nowhere: a server hands it to its event loop and the
    # channel layer (bench/load/ counts that); here it would start an event loop per move.
    events._send = lambda *args, **kwargs: None
    users = get_user_model().objects
    spent = {stage: [] for stage in STAGES}
    clock = 0.0

    def lap(stage: str) -> None:
        """The CPU time since the last lap (or the move's start) goes to ``stage``."""
        nonlocal clock
        now = time.process_time()
        spent[stage].append(now - clock)
        clock = now

    rng = random.Random(1)  # the same moves at every run
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    for number in range(args.matches):
        a, b = users.create_user(f"bench{number}a"), users.create_user(f"bench{number}b")
        opened = services.match_create(user=a, move_seconds=None)
        match = services.match_join(user=b, match_id=opened.pk)
        sockets = {match.seat_of(user): socket(user, match) for user in (a, b)}
        table = read_tables([match.pk], [match.pk], set())[match.pk].table
        for _ in range(args.moves):
            if match.is_over:
                break
            seat = match.state.turn
            mover, other = sockets[seat], sockets[seat ^ 1]
            action = str(rng.choice(legal_actions(match.state)))  # as a player might
            content = {"action": action, "version": match.version}
            clock = time.process_time()
            mover.check_session()
            lap("session check")
            moved = move_submit(user=mover.user, match_id=match.pk, data=content)
            match = moved.match
            lap("move_submit")
            # As ``MatchConsumer._move`` and the room: the table the move left, its board.
            table = Table.after(moved, table, table.match.ratings)
            mover.render(table, seat)
            lap("mover's board")
            read = read_tables([match.pk], [], set())[match.pk].table
            lap("opponent: read")
            other.render(read.with_presence(table.present, table.watching), seat ^ 1)
            lap("opponent's board")

    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    moves = len(spent[STAGES[0]])
    print(f"{moves} moves in {args.matches} matches, database {django.db.connection.vendor}")
    print(f"{'stage':20s} {'median':>9s} {'p90':>9s}   CPU per move")
    total = 0.0
    for stage in STAGES:
        values = sorted(spent[stage])
        median, p90 = statistics.median(values), values[int(len(values) * 0.9)]
        total += statistics.fmean(values)
        print(f"{stage:20s} {median * 1000:7.2f} ms {p90 * 1000:7.2f} ms")
    print(f"{'all (mean sum)':20s} {total * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
