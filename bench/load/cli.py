"""The load bench's command: its options, the run (the site started, every match played at
once, the bare view, the restart) and the report it prints."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from . import __doc__ as ABOUT
from . import profile
from .client import ApiSocket, ApiStream, PageHttp, PageSocket, Start, Transport, play
from .measuring import Stats, bare_view, loop_lag, machine_busy, quantiles
from .restart import restart_with_pages_open
from .servers import ROOT, Site, production_env, setup_matches, stored_moves


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=ABOUT.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument("--workers", type=int, default=2, help="web processes")
    parser.add_argument("--front", choices=["nginx", "none"], default="nginx",
                        help="nginx in front of a process per port (deploy/nginx.conf), or "
                        "none: uvicorn's workers sharing one port")  # fmt: skip
    parser.add_argument("--http", action="store_true", help="post moves over http instead")
    parser.add_argument("--no-deflate", action="store_true",
                        help="serve without permessage-deflate (not OPERATING.md's command: to "
                             "measure what the compression costs)")  # fmt: skip
    parser.add_argument("--no-metrics", action="store_true",
                        help="serve with the metrics off (no METRICS_TOKEN, no "
                        "PROMETHEUS_MULTIPROC_DIR): to measure what counting costs")  # fmt: skip
    parser.add_argument("--computer", choices=["easy", "medium", "hard"], default="",
                        help="each match a person against the computer")  # fmt: skip
    parser.add_argument("--task-workers", type=int, default=2, help="with --computer")
    parser.add_argument("--beside", type=int, default=0, metavar="N",
                        help="with --computer: N matches between two people played beside "
                        "them, as the page plays (their pushes reported apart)")  # fmt: skip
    parser.add_argument("--api", action="store_true",
                        help="programs play through the API: half stream over http (moves "
                        "posted), half over the websocket (moves sent there)")  # fmt: skip
    parser.add_argument("--profile", metavar="FILE", default="",
                        help="sample the web processes with py-spy over the play window and "
                        "print where their CPU went (raw samples to FILE.<pid>)")  # fmt: skip
    return parser.parse_args()


def transport_for(args: argparse.Namespace, base: str, number: int) -> Transport:
    """Match ``number``'s transport: with --api, every other match over the API's websocket;
    with --computer, the first ``--matches`` are against it, the rest (``--beside``) between
    two people."""
    if args.api:
        return ApiSocket(base) if number % 2 == 1 else ApiStream(base)
    if args.computer and number < args.matches:
        return PageSocket(base, load_page=False)
    return PageHttp(base) if args.http else PageSocket(base)


async def play_window(site: Site, matches, args, stats: Stats, rng, delay: float) -> dict:
    """Every match played at once. Returns the seating time and, over the play window, the CPU
    each kind of process spent (this one too), the machine's busy and total CPU seconds, and
    this process's event loop lags."""
    measured: dict = {}
    start = Start(len(matches), args.seconds)
    plays = []
    for number, (match_id, a, b) in enumerate(matches):
        players = tuple(c for c in (a, b) if c)  # one against the computer
        transport = transport_for(args, site.base, number)
        plays.append(play(transport, match_id, players, stats, start, args.think, rng, delay))
    games = asyncio.gather(*plays)
    measured["seating"] = await start.begin_when_quiet()
    spies = profile.record(site.pids(), args.seconds, Path(args.profile)) if args.profile else []
    before, machine, mine = site.cpu(), machine_busy(), time.process_time()
    probe = asyncio.create_task(loop_lag(measured.setdefault("lag", [])))

    async def machine_at_deadline() -> None:
        # The play window's end, not the last match's: a think time drawn near the deadline
        # ends many seconds later, with the machine nearly idle meanwhile.
        await asyncio.sleep(max(0.0, start.deadline - time.perf_counter()))
        busy = machine_busy()
        measured["busy"] = [a - b for a, b in zip(busy, machine, strict=True)]

    machine_watch = asyncio.create_task(machine_at_deadline())
    await games
    await machine_watch
    probe.cancel()
    measured["mine"] = time.process_time() - mine
    after = site.cpu()
    measured.update({name: after[name] - before[name] for name in after})
    for spy in spies:
        spy.wait()
    return measured


def main() -> None:
    args = arguments()
    env = production_env()
    metrics_dir = with_metrics(env, on=not args.no_metrics)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    matches = setup_matches(args.matches, args.computer, api=args.api)
    if args.computer and args.beside:
        matches += setup_matches(args.beside, first=args.matches)
    # This process's own lateness is in every latency it measures (it is printed): it runs on
    # uvloop, as the server does (uvicorn[standard]), so that it adds as little as it can.
    import uvloop

    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    delay = float(env.get("COMPUTER_MOVE_DELAY_SECONDS", "0.8"))

    from tests.support.servers import nginx

    if args.front == "nginx" and nginx() is None:
        sys.exit("--front nginx needs nginx (Debian's nginx-light), or use --front none")
    site = Site(env, args.workers, args.front == "nginx", args.task_workers if args.computer else 0)
    site.deflate = not args.no_deflate
    rng = random.Random(1)
    stats = Stats()
    restarted = None
    try:
        site.start()
        measured = asyncio.run(play_window(site, matches, args, stats, rng, delay))
        if metrics_dir:
            measured["scraped"] = moves_scraped(site.base)
        floor = asyncio.run(
            bare_view(site.base, len(matches), min(args.seconds, 15), args.think, rng)
        )
        if not (args.computer or args.api):
            players = [(m, cookie) for m, a, b in matches for cookie in (a, b) if cookie]
            restarted = asyncio.run(restart_with_pages_open(site.base, players, site.restart, rng))
    finally:
        site.stop()
    report(args, stats, measured, floor, restarted, front=site.front is not None, delay=delay)
    if args.profile:
        pids = [
            int(p.suffix[1:])
            for p in Path(args.profile).parent.glob(Path(args.profile).name + ".*")
            if p.suffix[1:].isdigit()  # one file a web process, named by its pid
        ]
        print("\n".join(profile.report([Path(f"{args.profile}.{pid}") for pid in pids])))


def report(
    args, stats: Stats, measured: dict, floor: list[float], restarted, front: bool, delay: float
) -> None:
    stored = stored_moves()
    lost = sum(max(0, n - stored.get(m, 0)) for m, n in stats.acknowledged.items())
    p50, p95, p99 = quantiles(stats.latencies)
    f50, f95, f99 = quantiles(floor)
    busy, total = measured["busy"]
    against = f" against the {args.computer} computer ({args.task_workers} task workers)"
    if args.computer and args.beside:
        against += f", and {args.beside} between two people beside them"
    served = "behind nginx (deploy/nginx.conf)" if front else "sharing one port (uvicorn --workers)"
    print(
        f"{args.matches} concurrent matches{against if args.computer else ''}, "
        f"{args.workers} web processes {served}, PostgreSQL + Redis, websocket "
        f"permessage-deflate {'off (--no-deflate)' if args.no_deflate else 'on (as OPERATING.md)'}"
    )
    if args.no_metrics:
        print("metrics off (--no-metrics: no METRICS_TOKEN, no PROMETHEUS_MULTIPROC_DIR)")
    else:
        print(f"metrics on (multiprocess, as OPERATING.md): a scrape after play counted "
              f"{measured['scraped']:.0f} moves")  # fmt: skip
    sockets = args.matches * (1 if args.computer else 2) + 2 * args.beside * bool(args.computer)
    kind = "streams" if args.api else "sockets"
    print(f"seating {sockets} {kind} (opened, first boards, presence news) took "
          f"{measured['seating']:.1f} s; then {args.seconds:g} s of play, think time "
          f"{args.think:g} s (mean, exponential)")  # fmt: skip

    def row(label: str, text: str) -> None:
        print(f"{label:<29}{text}")

    def spread(q: tuple[float, float, float]) -> str:
        return f"p50 {q[0]:6.1f} ms  p95 {q[1]:6.1f} ms  p99 {q[2]:6.1f} ms"

    def per_move(seconds: float) -> float:
        return seconds / stats.moves * 1000 if stats.moves else float("nan")

    row("moves acknowledged", f"{stats.moves}  ({stats.in_window / args.seconds:.1f} moves/s)")
    made_by = "http post" if args.http else "the websocket, as the page"
    if args.api:
        made_by = "programs: half stream over http and POST moves, half use the websocket"
    row("moves made by", made_by)
    how = "post" if args.http or args.api else "socket move"
    if args.api:
        how = "API move -> opponent event"
    elif args.computer and args.beside:
        how = "move -> the other side's board"
    elif args.computer:
        how = "person's move -> own board"
    else:
        how += " -> opponent push"
    row(how, spread((p50, p95, p99)))
    if args.computer and args.beside:
        row("  against the computer", spread(quantiles(stats.by_kind["computer"])))
        row("  people: -> opponent push", spread(quantiles(stats.by_kind["people"])))
    if args.api:
        row("  http stream, moves posted", spread(quantiles(stats.by_kind["http"])))
        row("  websocket (moves too)", spread(quantiles(stats.by_kind["websocket"])))
    if args.computer:
        row("computer beyond its delay", spread(quantiles(stats.computer)))
        reply = [late + delay for late in stats.computer]
        row("computer's reply", spread(quantiles(reply)) + f"  (its delay {delay:g} s included)")
        per = measured["workers"] / len(stats.computer) * 1000 if stats.computer else 0
        row("task worker CPU per move", f"{per:6.1f} ms  (the computer's search and its move)")
    answer = "post -> http answer" if args.http else "socket move -> own board"
    if args.api:
        answer = "move -> answer or own event"
    row(answer, spread(quantiles(stats.posts)))
    row("bare view (/healthz)", spread((f50, f95, f99)))
    row("ratio move / bare view", f"p50 {p50 / f50:5.1f}x  p99 {p99 / f99:5.1f}x")
    row(
        "server CPU per move",
        f"{per_move(measured['web']):6.1f} ms  (ASGI processes, user + system)",
    )
    if front:
        row(
            "nginx CPU per move",
            f"{per_move(measured['front']):6.1f} ms  (the front, deploy/nginx.conf)",
        )
    if measured["database"]:
        database = per_move(measured["database"])
        row("PostgreSQL CPU per move", f"{database:6.1f} ms  (its processes on this machine)")
    row("machine CPU busy", f"{busy / total * 100:5.1f} %  (every process, in the play window)")
    l50, _, l99 = quantiles(measured["lag"])
    row(
        "this load generator",
        f"{measured['mine'] / args.seconds * 100:5.1f} % of a core, event loop late by "
        f"p50 {l50:.1f} ms, p99 {l99:.1f} ms (part of every latency)",
    )
    row("errors", str(len(stats.errors)))
    for error in stats.errors[:10]:
        print(f"  {error}")
    row("moves lost", str(lost))
    if restarted is None:
        return
    closed = sorted(restarted["closed"].items(), key=str)  # a code may be None
    closes = ", ".join(f"{n} with {code}" for code, n in closed)
    row("restart, pages open", f"the old processes stopped in {restarted['stopped in']:.1f} s; "
        f"sockets closed: {closes}")  # fmt: skip
    row(
        "  every page back",
        f"{len(restarted['waits'])} sockets with their boards {restarted['took']:.1f} s after "
        "the server answered (pages wait 0.5-2 s before reconnecting)",
    )
    row("  socket open -> board", spread(quantiles(restarted["waits"])))
    row("  boards behind the database", str(len(restarted["behind"])))
    row("  reconnect errors", str(len(restarted["errors"])))
    for error in restarted["errors"][:10]:
        print(f"  {error}")


BENCH_METRICS_TOKEN = "bench-only-metrics-token"  # noqa: S105 - a bench's own, not a secret


def with_metrics(env: dict[str, str], *, on: bool) -> str:
    """The site's metrics on (the token set, and one directory made empty for every process
    to write in, as OPERATING.md asks) or off (neither set): the directory, or ""."""
    for name in ("METRICS_TOKEN", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(name, None)
        os.environ.pop(name, None)
    if not on:
        return ""
    directory = tempfile.mkdtemp(prefix="bench-metrics-")
    env.update(METRICS_TOKEN=BENCH_METRICS_TOKEN, PROMETHEUS_MULTIPROC_DIR=directory)
    return directory


def moves_scraped(base: str) -> float:
    """The moves every process counted, as a scrape of ``/metrics`` adds them up."""
    request = urllib.request.Request(
        f"{base}/metrics", headers={"Authorization": f"Bearer {BENCH_METRICS_TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("euchre_moves_total{")
    )
