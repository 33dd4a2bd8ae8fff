"""The API's event streams in tests: over http (chunked lines) and over a websocket."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient

from euchre_site.asgi import application
from games import services
from games.engine import legal_actions
from games.models import Match
from tests.support import contract

db = database_sync_to_async


class HttpStream:
    """An open http stream: its events one by one (heartbeat lines skipped)."""

    def __init__(self, response):
        self.response = response
        self.path = contract.request_of(response)[1]
        self.lines = aiter(response.streaming_content)
        self.buffer = b""

    async def next(self, timeout: float = 5) -> dict:
        while b"\n" not in self.buffer.lstrip(b"\n"):
            self.buffer += await asyncio.wait_for(anext(self.lines), timeout)
        self.buffer = self.buffer.lstrip(b"\n")
        line, self.buffer = self.buffer.split(b"\n", 1)
        return contract.checked(self.path, json.loads(line))

    async def heartbeat(self, timeout: float = 5) -> None:
        """Reads up to the stream's next heartbeat line (events meanwhile are dropped)."""
        while await asyncio.wait_for(anext(self.lines), timeout) != b"\n":
            pass

    async def close(self) -> list[bytes]:
        """The client goes: as the server does then, the read under way is cancelled and the
        stream's own clean-up runs. Only a read under way carries the cancel into the stream:
        one not yet started, or one that ends with a line all the same (it had one ready),
        leaves the stream suspended at its ``yield``, where closing Django's wrappers around
        it never reaches. So each read is started (waited for until its task says it is
        entering the stream), then cancelled, until a cancel lands. Returns what the reads
        brought meanwhile (a heartbeat among them: the stream let a cancel go by)."""
        brought = []
        while True:
            started = asyncio.Event()
            reading = asyncio.ensure_future(self._read(started))
            await started.wait()
            reading.cancel()
            try:
                brought.append(await reading)
            except asyncio.CancelledError:  # it reached the stream: its clean-up ran
                break
            except StopAsyncIteration:  # it ended by itself: its clean-up ran
                return brought
        await self.lines.aclose()
        return brought

    async def _read(self, started: asyncio.Event) -> bytes:
        started.set()
        return await anext(self.lines)


async def http_stream(token: str, path: str, language: str | None = None) -> HttpStream:
    headers = {"authorization": f"Bearer {token}"}
    if language is not None:
        headers["accept-language"] = language
    response = await AsyncClient().get(path, headers=headers)
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    return HttpStream(response)


class SocketStream:
    def __init__(self, communicator: WebsocketCommunicator, path: str):
        self.communicator = communicator
        self.path = path

    async def _frame(self, timeout: float) -> dict:
        frame = json.loads(await self.communicator.receive_from(timeout=timeout))
        contract.checked(self.path, frame)
        return frame

    async def next(self, timeout: float = 5) -> dict:
        """The next event (heartbeat frames checked and skipped, as the http stream's blank
        lines are)."""
        while (frame := await self._frame(timeout)).get("type") == "heartbeat":
            pass
        return frame

    async def heartbeat(self, timeout: float = 5) -> None:
        """Reads up to the socket's next heartbeat frame (events meanwhile are dropped)."""
        while (await self._frame(timeout)).get("type") != "heartbeat":
            pass

    async def close(self) -> None:
        await self.communicator.disconnect()


async def socket_stream(token: str, path: str, language: str | None = None) -> SocketStream:
    headers = [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())]
    if language is not None:
        headers.append((b"accept-language", language.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return SocketStream(communicator, path.split("?")[0])


async def open_stream(kind: str, token: str, path: str, language: str | None = None):
    """A stream of ``path`` (``account``, ``matches/<id>``, ``arenas/<id>``) over http or a
    websocket, its words in ``language`` if given (Accept-Language)."""
    if kind == "http":
        return await http_stream(token, "/api/v1/stream/" + path, language)
    return await socket_stream(token, "/api/v1/ws/" + path, language)


async def ended(kind: str, stream) -> object:
    """How the stream ended: the http response's end, or the websocket's close code."""
    if kind == "http":
        with pytest.raises(StopAsyncIteration):
            await stream.next()
        return "end"
    output = await stream.communicator.receive_output(timeout=5)
    assert output["type"] == "websocket.close"
    return output["code"]


async def until(stream, kind: str, **fields) -> dict:
    while True:
        event = await stream.next()
        if event["type"] == kind and all(event.get(k) == v for k, v in fields.items()):
            return event


@db
def move_once(match_id: int, rng: random.Random) -> Match:
    match = Match.objects.select_related("player0", "player1").get(pk=match_id)
    state = match.state
    return services.move_apply(
        user=match.players[state.turn], match_id=match.pk,
        action=str(rng.choice(legal_actions(state))), version=match.version,
    )  # fmt: skip
