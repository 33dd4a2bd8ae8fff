"""The players: one loop (``play``) that sits a match's players down and plays it, timing each
move, over whichever transport the run uses.

A transport is how a player reaches the server: the match page (``PageSocket``: the page
loaded, its websocket open, moves sent over it; ``PageHttp``: moves posted over http, the
page's way when its socket is down) or a program through the API (``ApiStream``: the match
followed over the streaming http response, moves posted; ``ApiSocket``: over the API's
websocket, moves sent there too). Each player's view of the match is a seat (``PageSeat``:
the latest board; ``ApiSeat``: the latest state). A match against the computer has one seat:
the computer's moves come pushed by the task workers.
"""

from __future__ import annotations

import asyncio
import json
import re
import time

VERSION = re.compile(r'data-version="(\d+)"')
ACTION = re.compile(r'name="action" value="([^"]+)"')


class Seat:
    """One player's view of the match, from what the server sends: when each version arrived,
    refusals, and an event set at each change. Subclasses read the frames."""

    last_frame = 0.0  # when any seat last received a frame

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.refusals: list = []
        self.changed = asyncio.Event()
        self.client = None  # the player's http client, when the transport has one
        self.ws = None  # the player's websocket, when the transport has one

    async def follow(self, frames) -> None:
        async for frame in frames:
            Seat.last_frame = time.perf_counter()
            self.take(frame)

    def take(self, frame: str) -> None:
        raise NotImplementedError

    async def wait(self, ready, seconds: float = 10) -> bool:
        """Until ``ready()``; False if it is not within ``seconds``."""
        try:
            async with asyncio.timeout(seconds):
                while not ready():
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            return False
        return True


class PageSeat(Seat):
    """A match page: the latest board its socket (or its own post) brought."""

    def __init__(self) -> None:
        super().__init__()
        self.board = ""

    def take(self, frame: str) -> None:
        if 'id="board"' not in frame:
            if "data-error" in frame:
                self.refusals.append(frame)
                self.changed.set()
            return
        version = int(VERSION.search(frame).group(1))
        self.arrived.setdefault(version, time.perf_counter())
        self.board = frame
        self.changed.set()

    @property
    def version(self) -> int:
        return int(VERSION.search(self.board).group(1)) if self.board else 0

    @property
    def my_turn(self) -> bool:
        return "data-your-turn" in self.board

    @property
    def over(self) -> bool:
        return "data-match-over" in self.board

    @property
    def legal_actions(self) -> list[str]:
        return ACTION.findall(self.board)


class ApiSeat(Seat):
    """A program's view of its match, from its event stream: the latest state."""

    def __init__(self) -> None:
        super().__init__()
        self.state: dict = {}

    def take(self, frame: str) -> None:
        event = json.loads(frame)
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

    @property
    def legal_actions(self) -> list[str]:
        return self.state["view"]["legal_actions"]


def match_socket(base: str, match_id: int, cookie: str):
    """A player's match socket, opened as the page opens it (its origin, its session)."""
    import websockets

    return websockets.connect(
        f"{base.replace('http://', 'ws://')}/ws/matches/{match_id}/",
        origin=base,
        additional_headers={"Cookie": f"sessionid={cookie}"},
        open_timeout=30,
    )


class Transport:
    """How one match's players reach the server: ``sit`` opens a player's seat, ``move``
    makes a move, ``close`` closes all it opened. By default a move goes over the player's
    websocket and is answered there by the mover's new board or state, or a refusal."""

    news = "push"  # what a player's seat receives, in the errors' words
    kind = ""  # the API's transports are counted apart

    def __init__(self, base: str) -> None:
        self.base = base
        self.readers: list[asyncio.Task] = []
        self.closers: list = []  # what close() awaits: sockets' and clients' close

    async def sit(self, match_id: int, credential: str) -> Seat:
        raise NotImplementedError

    def follow(self, seat: Seat, frames) -> None:
        self.readers.append(asyncio.create_task(seat.follow(frames)))

    async def move(self, seat: Seat, match_id: int, action: str, version: int) -> str:
        """The error, or "" once the move is acknowledged."""
        await seat.ws.send(json.dumps({"action": action, "version": version}))
        if not await seat.wait(lambda: version + 1 in seat.arrived or seat.refusals):
            return "the mover got no answer in 10 s"
        if seat.refusals:
            return f"refused: {str(seat.refusals[0])[:200]}"
        return ""

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        for close in self.closers:
            await close()


class PageSocket(Transport):
    """The match page: loaded (``load_page``: its cookies, as a browser has them), then its
    websocket opened as live.js opens it."""

    def __init__(self, base: str, load_page: bool = True) -> None:
        super().__init__(base)
        self.load_page = load_page

    async def sit(self, match_id: int, cookie: str) -> Seat:
        import httpx

        seat = PageSeat()
        if self.load_page:
            seat.client = httpx.AsyncClient(
                base_url=self.base, cookies={"sessionid": cookie}, timeout=30
            )
            self.closers.append(seat.client.aclose)
            await seat.client.get(f"/matches/{match_id}/")  # sets the csrftoken cookie
        seat.ws = await match_socket(self.base, match_id, cookie)
        self.closers.append(seat.ws.close)
        self.follow(seat, seat.ws)
        return seat


class PageHttp(PageSocket):
    """The match page with its moves posted over http, answered by the mover's board."""

    async def move(self, seat: Seat, match_id: int, action: str, version: int) -> str:
        response = await seat.client.post(
            f"/matches/{match_id}/act",
            data={"action": action, "version": version},
            headers={"X-CSRFToken": seat.client.cookies["csrftoken"], "HX-Request": "true"},
        )
        if response.status_code != 200:
            return f"http {response.status_code}"
        seat.arrived.setdefault(version + 1, time.perf_counter())
        seat.board = response.text  # htmx swaps the answer in
        return ""


class Api(Transport):
    """A program through the API, with its token; seated once its first state has come."""

    news = "event"

    async def sit(self, match_id: int, token: str) -> Seat:
        seat = ApiSeat()
        await self.open(seat, match_id, {"Authorization": f"Bearer {token}"})
        if not await seat.wait(lambda: seat.version > 0, 60):
            raise RuntimeError("no first state in 60 s")
        return seat

    async def open(self, seat: ApiSeat, match_id: int, auth: dict[str, str]) -> None:
        raise NotImplementedError


class ApiStream(Api):
    """The match followed over the API's streaming http response (NDJSON), moves posted."""

    kind = "http"

    async def open(self, seat: ApiSeat, match_id: int, auth: dict[str, str]) -> None:
        import httpx

        seat.client = httpx.AsyncClient(base_url=self.base, headers=auth, timeout=30)
        self.closers.append(seat.client.aclose)
        self.follow(seat, stream_lines(seat.client, f"/api/v1/stream/matches/{match_id}"))

    async def move(self, seat: Seat, match_id: int, action: str, version: int) -> str:
        move = {"action": action, "version": version}
        response = await seat.client.post(f"/api/v1/matches/{match_id}/move", json=move)
        if response.status_code != 200:
            return f"{response.status_code} {response.text}"
        return ""


class ApiSocket(Api):
    """The match followed over the API's websocket, moves sent there too."""

    kind = "websocket"

    async def open(self, seat: ApiSeat, match_id: int, auth: dict[str, str]) -> None:
        import websockets

        seat.ws = await websockets.connect(
            f"{self.base.replace('http://', 'ws://')}/api/v1/ws/matches/{match_id}",
            additional_headers=auth,
            open_timeout=30,
        )
        self.closers.append(seat.ws.close)
        self.follow(seat, seat.ws)


async def stream_lines(client, path: str):
    """The events of a streaming response, one a line (blank lines keep it alive)."""
    async with client.stream("GET", path, timeout=None) as response:
        async for line in response.aiter_lines():
            if line.strip():
                yield line


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


async def either_changes(seats, seconds: float = 10) -> bool:
    """Wait until either player's seat gets something new; False if nothing came in time."""
    for seat in seats:
        seat.changed.clear()
    waits = [asyncio.create_task(seat.changed.wait()) for seat in seats]
    done, pending = await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return bool(done)


async def computer_moved(seat: Seat, stats, start: Start, delay: float) -> bool:
    """Waits for the computer's move to be pushed, and counts its delay beyond ``delay`` (its
    natural one) from the board that left it to act; False if none came in 15 s."""
    version = seat.version
    if not await seat.wait(lambda: seat.version > version, 15):
        return False
    if version in seat.arrived:
        waited = seat.arrived[version + 1] - max(seat.arrived[version], start.began)
        stats.computer.append(waited - delay)
    return True


async def play(transport: Transport, match_id, credentials, stats, start, think, rng, delay=0.0):
    """Plays match ``match_id`` over ``transport`` from a seat per credential (two players,
    or one person against the computer, whose natural delay is ``delay``) until it ends or
    the play window closes. Each move's latency runs until the opponent's seat has it (against
    the computer, the person's own board); a move counts once the mover's answer came."""
    seats: list[Seat] = []
    try:
        for credential in credentials:
            seats.append(await transport.sit(match_id, credential))
    except Exception as error:
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
        seats = []
    await start.seated()
    try:
        while seats and time.perf_counter() < start.deadline:
            mover = next((seat for seat in seats if seat.my_turn), None)
            if mover is None:
                if seats[0].over:
                    return
                if len(seats) == 1:  # the computer's turn: its move is pushed
                    if not await computer_moved(seats[0], stats, start, delay):
                        stats.errors.append(f"match {match_id}: no computer move in 15 s")
                        return
                elif not await either_changes(seats):
                    stats.errors.append(f"match {match_id}: no {transport.news} in 10 s")
                    return
                continue
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            version = mover.version
            action = rng.choice(mover.legal_actions)
            started = time.perf_counter()
            error = await transport.move(mover, match_id, action, version)
            if error:
                stats.errors.append(f"match {match_id}: {error}")
                return
            stats.posts.append(time.perf_counter() - started)
            stats.acknowledged[match_id] = stats.acknowledged.get(match_id, 0) + 1
            stats.moves += 1
            if started <= start.deadline:
                stats.in_window += 1
            other = next((seat for seat in seats if seat is not mover), mover)
            if not await other.wait(lambda o=other, v=version: v + 1 in o.arrived):
                stats.errors.append(
                    f"match {match_id}: the opponent got no {transport.news} in 10 s"
                )
                return
            stats.latencies.append(other.arrived[version + 1] - started)
            # The API's transports apart, and pages against the computer apart from people's.
            kind = transport.kind or ("computer" if len(seats) == 1 else "people")
            stats.by_kind[kind].append(stats.latencies[-1])
            if not await mover.wait(lambda m=mover, v=version: m.version > v):  # its own board
                stats.errors.append(f"match {match_id}: the mover got no {transport.news} in 10 s")
                return
    except Exception as error:  # counted, and the run goes on
        stats.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
    finally:
        # Pages stay open until every match has made its last move: 400 sockets closing at
        # once is the restart's business, not part of the measured play.
        await start.finished()
        await transport.close()
