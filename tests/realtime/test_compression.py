"""The production web process's websockets (docs/OPERATING.md's uvicorn command, run as it is
written): permessage-deflate with a window that holds the last board a socket was sent, so a
board pushed after a move reaches the player as little more than what changed. Counted in
bytes on the wire, as a phone receives them."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Opcode
from websockets.uri import parse_uri

from euchre_site import wsprotocol
from tests.support.matches import start
from tests.support.players import ACTION, VERSION, session_cookie
from tests.support.servers import Uvicorn, server_env

pytestmark = pytest.mark.django_db(transaction=True)


class WireSocket:
    """A match page's socket as a browser opens it (permessage-deflate offered, as Chromium
    offers it), counting the bytes that reach it."""

    def __init__(self, server, cookie: str, match_id: int):
        self.url = f"{server.ws_url}/ws/matches/{match_id}/"
        self.origin, self.cookie = server.url, cookie
        self.received = 0  # bytes off the wire, compressed frames and all
        self.board = ""
        self.agreed = ""  # the Sec-WebSocket-Extensions the server answered

    async def open(self) -> WireSocket:
        uri = parse_uri(self.url)
        self.reader, self.writer = await asyncio.open_connection(uri.host, uri.port)
        offer = ClientPerMessageDeflateFactory(client_max_window_bits=True)
        self.protocol = ClientProtocol(uri, origin=self.origin, extensions=[offer])
        request = self.protocol.connect()
        request.headers["Cookie"] = self.cookie
        self.protocol.send_request(request)
        self._flush()
        while self.protocol.handshake_exc is None and not self.agreed:
            async with asyncio.timeout(10):  # a failure's guard: the answer comes at once
                self.protocol.receive_data(await self.reader.read(65536))
            for event in self.protocol.events_received():
                if hasattr(event, "status_code"):
                    assert event.status_code == 101, event
                    self.agreed = event.headers.get("Sec-WebSocket-Extensions", "")
        assert self.protocol.handshake_exc is None
        return self

    def _flush(self) -> None:
        self.writer.write(b"".join(self.protocol.data_to_send()))

    async def board_at(self, version: int) -> tuple[str, int]:
        """The first board at ``version`` or later, and the bytes received since the last."""
        before = self.received
        while True:
            for event in self.protocol.events_received():
                if event.opcode is Opcode.TEXT:
                    text = event.data.decode()
                    found = VERSION.search(text)
                    if 'id="board"' in text and found and int(found.group(1)) >= version:
                        self.board = text
                        return text, self.received - before
            async with asyncio.timeout(10):  # a failure's guard: a push comes at once
                data = await self.reader.read(65536)
            assert data, "the server closed the socket"
            self.received += len(data)
            self.protocol.receive_data(data)
            self._flush()  # pongs, if any

    async def move(self) -> None:
        version = int(VERSION.search(self.board).group(1))
        frame = json.dumps({"action": ACTION.findall(self.board)[0], "version": version})
        self.protocol.send_text(frame.encode())
        self._flush()

    def close(self) -> None:
        self.writer.close()


def test_a_pushed_board_goes_out_as_little_more_than_what_changed(alice, bob):
    match = start(alice, bob, seed=11)
    cookies = {alice.pk: session_cookie(alice), bob.pk: session_cookie(bob)}
    server = Uvicorn(server_env()).start()
    try:

        async def scenario():
            sockets = {}
            for user in (alice, bob):
                sockets[user.pk] = await WireSocket(server, cookies[user.pk], match.pk).open()
                await sockets[user.pk].board_at(match.version)
            agreed = sockets[alice.pk].agreed
            sent = []  # (bytes of the board's HTML, bytes on the wire), each socket, each move
            version = match.version
            for _ in range(6):
                mover = next(s for s in sockets.values() if "data-your-turn" in s.board)
                await mover.move()
                version += 1
                for socket in sockets.values():
                    text, wire = await socket.board_at(version)
                    sent.append((len(text.encode()), wire))
            for socket in sockets.values():
                socket.close()
            return agreed, sent

        agreed, sent = asyncio.run(scenario())
    finally:
        server.stop()
    assert "permessage-deflate" in agreed
    assert f"server_max_window_bits={wsprotocol.SERVER_WINDOW_BITS}" in agreed
    # With uvicorn's own 4 KB window a board of about 7 KB went out as about a quarter of
    # itself; with the window holding the last board, as what changed (bench/boards.py).
    for html, wire in sent:
        assert html > 4000
        assert wire < html / 8, (html, wire)
