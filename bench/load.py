"""Load: many concurrent matches over real http and websockets, served the production way.

Starts PostgreSQL-backed, Redis-layered web processes as the README's production does: two
uvicorn processes behind nginx with the site's own config (``deploy/nginx.conf``: every
socket of a match reaches the same process), or, with ``--front none``, two uvicorn workers
sharing one port (``uvicorn --workers 2``: a match's two sockets land on either). Then it
plays N matches at once from this separate process. Each move is made the way the match page
makes it: over the page's open websocket (``--http``: posted over http, the page's way when
its socket is down), and the opponent's socket must receive the pushed board. Prints moves
per second, move-to-push latency (p50, p95, p99), errors and moves lost (acknowledged but
absent from the database), the CPU per move of the web processes, of nginx and of PostgreSQL
(its processes, when it runs on this machine), how busy the whole machine was in the play
window, and the latency of a bare view (``/healthz``) under the same concurrency, as a
floor. Then a deploy with every page open: the web processes are stopped (SIGTERM) and
started again (nginx stays up), every page reopens its socket as live.js does, and it prints
how long until all are back with their boards, and whether any board is behind the database.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python bench/load.py --matches 200 --seconds 30 --think 2.0 [--http]

With ``--computer hard`` each match is a person against the computer, whose moves are made by
``--task-workers`` worker processes (``manage.py run_worker``): it prints the push latency of
the people's sockets under that load, and the computer's delay beyond its natural one (the time
from the board that leaves the computer to act to the board with its move, less
``COMPUTER_MOVE_DELAY_SECONDS``). No restart phase in that mode.

With ``--api`` the matches are played by programs through the API (``/api/v1/``): each player
has a token; in half the matches they follow their match over the streaming http response and
post their moves (``POST /api/v1/matches/<id>/move``), in the other half over the API's
websocket, moves sent there too. It prints move-to-opponent-event latency. No restart phase.

It makes a database of its own (``<name>_bench``), dropped and created afresh at each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
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


def fresh_database(url: str, suffix: str = "bench") -> str:
    """Drop and create ``<name>_<suffix>`` next to the database ``url`` names; its URL."""
    import psycopg

    base, name = url.rsplit("/", 1)
    bench = f"{name}_{suffix}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{bench}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{bench}"')
    return f"{base}/{bench}"


def setup_matches(count: int, computer: str = "", api: bool = False) -> list[tuple[int, str, str]]:
    """``count`` active matches between fresh users: (match id, cookie A, cookie B); against
    the computer of that strength if ``computer`` (cookie B empty); with ``api``, API tokens
    in place of the cookies."""
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
        if computer:
            match = services.match_create_computer(user=a, strength=computer)
        else:
            # No move clock: a slow seating must not end matches on time (a version with no move).
            opened = services.match_create(user=a, move_seconds=None)
            match = services.match_join(user=b, match_id=opened.pk)
        cookies = []
        for user in (a,) if computer else (a, b):
            if api:
                cookies.append(
                    services.api_token_create(user=user, name="load", scopes=["read", "play"])[1]
                )
                continue
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        matches.append((match.pk, cookies[0], cookies[1] if len(cookies) > 1 else ""))
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
        self.in_window = 0  # moves made within the measured seconds
        self.posts: list[float] = []
        self.computer: list[float] = []  # the computer's delay beyond its natural one
        self.by_kind: dict[str, list[float]] = {"http": [], "websocket": []}  # with --api


class Seat:
    """One player's socket: keeps the latest board and when each version arrived."""

    last_frame = 0.0  # when any socket last received a frame

    def __init__(self, ws) -> None:
        self.ws = ws
        self.board = ""
        self.arrived: dict[int, float] = {}
        self.refusals: list[str] = []
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for frame in self.ws:
            Seat.last_frame = time.perf_counter()
            if 'id="board"' not in frame:
                if "data-error" in frame:
                    self.refusals.append(frame)
                    self.changed.set()
                continue
            version = int(VERSION.search(frame).group(1))
            self.arrived.setdefault(version, time.perf_counter())
            self.board = frame
            self.changed.set()

    @property
    def version(self) -> int:
        return int(VERSION.search(self.board).group(1)) if self.board else 0


class Start:
    """Every match sits down (pages loaded, sockets open, first boards and the presence news
    of 2N sockets opening delivered) before the measured play begins."""

    def __init__(self, matches: int, seconds: float) -> None:
        self.waiting = matches
        self.playing = matches
        self.seconds = seconds
        self.all_seated = asyncio.Event()
        self.all_finished = asyncio.Event()
        self.go = asyncio.Event()
        self.deadline = 0.0
        self.began = 0.0

    async def seated(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.all_seated.set()
        await self.go.wait()

    async def finished(self) -> None:
        self.playing -= 1
        if self.playing == 0:
            self.all_finished.set()
        await self.all_finished.wait()

    async def begin_when_quiet(self, quiet: float = 1.0, longest: float = 60.0) -> float:
        """Once all are seated and no frame has come for ``quiet`` seconds: start the clock.
        Returns how long seating took."""
        began = time.perf_counter()
        await self.all_seated.wait()
        while time.perf_counter() - Seat.last_frame < quiet:
            if time.perf_counter() - began > longest:
                break
            await asyncio.sleep(0.1)
        seating = time.perf_counter() - began
        self.began = time.perf_counter()
        self.deadline = self.began + self.seconds
        self.go.set()
        return seating


def match_socket(base: str, match_id: int, cookie: str):
    """A player's match socket, opened as the page opens it (its origin, its session)."""
    import websockets

    return websockets.connect(
        f"{base.replace('http://', 'ws://')}/ws/matches/{match_id}/",
        origin=base,
        additional_headers={"Cookie": f"sessionid={cookie}"},
        open_timeout=30,
    )


async def socket_move(seat: Seat, match_id: int, action: str, version: int, stats: Stats) -> bool:
    """A move as the page makes it: over the socket, answered by the mover's new board. False
    (and the error counted) if it was refused or no board came back in 10 s."""
    await seat.ws.send(json.dumps({"action": action, "version": version}))
    try:
        async with asyncio.timeout(10):
            while version + 1 not in seat.arrived and not seat.refusals:
                seat.changed.clear()
                await seat.changed.wait()
    except TimeoutError:
        stats.errors.append(f"match {match_id}: the mover got no answer in 10 s")
        return False
    if seat.refusals:
        stats.errors.append(f"match {match_id}: refused: {seat.refusals[0][:200]}")
        return False
    return True


async def either_changes(seats, seconds: float = 10) -> bool:
    """Wait until either player's seat gets something new; False if nothing came in time."""
    for seat in seats:
        seat.changed.clear()
    waits = [asyncio.create_task(seat.changed.wait()) for seat in seats]
    done, pending = await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return bool(done)


async def play_match(base, match_id, cookies, stats: Stats, start, think, rng, http) -> None:
    import httpx

    seats, clients, readers = [], [], []
    try:
        for cookie in cookies:
            client = httpx.AsyncClient(base_url=base, cookies={"sessionid": cookie}, timeout=30)
            await client.get(f"/matches/{match_id}/")  # sets the csrftoken cookie
            clients.append(client)
            ws = await match_socket(base, match_id, cookie)
            seat = Seat(ws)
            seats.append(seat)
            readers.append(asyncio.create_task(seat.read()))
    except Exception as error:
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
    await start.seated()
    try:
        while seats and time.perf_counter() < start.deadline:
            mover = next((i for i in (0, 1) if "data-your-turn" in seats[i].board), None)
            if mover is None:
                if "data-match-over" in seats[0].board:
                    return
                if not await either_changes(seats):
                    stats.errors.append(f"match {match_id}: no board pushed in 10 s")
                    return
                continue
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            seat, other = seats[mover], seats[mover ^ 1]
            version = seat.version
            action = rng.choice(ACTION.findall(seat.board))
            started = time.perf_counter()
            if http:
                client = clients[mover]
                response = await client.post(
                    f"/matches/{match_id}/act",
                    data={"action": action, "version": version},
                    headers={"X-CSRFToken": client.cookies["csrftoken"], "HX-Request": "true"},
                )
                if response.status_code != 200:
                    stats.errors.append(f"match {match_id}: http {response.status_code}")
                    return
                seat.arrived.setdefault(version + 1, time.perf_counter())
                seat.board = response.text  # htmx swaps the answer in
            elif not await socket_move(seat, match_id, action, version, stats):
                return
            stats.posts.append(time.perf_counter() - started)
            stats.acknowledged[match_id] = stats.acknowledged.get(match_id, 0) + 1
            stats.moves += 1
            if started <= start.deadline:
                stats.in_window += 1
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
        # Pages stay open until every match has made its last move: 400 sockets closing at
        # once is the restart's business below, not part of the measured play.
        await start.finished()
        for task in readers:
            task.cancel()
        for seat in seats:
            await seat.ws.close()
        for client in clients:
            await client.aclose()


class ApiSeat:
    """One program's view of its match, from its event stream: the latest state, and when
    each version arrived."""

    def __init__(self) -> None:
        self.state: dict = {}
        self.arrived: dict[int, float] = {}
        self.refusals: list[dict] = []
        self.changed = asyncio.Event()

    def take(self, event: dict) -> None:
        Seat.last_frame = time.perf_counter()
        if event["type"] == "error":
            self.refusals.append(event)
            self.changed.set()
        if event["type"] != "state":
            return
        self.arrived.setdefault(event["version"], time.perf_counter())
        if event["version"] >= self.version:
            self.state = event
        self.changed.set()

    @property
    def version(self) -> int:
        return self.state.get("version", 0)

    @property
    def my_turn(self) -> bool:
        view = self.state.get("view") or {}
        active = self.state.get("match", {}).get("status") == "active"
        return active and view.get("turn") == self.state.get("seat") and bool(view["legal_actions"])

    @property
    def over(self) -> bool:
        return self.state.get("match", {}).get("status", "active") != "active"

    async def wait(self, ready, seconds: float = 10) -> bool:
        try:
            async with asyncio.timeout(seconds):
                while not ready():
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            return False
        return True


async def read_http_stream(client, path: str, seat: ApiSeat) -> None:
    async with client.stream("GET", path, timeout=None) as response:
        async for line in response.aiter_lines():
            if line.strip():
                seat.take(json.loads(line))


async def read_api_socket(ws, seat: ApiSeat) -> None:
    async for frame in ws:
        seat.take(json.loads(frame))


async def play_api_match(base, match_id, tokens, stats: Stats, start, think, rng, socket) -> None:
    """Two programs: each follows the match (``socket``: over the API's websocket, and sends
    its moves there; else the streaming http response, and posts them); the opponent's stream
    must bring the new state."""
    import httpx
    import websockets

    seats, clients, readers, sockets = [], [], [], []
    try:
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            client = httpx.AsyncClient(base_url=base, headers=auth, timeout=30)
            clients.append(client)
            seat = ApiSeat()
            seats.append(seat)
            if socket:
                ws = await websockets.connect(
                    f"{base.replace('http://', 'ws://')}/api/v1/ws/matches/{match_id}",
                    additional_headers=auth, open_timeout=30,
                )  # fmt: skip
                sockets.append(ws)
                readers.append(asyncio.create_task(read_api_socket(ws, seat)))
            else:
                path = f"/api/v1/stream/matches/{match_id}"
                readers.append(asyncio.create_task(read_http_stream(client, path, seat)))
            if not await seat.wait(lambda s=seat: s.version > 0, 60):
                raise RuntimeError("no first state in 60 s")
    except Exception as error:
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
        seats = []
    await start.seated()
    try:
        while seats and time.perf_counter() < start.deadline:
            mover = next((i for i in (0, 1) if seats[i].my_turn), None)
            if mover is None:
                if seats[0].over:
                    return
                if not await either_changes(seats):
                    stats.errors.append(f"match {match_id}: no event in 10 s")
                    return
                continue
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            seat, other = seats[mover], seats[mover ^ 1]
            version = seat.version
            action = rng.choice(seat.state["view"]["legal_actions"])
            started = time.perf_counter()
            move = {"action": action, "version": version}
            if socket:  # answered by the mover's own stream: the new state, or an error
                await sockets[mover].send(json.dumps(move))
                if not await seat.wait(lambda s=seat, v=version: s.version > v or s.refusals):
                    stats.errors.append(f"match {match_id}: the mover got no answer in 10 s")
                    return
                if seat.refusals:
                    stats.errors.append(f"match {match_id}: refused: {seat.refusals[0]}")
                    return
            else:
                response = await clients[mover].post(f"/api/v1/matches/{match_id}/move", json=move)
                if response.status_code != 200:
                    stats.errors.append(f"match {match_id}: {response.status_code} {response.text}")
                    return
            stats.posts.append(time.perf_counter() - started)
            stats.acknowledged[match_id] = stats.acknowledged.get(match_id, 0) + 1
            stats.moves += 1
            if started <= start.deadline:
                stats.in_window += 1
            if not await other.wait(lambda o=other, v=version: v + 1 in o.arrived):
                stats.errors.append(f"match {match_id}: the opponent got no event in 10 s")
                return
            stats.latencies.append(other.arrived[version + 1] - started)
            stats.by_kind["websocket" if socket else "http"].append(stats.latencies[-1])
            if not await seat.wait(lambda s=seat, v=version: s.version > v):
                stats.errors.append(f"match {match_id}: the mover got no event in 10 s")
                return
    except Exception as error:  # counted, and the run goes on
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
    finally:
        await start.finished()
        for task in readers:
            task.cancel()
        for ws in sockets:
            await ws.close()
        for client in clients:
            await client.aclose()


async def play_computer_match(base, match_id, cookie, stats, start, think, rng, delay) -> None:
    """A person against the computer: the person's moves over the socket (own board back),
    the computer's moves pushed by the workers."""
    seat, reader = None, None
    try:
        seat = Seat(await match_socket(base, match_id, cookie))
        reader = asyncio.create_task(seat.read())
    except Exception as error:
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
    await start.seated()
    try:
        while seat and time.perf_counter() < start.deadline:
            if "data-match-over" in seat.board:
                return
            version = seat.version
            if "data-your-turn" not in seat.board:  # the computer's turn: its move is pushed
                try:
                    async with asyncio.timeout(15):
                        while seat.version <= version:
                            seat.changed.clear()
                            await seat.changed.wait()
                except TimeoutError:
                    stats.errors.append(f"match {match_id}: no computer move in 15 s")
                    return
                if version in seat.arrived:
                    waited = seat.arrived[version + 1] - max(seat.arrived[version], start.began)
                    stats.computer.append(waited - delay)
                continue
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            action = rng.choice(ACTION.findall(seat.board))
            started = time.perf_counter()
            if not await socket_move(seat, match_id, action, version, stats):
                return
            stats.posts.append(time.perf_counter() - started)
            stats.latencies.append(seat.arrived[version + 1] - started)
            stats.acknowledged[match_id] = stats.acknowledged.get(match_id, 0) + 1
            stats.moves += 1
            if started <= start.deadline:
                stats.in_window += 1
    except Exception as error:  # counted, and the run goes on
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
    finally:
        await start.finished()
        if reader:
            reader.cancel()
        if seat:
            await seat.ws.close()


def start_task_workers(count: int, env: dict[str, str]) -> list[subprocess.Popen]:
    command = [sys.executable, "manage.py", "run_worker", "--interval", "0.05"]
    return [
        subprocess.Popen([*command, "--no-startup-delay", "-v0"], cwd=ROOT, env=env)
        for _ in range(count)
    ]


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


async def loop_lag(lags: list[float], every: float = 0.01) -> None:
    """How late this process's own event loop wakes up: its lag is in every latency measured."""
    while True:
        due = time.perf_counter() + every
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - due)


def start_server(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen:
    """``uvicorn --workers N`` on ``port``, started as the README starts it, once it answers
    ``/healthz``."""
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "euchre_site.asgi:served", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers), "--no-access-log",
         "--log-level", "warning", "--ws-per-message-deflate", "false",
         "--timeout-keep-alive", "75"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    for _ in range(150):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    sys.exit("the server did not answer /healthz within 30 s")


def stop_server(server: subprocess.Popen) -> float:
    """SIGTERM to the server and its workers, as a deploy does; seconds until it exited."""
    began = time.perf_counter()
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:  # counted as 10 s: it needed a SIGKILL
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    return time.perf_counter() - began


async def restart_with_pages_open(base: str, players: list[tuple[int, str]], restart, rng) -> dict:
    """A deploy with every page open: each player's socket is open, the server is stopped
    (SIGTERM) and started again by ``restart``, and each page reopens its socket 0.5-2 s after
    it closed (live.js). Measures from the server answering again until every socket holds its
    board, and checks each board is its match's stored version."""
    from games.models import Match

    result = {"waits": [], "behind": [], "errors": [], "closed": {}}

    async def board(ws) -> str:
        async with asyncio.timeout(30):
            while 'id="board"' not in (frame := await ws.recv()):
                pass
        return frame

    async def first_visit(match_id: int, cookie: str):
        ws = await match_socket(base, match_id, cookie)
        await board(ws)
        return ws

    sockets = await asyncio.gather(*(first_visit(m, c) for m, c in players))
    stopped_in = await asyncio.to_thread(restart)
    for ws in sockets:
        await ws.wait_closed()
        code = ws.close_code
        result["closed"][code] = result["closed"].get(code, 0) + 1
    stored = await asyncio.to_thread(lambda: dict(Match.objects.values_list("pk", "version")))
    began = time.perf_counter()
    all_back = asyncio.Event()

    async def comes_back(match_id: int, cookie: str) -> None:
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        opened = time.perf_counter()
        try:
            async with match_socket(base, match_id, cookie) as ws:
                frame = await board(ws)
                result["waits"].append(time.perf_counter() - opened)
                if int(VERSION.search(frame).group(1)) != stored[match_id]:
                    result["behind"].append(match_id)
                await all_back.wait()  # stays connected until every page is back
        except Exception as error:
            result["errors"].append(f"match {match_id}: {type(error).__name__}: {error}")

    tasks = [asyncio.create_task(comes_back(m, c)) for m, c in players]
    while len(result["waits"]) + len(result["errors"]) < len(players):
        await asyncio.sleep(0.01)
    result["took"] = time.perf_counter() - began
    result["stopped in"] = stopped_in
    all_back.set()
    await asyncio.gather(*tasks)
    return result


def process_cpu_seconds(root: int | None = None, name: str = "") -> float:
    """CPU time (user + system), from /proc, of process ``root`` and its children, or of every
    process called ``name`` (``postgres``: the database server, when it runs on this machine)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            called, fields = (entry / "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        fields = fields.split()
        pid, parent = int(entry.name), int(fields[1])
        if root in (pid, parent) or (name and called.split("(", 1)[1] == name):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(values) - idle) / tick, sum(values) / tick


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
    parser.add_argument("--workers", type=int, default=2, help="web processes")
    parser.add_argument("--front", choices=["nginx", "none"], default="nginx",
                        help="nginx in front of a process per port (deploy/nginx.conf), or "
                        "none: uvicorn's workers sharing one port")  # fmt: skip
    parser.add_argument("--http", action="store_true", help="post moves over http instead")
    parser.add_argument("--computer", choices=["easy", "medium", "hard"], default="",
                        help="each match a person against the computer")  # fmt: skip
    parser.add_argument("--task-workers", type=int, default=2, help="with --computer")
    parser.add_argument("--api", action="store_true",
                        help="programs play through the API: half stream over http (moves "
                        "posted), half over the websocket (moves sent there)")  # fmt: skip
    args = parser.parse_args()
    url, redis = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not (url and redis):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark runs production-style")
    env = {**os.environ, "DATABASE_URL": fresh_database(url), "DEBUG": "0"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    env["DJANGO_SETTINGS_MODULE"] = "euchre_site.settings"
    os.environ.update(env)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(["redis-cli", "-u", redis, "flushdb"], check=False, capture_output=True)
    matches = setup_matches(args.matches, args.computer, api=args.api)
    # This process's own lateness is in every latency it measures (it is printed): it runs on
    # uvloop, as the server does (uvicorn[standard]), so that it adds as little as it can.
    import uvloop

    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    delay = float(env.get("COMPUTER_MOVE_DELAY_SECONDS", "0.8"))

    from tests.servers import Front, nginx

    if args.front == "nginx" and nginx() is None:
        sys.exit("--front nginx needs nginx (Debian's nginx-light), or use --front none")
    # nginx in front of a process per port, or one port shared by uvicorn's workers.
    per_port = 1 if args.front == "nginx" else args.workers
    ports = [free_port() for _ in range(args.workers // per_port)]

    def start_web() -> list[subprocess.Popen]:
        return [start_server(port, per_port, env) for port in ports]

    servers = start_web()
    task_workers = start_task_workers(args.task_workers if args.computer else 0, env)
    front = Front(ports).start() if args.front == "nginx" else None
    base = front.url if front else f"http://127.0.0.1:{ports[0]}"

    def web_cpu() -> float:
        return sum(process_cpu_seconds(server.pid) for server in servers)

    def front_cpu() -> float:
        return process_cpu_seconds(front.process.pid) if front else 0.0

    try:
        rng = random.Random(1)
        stats = Stats()

        measured = {}

        async def run() -> None:
            start = Start(len(matches), args.seconds)
            if args.api:
                games = asyncio.gather(
                    *(play_api_match(base, m, (a, b), stats, start, args.think, rng, n % 2 == 1)
                      for n, (m, a, b) in enumerate(matches))
                )  # fmt: skip
            elif args.computer:
                games = asyncio.gather(
                    *(play_computer_match(base, m, a, stats, start, args.think, rng, delay)
                      for m, a, _b in matches)
                )  # fmt: skip
            else:
                games = asyncio.gather(
                    *(play_match(base, m, (a, b), stats, start, args.think, rng, args.http)
                      for m, a, b in matches)
                )  # fmt: skip
            measured["seating"] = await start.begin_when_quiet()
            cpu, machine, nginx_cpu = web_cpu(), machine_busy(), front_cpu()
            database = process_cpu_seconds(name="postgres")
            workers_cpu = sum(process_cpu_seconds(w.pid) for w in task_workers)
            mine = time.process_time()
            probe = asyncio.create_task(loop_lag(measured.setdefault("lag", [])))

            async def machine_at_deadline() -> None:
                # The play window's end, not the last match's: a think time drawn near the
                # deadline ends many seconds later, with the machine nearly idle meanwhile.
                await asyncio.sleep(max(0.0, start.deadline - time.perf_counter()))
                busy = machine_busy()
                measured["busy"] = [a - b for a, b in zip(busy, machine, strict=True)]

            machine_watch = asyncio.create_task(machine_at_deadline())
            await games
            await machine_watch
            probe.cancel()
            measured["mine"] = time.process_time() - mine
            measured["cpu"] = web_cpu() - cpu
            measured["front"] = front_cpu() - nginx_cpu
            measured["database"] = process_cpu_seconds(name="postgres") - database
            measured["workers"] = sum(process_cpu_seconds(w.pid) for w in task_workers)
            measured["workers"] -= workers_cpu

        asyncio.run(run())
        cpu, (busy, total) = measured["cpu"], measured["busy"]
        floor = asyncio.run(bare_view(base, args.matches, min(args.seconds, 15), args.think, rng))

        # A deploy in the middle of it all: every page open, the web processes restarted.
        def restart() -> float:
            nonlocal servers
            stopped_in = max(stop_server(server) for server in servers)
            servers = start_web()
            return stopped_in

        players = [(m, cookie) for m, a, b in matches for cookie in (a, b) if cookie]
        restarted = None
        if not (args.computer or args.api):
            restarted = asyncio.run(restart_with_pages_open(base, players, restart, rng))
    finally:
        for server in servers:
            stop_server(server)
        if front:
            front.stop()
        for worker in task_workers:
            worker.terminate()
            worker.wait()

    stored = stored_moves()
    lost = sum(max(0, n - stored.get(m, 0)) for m, n in stats.acknowledged.items())
    p50, p95, p99 = quantiles(stats.latencies)
    f50, f95, f99 = quantiles(floor)
    against = f" against the {args.computer} computer ({args.task_workers} task workers)"
    served = "behind nginx (deploy/nginx.conf)" if front else "sharing one port (uvicorn --workers)"
    print(
        f"{args.matches} concurrent matches{against if args.computer else ''}, "
        f"{args.workers} web processes {served}, PostgreSQL + Redis,"
    )
    sockets = args.matches * (1 if args.computer else 2)
    kind = "streams" if args.api else "sockets"
    print(f"seating {sockets} {kind} (opened, first boards, presence news) took "
          f"{measured['seating']:.1f} s; then {args.seconds:g} s of play, think time "
          f"{args.think:g} s (mean, exponential)")  # fmt: skip

    def row(label: str, text: str) -> None:
        print(f"{label:<29}{text}")

    def spread(q: tuple[float, float, float]) -> str:
        return f"p50 {q[0]:6.1f} ms  p95 {q[1]:6.1f} ms  p99 {q[2]:6.1f} ms"

    row("moves acknowledged", f"{stats.moves}  ({stats.in_window / args.seconds:.1f} moves/s)")
    made_by = "http post" if args.http else "the websocket, as the page"
    if args.api:
        made_by = "programs: half stream over http and POST moves, half use the websocket"
    row("moves made by", made_by)
    how = "post" if args.http or args.api else "socket move"
    if args.api:
        how = "API move -> opponent event"
    elif args.computer:
        how = "person's move -> own board"
    else:
        how += " -> opponent push"
    row(how, spread((p50, p95, p99)))
    if args.api:
        row("  http stream, moves posted", spread(quantiles(stats.by_kind["http"])))
        row("  websocket (moves too)", spread(quantiles(stats.by_kind["websocket"])))
    if args.computer:
        row("computer beyond its delay", spread(quantiles(stats.computer)))
        per = measured["workers"] / len(stats.computer) * 1000 if stats.computer else 0
        row("task worker CPU per move", f"{per:6.1f} ms  (the computer's search and its move)")
    answer = "post -> http answer" if args.http else "socket move -> own board"
    if args.api:
        answer = "move -> answer or own event"
    row(answer, spread(quantiles(stats.posts)))
    row("bare view (/healthz)", spread((f50, f95, f99)))
    row("ratio move / bare view", f"p50 {p50 / f50:5.1f}x  p99 {p99 / f99:5.1f}x")
    per_move = cpu / stats.moves * 1000 if stats.moves else float("nan")
    row("server CPU per move", f"{per_move:6.1f} ms  (ASGI processes, user + system)")
    if front:
        per_front = measured["front"] / stats.moves * 1000 if stats.moves else float("nan")
        row("nginx CPU per move", f"{per_front:6.1f} ms  (the front, deploy/nginx.conf)")
    if measured["database"]:
        database = measured["database"] / stats.moves * 1000 if stats.moves else float("nan")
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


if __name__ == "__main__":
    main()
