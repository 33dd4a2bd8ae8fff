"""The whole run: the site started, the world made, the http requests, the sockets, the
checks at the end and the report. ``python -m bench.fuzz --help``."""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .http_run import Fuzz
from .plan import Planner, Req, World, urlencoded
from .raw_http import exchange, raw_request
from .replay import minimise, shown, ws_minimise, ws_shown
from .report import (
    counts,
    database_connections,
    presence_rows,
    print_causes,
    tracebacks,
)
from .site import Site, fresh_database, site_env
from .sockets import Sock, Sockets, diverse
from .values import DATABASE, NEW_PASSWORD, REDIS_URL, ROOT


async def main_async(args, site: Site, world: World) -> int:
    fuzz = Fuzz(world, site, args)
    print(
        f"routes: {len(world.routes)} url patterns (web "
        f"{sum(r['family'] == 'web' for r in world.routes)}, admin "
        f"{sum(r['family'] == 'admin' for r in world.routes)}, api "
        f"{sum(r['family'] == 'api' for r in world.routes)}), {len(world.static)} static files"
    )
    planner = Planner(world, args.seed, args.huge)
    # One sign-up through the site, as a person makes an account.
    signup = Req(
        n=0,
        route="/accounts/signup/",
        family="web",
        name="signup",
        method="POST",
        who="anon+csrf",
        params={},
        query="",
        body_kind="valid",
        header_kind="normal",
    )
    signup.form = {
        "username": "erin",
        "email": "erin@example.com",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    }
    signup.body, signup.content_type = urlencoded(signup.form), "application/x-www-form-urlencoded"
    got = await fuzz.send(signup)
    print(f"sign-up of erin through /accounts/signup/: {got.label}")
    connections_before = database_connections(site.env["DATABASE_URL"])

    print(
        f"http: the first {len(planner.sweep())} requests sweep every route's parameters "
        "(each kind of value, its own methods, anonymous and as its user); then random ones"
    )
    http_seconds = await fuzz.run(planner, args.requests)
    sockets = Sockets(fuzz, args.seed, args.huge_frames)
    ws_seconds = await sockets.run(args.handshakes, args.concurrency)
    alive = await fuzz.check_sessions()
    await asyncio.sleep(2)  # every socket of the fuzz is closed: their presence rows should go
    presence = presence_rows(site.env["DATABASE_URL"])
    probe = Sock(
        n=0,
        route="/ws/matches/{id}/",
        pkind="mine",
        path=f"/ws/matches/{world.matches['ws']}/",
        origin="own",
        host="own",
        auth="alice session",
        frames=[],
    )
    await sockets.session(probe)

    # Each failing class alone, smaller.
    classes = diverse(
        list(fuzz.failures.items()),
        lambda kv: (kv[1][0][1].label, kv[1][0][0].route, kv[1][0][0].body_kind),
    )
    replayed = []
    hangs_replayed = 0
    for key, items in classes:
        if len(replayed) >= args.replays:
            break
        req, outcome = items[0]
        if outcome.what.startswith("hang"):
            if hangs_replayed >= 6:  # ten seconds each
                continue
            hangs_replayed += 1
        small, got, log, body = await minimise(fuzz, req, outcome)
        replayed.append((key, items, small, got, tracebacks(log), body))
    done = {entry[0] for entry in replayed}
    ws_replayed = []
    ws_classes = diverse(list(sockets.failures.items()), lambda kv: kv[1][0].bucket())
    for key, items in ws_classes[: args.replays]:
        again, traces_ = await ws_minimise(sockets, items[0])
        ws_replayed.append((key, items, again, traces_))

    health = await exchange(
        site.port,
        raw_request(
            "GET",
            b"/healthz",
            b"HTTP/1.1",
            [("Host", f"127.0.0.1:{site.port}".encode()), ("Connection", b"close")],
            b"",
        ),
        "GET",
        False,
        args.timeout,
    )
    connections_after = database_connections(site.env["DATABASE_URL"])

    # ---- figures
    total = len(fuzz.results)
    five = sum(v for k, v in fuzz.by_status.items() if k.isdigit() and int(k) >= 500)
    hangs = sum(v for k, v in fuzz.by_status.items() if k.startswith("hang"))
    drops = sum(v for k, v in fuzz.by_status.items() if k in {"dropped", "truncated"})
    print()
    print(
        f"HTTP: {total} requests in {http_seconds:.0f} s ({total / http_seconds:.0f}/s), "
        f"concurrency {args.concurrency}, seed {args.seed}, timeout {args.timeout:g} s"
    )
    print(f"  by status: {counts(fuzz.by_status)}")
    for family in ("web", "admin", "api", "static", "unknown"):
        print(f"    {family}: {counts(fuzz.by_family[family])}")
    methods = collections.Counter(r.method for r, _ in fuzz.results)
    bodies = collections.Counter(r.body_kind for r, _ in fuzz.results)
    heads = collections.Counter(r.header_kind for r, _ in fuzz.results)
    whos = collections.Counter(r.who for r, _ in fuzz.results)
    print(f"  methods: {counts(methods)}")
    print(f"  as: {counts(whos)}")
    print(f"  bodies: {counts(bodies)}")
    print(f"  headers: {counts(heads)}")
    covered = {r.route for r, _ in fuzz.results}
    missing = [r["template"] for r in world.routes if r["template"] not in covered]
    print(
        f"  routes covered: {len(covered & {r['template'] for r in world.routes})}/"
        f"{len(world.routes)}" + (f" (not reached: {missing})" if missing else "")
    )
    print(
        f"  valid moves: {dict(fuzz.valid_moves)}; matches in play made by the fuzz: "
        f"{world.matches_made}"
    )
    spent: dict[str, list[float]] = collections.defaultdict(list)
    for r, o in fuzz.results:
        if not o.what.startswith("hang"):
            spent[r.route].append(o.elapsed)
    heavy = sorted(spent.items(), key=lambda kv: -sum(kv[1]))[:8]
    print(
        "  most time (route: requests, mean, total): "
        + "; ".join(
            f"{k} {len(v)}, {1000 * sum(v) / len(v):.0f} ms, {sum(v):.0f} s" for k, v in heavy
        )
    )
    slow = sorted((o.elapsed for _, o in fuzz.results), reverse=True)
    print(f"  slowest answers: {', '.join(f'{s:.2f}' for s in slow[:5])} s")
    quiet = collections.Counter(
        r.header_kind for r, o in fuzz.results if o.what.startswith("no answer")
    )
    print(
        f"  5xx: {five}, hangs: {hangs}, dropped: {drops}; no answer where none can come "
        f"(the body the request promised never came, then EOF): {counts(quiet) or 0}"
    )
    wtotal = len(sockets.results)
    wfail = sum(s.failed for s in sockets.results)
    print()
    print(f"Websockets: {wtotal} handshakes in {ws_seconds:.0f} s, concurrency {args.concurrency}")
    grouped = collections.Counter()
    for s in sockets.results:
        grouped[re.sub(r" (after|at|on) .*", "", s.outcome)] += 1
    print(f"  by outcome: {counts(grouped)}")
    print("  in detail: " + ", ".join(f"{k}: {v}" for k, v in sockets.by_outcome.most_common()))
    frames = collections.Counter(k for s in sockets.results for k in s.frames)
    unanswered = collections.Counter(k for s in sockets.results for k in s.unanswered)
    print(f"  frames sent: {counts(frames)}")
    print(f"  frames with no reply within 5 s: {counts(unanswered) or 0}")
    ws5 = sum(1 for s in sockets.results if s.outcome.startswith("http 5"))
    wdrop = sum(1 for s in sockets.results if s.outcome.startswith("dropped"))
    whang = sum(1 for s in sockets.results if s.outcome.startswith("hang"))
    w1011 = sum(1 for s in sockets.results if s.outcome.startswith("closed 1011"))
    print(f"  5xx on the handshake: {ws5}, dropped: {wdrop}, hangs: {whang}, closed 1011: {w1011}")
    print()
    print(f"/healthz at the end: {health.label} {health.snippet.decode('utf-8', 'replace')}")
    print(f"alice's session and token still work: {alive}")
    print(
        f"presence rows (games_connection) left 2 s after every socket of the fuzz closed: "
        f"{presence}; a page socket of alice's on her match now: {probe.outcome}"
    )
    print(
        f"database connections to the site's database (its pool holds up to 20 a process): "
        f"before the fuzz {connections_before}, after {connections_after}"
    )
    log = site.server_log.read_text("utf-8", "replace")
    traces = tracebacks(log)
    signatures = collections.Counter(t.signature() for t in traces)
    access_5xx = len(re.findall(r'" 5\d\d\b', log))
    print(
        f"server log: {len(traces)} tracebacks, {len(signatures)} distinct; "
        f"{access_5xx} access-log lines with a 5xx"
    )
    for sig, n in signatures.most_common(30):
        example = next(t for t in traces if t.signature() == sig)
        print(
            f"  {n:5d} x {sig}\n        {example.exception[:200]}\n"
            f"        (log: {example.header[:120]})\n        last frames: {example.tail}"
        )

    print()
    print(
        f"Failing HTTP classes: {len(fuzz.failures)} (route + what was sent; "
        f"{sum(len(v) for v in fuzz.failures.values())} requests), by cause (the traceback "
        "of each class's first request replayed alone, made smaller while it still fails):"
    )
    print_causes(
        replayed, "requests",
        traces_of=lambda e: e[4], outcome_of=lambda e: e[3].label,
        label_of=lambda item: item[1].label, reproduce=lambda e: shown(e[2], e[5]),
    )  # fmt: skip
    if len(classes) > len(replayed):
        print(f"\n  not replayed ({len(classes) - len(replayed)} classes):")
        for key, items in classes:
            if key not in done:
                print(
                    f"     {len(items)} x {key}: "
                    + counts(collections.Counter(o.label for _, o in items))
                )
    print()
    print(f"Failing websocket classes: {len(sockets.failures)} ({wfail} handshakes), by cause:")
    print_causes(
        ws_replayed, "handshakes",
        traces_of=lambda e: e[3], outcome_of=lambda e: e[2].outcome,
        label_of=lambda item: item.outcome, reproduce=lambda e: ws_shown(sockets, e[2]),
    )  # fmt: skip
    extra_ws = ws_classes[len(ws_replayed) :]
    if extra_ws:
        print(f"\n  not replayed ({len(extra_ws)} classes):")
    for key, items in extra_ws:
        print(f"     {len(items)} x {key}")
    failed = five + hangs + drops + wfail + (health.status != 200)
    print()
    print(
        f"RESULT: {'FAIL' if failed else 'PASS'}: {five} 5xx, {hangs} hangs, {drops} dropped "
        f"http; {wfail} failed websockets; /healthz {health.label}"
    )
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fuzz",
        description="Raw requests and websocket handshakes against the site served the "
        "production way: no 5xx, no dropped connection, no hang.",
    )
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--handshakes", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before a hang")
    parser.add_argument("--huge", type=int, default=30, help="http bodies of a few MB")
    parser.add_argument("--huge-frames", type=int, default=20, help="websocket frames of MBs")
    parser.add_argument("--replays", type=int, default=80, help="failing classes replayed")
    parser.add_argument("--database", default=DATABASE, help="the bench's database gets _fuzz")
    parser.add_argument("--redis", default=REDIS_URL, help="a Redis database it may empty")
    parser.add_argument("--keep", action="store_true", help="keep the logs' directory")
    args = parser.parse_args()

    logs = Path(tempfile.mkdtemp(prefix="euchre-fuzz-"))
    print(f"logs: {logs}")
    env = site_env(fresh_database(args.database), args.redis)
    try:
        import redis

        redis.Redis.from_url(args.redis).flushdb()  # the rate limits' counts of an earlier run
    except Exception as error:  # noqa: BLE001
        print(f"could not empty {args.redis}: {error!r}", file=sys.stderr)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [sys.executable, "-m", "bench.fuzz", "_world"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    data = json.loads(made.stdout.strip().splitlines()[-1])
    site = Site(env, logs)
    code = 1
    try:
        site.start()
        world = World(data, site.port)
        code = asyncio.run(main_async(args, site, world))
    finally:
        site.stop()
        print(f"server log: {site.server_log}")
        if not args.keep and code == 0:
            shutil.rmtree(logs, ignore_errors=True)
    sys.exit(code)
