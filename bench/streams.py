"""One account tries to open 1,000 API streams on one match (issue 36's attack): how many the
site lets it hold, and what it does to the other players' moves.

Serves the site as OPERATING.md's production commands do (two uvicorn web processes behind nginx
with ``deploy/nginx.conf``, PostgreSQL, Redis; ``bench.load.servers``). Two players play the
match over their page sockets, a move every ``--think`` seconds, and the time from each move to
the opponent's pushed board is measured: first for ``--seconds`` alone, then for as long again
while a third account, with 10 tokens, opens ``--streams`` streams on the same match (half
over the API's websocket, half as NDJSON over http) and holds every one it gets. Prints the
streams held and refused (with the words of the refusal) and the move-to-push latency of the
phases (p50, p95, p99): alone, while the attempts are made, and afterwards while the
attacker holds what it got; with the ratios of the medians.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/streams.py [--streams 1000]

It makes a database of its own (``<name>_bench``), dropped and created afresh at each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load.measuring import quantiles  # noqa: E402
from bench.load.servers import Site, production_env  # noqa: E402

VERSION = '<div id="board"'


def setup() -> tuple[int, list[str], list[str]]:
    """A match between two fresh players (their session cookies) and the attacker's tokens."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services

    users = get_user_model().objects
    a, b, attacker = (users.create_user(name) for name in ("ann", "ben", "mallory"))
    match = services.match_join(
        user=b, match_id=services.match_create(user=a, move_seconds=None).pk
    )
    cookies = []
    for user in (a, b):
        client = Client()
        client.force_login(user)
        cookies.append(client.cookies["sessionid"].value)
    tokens = [
        services.api_token_create(user=attacker, name=f"t{n}", scopes=["read"])[1]
        for n in range(10)
    ]
    return match.pk, cookies, tokens


class Seat:
    """A player's page socket: its latest board."""

    def __init__(self, ws):
        self.ws = ws
        self.board = ""
        self.seen: dict[int, float] = {}
        self.reader = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        import re

        async for frame in self.ws:
            if VERSION in frame:
                version = int(re.search(r'data-version="(\d+)"', frame).group(1))
                self.seen.setdefault(version, time.perf_counter())
                self.board = frame

    @property
    def version(self) -> int:
        import re

        found = re.search(r'data-version="(\d+)"', self.board)
        return int(found.group(1)) if found else 0


async def play(base: str, match_id: int, cookies: list[str], until: float, think: float,
               rng: random.Random) -> list[tuple[float, float]]:  # fmt: skip
    """Moves over the page sockets until ``until``: when each was sent, and its
    move-to-opponent-push latency."""
    import re

    import websockets

    url = f"{base.replace('http://', 'ws://')}/ws/matches/{match_id}/"
    seats = [
        Seat(
            await websockets.connect(
                url, origin=base, additional_headers={"Cookie": f"sessionid={c}"}
            )
        )
        for c in cookies
    ]
    latencies = []
    while time.perf_counter() < until:
        await asyncio.sleep(rng.expovariate(1 / think))
        mover = next((s for s in seats if "data-your-turn" in s.board), None)
        if mover is None:
            continue
        other = seats[1 - seats.index(mover)]
        version = mover.version
        actions = re.findall(r'name="action" value="([^"]+)"', mover.board)
        sent = time.perf_counter()
        await mover.ws.send(json.dumps({"action": rng.choice(actions), "version": version}))
        for _ in range(500):
            if version + 1 in other.seen and version + 1 in mover.seen:
                break
            await asyncio.sleep(0.01)
        if version + 1 in other.seen:
            latencies.append((sent, other.seen[version + 1] - sent))
    for seat in seats:
        await seat.ws.close()
        seat.reader.cancel()
    return latencies


async def attack(base: str, match_id: int, tokens: list[str], count: int, held: list) -> Counter:
    """``count`` streams on the match, half websockets, half NDJSON, each kept if let in."""
    import httpx
    import websockets

    outcome: Counter = Counter()
    client = httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=None))
    held.append(client)

    async def one(n: int) -> None:
        auth = {"Authorization": f"Bearer {tokens[n % len(tokens)]}"}
        try:
            if n % 2:
                ws = await websockets.connect(
                    f"{base.replace('http://', 'ws://')}/api/v1/ws/matches/{match_id}",
                    additional_headers=auth, open_timeout=30,
                )  # fmt: skip
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if first.get("type") == "error":
                    outcome[f"websocket refused: {first['code']}: {first['detail']}"] += 1
                    await ws.close()
                else:
                    outcome["websocket held"] += 1
                    held.append(ws)
            else:
                request = client.build_request(
                    "GET", f"/api/v1/stream/matches/{match_id}", headers=auth
                )
                response = await client.send(request, stream=True)
                if response.status_code == 200:
                    outcome["NDJSON held"] += 1
                    held.append(response)
                else:
                    body = json.loads(await response.aread())
                    outcome[
                        f"NDJSON refused: {response.status_code} {body['code']}: {body['detail']}"
                    ] += 1
                    await response.aclose()
        except websockets.InvalidStatus as error:  # refused before the upgrade: by the front
            refusal = error.response
            body = json.loads(refusal.body)
            outcome[
                f"websocket refused: {refusal.status_code} {body['code']}: {body['detail']}"
            ] += 1
        except Exception as error:  # noqa: BLE001 - counted and printed: what the attacker saw
            outcome[f"failed: {type(error).__name__}"] += 1

    for start in range(0, count, 50):  # 50 at a time, as fast as they are answered
        await asyncio.gather(*(one(n) for n in range(start, min(start + 50, count))))
    return outcome


def attacker(base: str, match_id: int, tokens: list[str], count: int, until: float, report):
    """The attacker, in a process of its own (its work is not in the players' loop): the
    attempts, then holding what it got until ``until`` (wall clock). Puts the outcome and
    when the attempts began and ended on ``report``."""

    async def go():
        held: list = []
        began = time.time()
        outcome = await attack(base, match_id, tokens, count, held)
        ended = time.time()
        report.put((dict(outcome), began, ended))
        await asyncio.sleep(max(0.0, until - time.time()))
        for thing in reversed(held):
            try:
                await (thing.aclose() if hasattr(thing, "aclose") else thing.close())
            except Exception:  # noqa: BLE001, S110 - closing what the attack held, at the end
                pass

    asyncio.run(go())


async def run(site: Site, match_id: int, cookies, tokens, args) -> tuple:
    import multiprocessing

    rng = random.Random(36)
    alone = await play(
        site.base, match_id, cookies, time.perf_counter() + args.seconds, args.think, rng
    )
    report = multiprocessing.get_context("spawn").Queue()
    until = time.time() + args.seconds
    process = multiprocessing.get_context("spawn").Process(
        target=attacker, args=(site.base, match_id, tokens, args.streams, until, report)
    )
    cpu_before = site.cpu()
    process.start()

    async def attempts_made():
        reported = await asyncio.get_running_loop().run_in_executor(None, report.get)
        cpu = site.cpu()
        return *reported, {k: cpu[k] - cpu_before[k] for k in ("web", "front", "database")}

    attacked, (outcome, began, ended, cpu) = await asyncio.gather(
        play(site.base, match_id, cookies, time.perf_counter() + args.seconds, args.think, rng),
        attempts_made(),
    )
    process.join()
    outcome = Counter(outcome)
    outcome[f"(the attempts took {ended - began:.1f} s)"] = 0
    outcome[
        "(CPU meanwhile: web {web:.1f} s, nginx {front:.1f} s, PostgreSQL {database:.1f} s)".format(
            **cpu
        )
    ] = 0
    shift = time.time() - time.perf_counter()  # the players' clock to the wall clock
    during = [latency for sent, latency in attacked if sent + shift < ended]
    after = [latency for sent, latency in attacked if sent + shift >= ended]
    return [latency for _sent, latency in alone], during, after, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20, help="each phase")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds between moves")
    args = parser.parse_args()
    env = production_env()
    match_id, cookies, tokens = setup()
    site = Site(env, 2, True)
    try:
        site.start()
        alone, during, after, outcome = asyncio.run(run(site, match_id, cookies, tokens, args))
    finally:
        site.stop()
    print(f"{args.streams} streams attempted by one account (10 tokens) on a match in play,")
    print("2 web processes behind nginx (deploy/nginx.conf), PostgreSQL + Redis, as OPERATING.md")
    for what, count in sorted(outcome.items()):
        print(f"  {count:5d}  {what}" if count else f"         {what}")
    phases = (("alone", alone), ("attempting", during), ("holding", after))
    for name, values in phases:
        p50, p95, p99 = quantiles(values)
        print(f"move -> opponent push, {name:12s} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms"
              f"  p99 {p99:6.1f} ms  ({len(values)} moves)")  # fmt: skip
    for name, values in phases[1:]:
        if alone and values:
            ratio = statistics.median(values) / statistics.median(alone)
            print(f"median {name} / alone: {ratio:.2f}x")


if __name__ == "__main__":
    main()
