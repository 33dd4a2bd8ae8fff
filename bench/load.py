"""Load: many concurrent matches over real http and websockets, served the production way.

Starts PostgreSQL-backed, Redis-layered servers (two ASGI worker processes behind one address:
``uvicorn --workers 2``), then plays N matches at once from this separate process: each move
is posted over http the way the page posts it, and the opponent's socket must receive the
pushed board. Prints moves per second, post-to-push latency (p50, p95, p99), errors and moves
lost (acknowledged but absent from the database), and the latency of a bare view
(``/healthz``) on the same server under the same concurrency, as a floor.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python bench/load.py --matches 200 --seconds 30 --think 2.0

It makes a database of its own (``<name>_bench``), dropped and created afresh at each run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VERSION = re.compile(r'data-version="(\d+)"')
ACTION = re.compile(r'name="action" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fresh_database(url: str) -> str:
    """Drop and create ``<name>_bench`` next to the database ``url`` names; its URL."""
    import psycopg

    base, name = url.rsplit("/", 1)
    bench = f"{name}_bench"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{bench}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{bench}"')
    return f"{base}/{bench}"


def setup_matches(count: int) -> list[tuple[int, str, str]]:
    """``count`` active matches between fresh users: (match id, cookie A, cookie B)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services

    users = get_user_model().objects
    matches = []
    for number in range(count):
        a = users.create_user(f"load{number}a")
        b = users.create_user(f"load{number}b")
        match = services.match_join(user=b, match_id=services.match_create(user=a).pk)
        cookies = []
        for user in (a, b):
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        matches.append((match.pk, cookies[0], cookies[1]))
    return matches


def stored_moves() -> dict[int, int]:
    from django.db.models import Count

    from games.models import Match

    return dict(Match.objects.annotate(n=Count("moves")).values_list("pk", "n"))


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.acknowledged: dict[int, int] = {}
        self.errors: list[str] = []
        self.moves = 0
        self.posts: list[float] = []


class Seat:
    """One player's socket: keeps the latest board and when each version arrived."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.board = ""
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for frame in self.ws:
            if 'id="board"' not in frame:
                continue
            version = int(VERSION.search(frame).group(1))
            self.arrived.setdefault(version, time.perf_counter())
            self.board = frame
            self.changed.set()

    @property
    def version(self) -> int:
        return int(VERSION.search(self.board).group(1)) if self.board else 0


async def play_match(base, match_id, cookies, stats: Stats, deadline, think, rng) -> None:
    import httpx
    import websockets

    ws_base = base.replace("http://", "ws://")
    seats, clients, readers = [], [], []
    try:
        for cookie in cookies:
            client = httpx.AsyncClient(base_url=base, cookies={"sessionid": cookie}, timeout=30)
            await client.get(f"/matches/{match_id}/")  # sets the csrftoken cookie
            clients.append(client)
            ws = await websockets.connect(
                f"{ws_base}/ws/matches/{match_id}/",
                origin=base,
                additional_headers={"Cookie": f"sessionid={cookie}"},
                open_timeout=30,
            )
            seat = Seat(ws)
            seats.append(seat)
            readers.append(asyncio.create_task(seat.read()))
        while time.perf_counter() < deadline:
            mover = next((i for i in (0, 1) if "data-your-turn" in seats[i].board), None)
            if mover is None:
                if "data-match-over" in seats[0].board:
                    return
                for seat in seats:
                    seat.changed.clear()
                waits = [asyncio.create_task(seat.changed.wait()) for seat in seats]
                done, pending = await asyncio.wait(
                    waits, timeout=10, return_when=asyncio.FIRST_COMPLETED
                )
                for task in pending:
                    task.cancel()
                if not done:
                    stats.errors.append(f"match {match_id}: no board pushed in 10 s")
                    return
                continue
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            seat, other = seats[mover], seats[mover ^ 1]
            version = seat.version
            action = ACTION.findall(seat.board)[0]
            client = clients[mover]
            started = time.perf_counter()
            response = await client.post(
                f"/matches/{match_id}/act",
                data={"action": action, "version": version},
                headers={"X-CSRFToken": client.cookies["csrftoken"], "HX-Request": "true"},
            )
            stats.posts.append(time.perf_counter() - started)
            if response.status_code != 200:
                stats.errors.append(f"match {match_id}: http {response.status_code}")
                return
            stats.acknowledged[match_id] = stats.acknowledged.get(match_id, 0) + 1
            stats.moves += 1
            try:
                async with asyncio.timeout(10):
                    while version + 1 not in other.arrived:
                        other.changed.clear()
                        await other.changed.wait()
            except TimeoutError:
                stats.errors.append(f"match {match_id}: the opponent got no push in 10 s")
                return
            stats.latencies.append(other.arrived[version + 1] - started)
            try:
                async with asyncio.timeout(10):
                    while seat.version < version + 1:  # the mover's own board too
                        seat.changed.clear()
                        await seat.changed.wait()
            except TimeoutError:
                stats.errors.append(f"match {match_id}: the mover got no push in 10 s")
                return
    except Exception as error:  # counted, and the run goes on
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
    finally:
        for task in readers:
            task.cancel()
        for seat in seats:
            await seat.ws.close()
        for client in clients:
            await client.aclose()


async def bare_view(base, players, seconds, think, rng) -> list[float]:
    import httpx

    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def loop(client):
        while time.perf_counter() < deadline:
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            started = time.perf_counter()
            try:
                response = await client.get("/healthz")
            except httpx.HTTPError:
                continue
            if response.status_code == 200:
                latencies.append(time.perf_counter() - started)

    clients = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(players)]
    await asyncio.gather(*(loop(c) for c in clients))
    for client in clients:
        await client.aclose()
    return latencies


def quantiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (values[0] * 1000,) * 3 if values else (float("nan"),) * 3
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[94] * 1000, cuts[98] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    url, redis = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not (url and redis):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark runs production-style")
    env = {**os.environ, "DATABASE_URL": fresh_database(url), "DEBUG": "0"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret")
    env["DJANGO_SETTINGS_MODULE"] = "euchre_site.settings"
    os.environ.update(env)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(["redis-cli", "-u", redis, "flushdb"], check=False, capture_output=True)
    matches = setup_matches(args.matches)

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "euchre_site.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(args.workers), "--no-access-log",
         "--log-level", "warning", "--ws-per-message-deflate", "false",
         "--timeout-keep-alive", "75"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        rng = random.Random(1)
        stats = Stats()

        async def run() -> float:
            deadline = time.perf_counter() + args.seconds
            started = time.perf_counter()
            await asyncio.gather(
                *(play_match(base, m, (a, b), stats, deadline, args.think, rng)
                  for m, a, b in matches)
            )  # fmt: skip
            return time.perf_counter() - started

        elapsed = asyncio.run(run())
        floor = asyncio.run(bare_view(base, args.matches, min(args.seconds, 15), args.think, rng))
    finally:
        server.terminate()
        server.wait(timeout=20)

    stored = stored_moves()
    lost = sum(max(0, n - stored.get(m, 0)) for m, n in stats.acknowledged.items())
    p50, p95, p99 = quantiles(stats.latencies)
    f50, f95, f99 = quantiles(floor)
    print(f"{args.matches} concurrent matches, {args.workers} ASGI workers, PostgreSQL + Redis,")
    print(f"think time {args.think:g} s (mean, exponential), {elapsed:.1f} s of play")
    print(f"moves acknowledged      {stats.moves}  ({stats.moves / elapsed:.1f} moves/s)")
    print(f"post -> opponent push   p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  p99 {p99:6.1f} ms")
    q50, q95, q99 = quantiles(stats.posts)
    print(f"post -> http answer     p50 {q50:6.1f} ms  p95 {q95:6.1f} ms  p99 {q99:6.1f} ms")
    print(f"bare view (/healthz)    p50 {f50:6.1f} ms  p95 {f95:6.1f} ms  p99 {f99:6.1f} ms")
    print(f"ratio move / bare view  p50 {p50 / f50:5.1f}x  p99 {p99 / f99:5.1f}x")
    print(f"errors                  {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"  {error}")
    print(f"moves lost              {lost}")


if __name__ == "__main__":
    main()
