"""The board's rendering alone, steadier than a move's: one match played with seeded deals and
seeded moves, then every board of it rendered for both seats as the socket renders it
(``MatchConsumer.render``: the context and Jinja2), ``--repeat`` times each. Prints the CPU
time per board (median and mean over the boards, ``time.process_time``) and the function
calls per board (cProfile's count: the same at every run of the same code, whatever the
machine's load).

``--deflate`` also prints what each seat's boards, in the order its socket is sent them, cost
on the wire and in CPU through permessage-deflate as uvicorn's own protocol negotiates it (a
4 KB window) and as the site's does (``euchre_site.wsprotocol``: the window holds the last
board, so the next goes out as little more than what changed).

``--dump FILE`` writes every board, in order, to compare two commits' markup; the seconds of a
countdown change from one run to the next and are left out of the comparison:

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    .venv/bin/python bench/boards.py [--moves 60] [--repeat 20] [--dump /tmp/boards.txt] \\
        [--language th] [--deflate]

It makes a database of its own (``<name>_bench_boards``), dropped and created afresh at each
run. Run it from a worktree of the commit to compare against (copy this file there), the two
alternated in one sitting.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import in_process_env  # noqa: E402

COUNTDOWN = re.compile(r'data-countdown="\d+"|<span data-countdown-text>[^<]*<')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves of the match at most")
    parser.add_argument("--repeat", type=int, default=20, help="renders of each board")
    parser.add_argument("--dump", metavar="FILE", help="write every board to FILE")
    parser.add_argument("--language", default="en", help="the viewers' language (en, my, th...)")
    parser.add_argument("--deflate", action="store_true", help="bytes and CPU on the wire too")
    args = parser.parse_args()
    in_process_env("bench_boards")

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import services
    from games.engine import legal_actions
    from games.realtime import consumers
    from games.realtime.tables import Table, read_tables
    from games.services import events
    from games.services import matches as match_services
    from games.web.moves import move_submit

    events._send = lambda *args, **kwargs: None  # the push goes nowhere
    deals = random.Random(7)  # the same deals at every run
    match_services.new_seed = lambda: deals.getrandbits(128)
    users = get_user_model().objects
    a, b = users.create_user("boards_a"), users.create_user("boards_b")
    match = services.match_create(user=a, move_seconds=None)
    match = services.match_join(user=b, match_id=match.pk)

    def socket(user) -> consumers.MatchConsumer:
        consumer = consumers.MatchConsumer()
        consumer.user, consumer.match_id = user, match.pk
        consumer.language, consumer.base_url = args.language, "http://127.0.0.1:8000"
        consumer.casual_for_you = False
        return consumer

    sockets = {match.seat_of(user): socket(user) for user in (a, b)}
    moves = random.Random(1)  # the same moves at every run
    table = read_tables([match.pk], [match.pk], set())[match.pk].table
    boards = []
    for _ in range(args.moves):
        if match.is_over:
            break
        seat = match.state.turn
        action = str(moves.choice(legal_actions(match.state)))
        content = {"action": action, "version": match.version}
        moved = move_submit(user=sockets[seat].user, match_id=match.pk, data=content)
        match = moved.match
        table = Table.after(moved, table, table.match.ratings)
        boards += [(table, seat), (table, seat ^ 1)]

    def render(table, seat) -> str:
        return sockets[seat].render(table, seat)

    spent = []
    for table, seat in boards:
        render(table, seat)  # its words and faces remembered, as in a serving process
        began = time.process_time()
        for _ in range(args.repeat):
            render(table, seat)
        spent.append((time.process_time() - began) / args.repeat)
    profiler = cProfile.Profile()
    profiler.enable()
    for table, seat in boards:
        render(table, seat)
    profiler.disable()
    calls = pstats.Stats(profiler).total_calls
    print(f"{len(boards)} boards of one match ({len(boards) // 2} moves), "
          f"{args.repeat} renders each")  # fmt: skip
    print(f"CPU per board     median {statistics.median(spent) * 1000:.3f} ms  "
          f"mean {statistics.fmean(spent) * 1000:.3f} ms")  # fmt: skip
    print(f"function calls    {calls / len(boards):.0f} per board")
    # What only the cyclic collector frees: a serving process pays for it in collections
    # that stop every socket of the process while they run.
    gc.collect()
    gc.disable()
    for table, seat in boards:
        render(table, seat)
    garbage = gc.collect()
    gc.enable()
    print(f"garbage in cycles {garbage / len(boards):.0f} objects per board")
    if args.deflate:
        streams = [[render(t, s) for t, s in boards if s == seat] for seat in (0, 1)]
        deflated(streams, args.repeat)
    if args.dump:
        with open(args.dump, "w") as out:
            for table, seat in boards:
                out.write(COUNTDOWN.sub("(countdown)", render(table, seat)) + "\n")


def deflated(streams: list[list[str]], repeat: int) -> None:
    """Each seat's boards through permessage-deflate as the server compresses them (websockets'
    own extension, one per socket, its window kept from board to board): bytes on the wire
    and CPU per board, medians over both seats' boards, ``repeat`` passes each."""
    from websockets.extensions.permessage_deflate import PerMessageDeflate
    from websockets.frames import Frame, Opcode

    from euchre_site import wsprotocol

    settings = {"memLevel": wsprotocol.MEMORY_LEVEL}
    windows = (("uvicorn's (4 KB)", 12), ("the site's (16 KB)", wsprotocol.SERVER_WINDOW_BITS))
    for name, bits in windows:
        sizes, spent = [], []
        for stream in streams:
            payloads = [board.encode() for board in stream]
            for _ in range(repeat):
                socket = PerMessageDeflate(
                    remote_no_context_takeover=False, local_no_context_takeover=False,
                    remote_max_window_bits=wsprotocol.CLIENT_WINDOW_BITS,
                    local_max_window_bits=bits, compress_settings=settings,
                )  # fmt: skip
                for payload in payloads:
                    began = time.process_time()
                    frame = socket.encode(Frame(Opcode.TEXT, payload))
                    spent.append(time.process_time() - began)
                    sizes.append(len(frame.data))
        text = statistics.median(len(b.encode()) for stream in streams for b in stream)
        print(f"deflate, window {name:20} bytes per board median {statistics.median(sizes):6.0f}"
              f"  mean {statistics.fmean(sizes):6.0f}  (of {text:.0f})"
              f"  CPU median {statistics.median(spent) * 1e6:5.0f} us")  # fmt: skip


if __name__ == "__main__":
    main()
