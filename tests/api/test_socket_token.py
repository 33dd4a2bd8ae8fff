"""The API's websockets take the token in a subprotocol as well as in the Authorization
header: a browser's WebSocket cannot set a header. The client offers ``euchre.v1`` and
``euchre.token.<token>``; the server picks ``euchre.v1``, never the one with the secret, and
refuses a bad token with an error frame in words and a close code, as over the header."""

from __future__ import annotations

import asyncio
import json
import subprocess

import pytest
import websockets
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from euchre_site.asgi import application
from games import services
from games.engine import legal_actions
from tests.support.api import token_for
from tests.support.clients import JS_CLIENT
from tests.support.matches import start
from tests.support.servers import Server, server_env

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


def offering(token: str) -> list[str]:
    return ["euchre.v1", f"euchre.token.{token}"]


async def opened(path: str, subprotocols=None, headers=()) -> tuple[WebsocketCommunicator, str]:
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), *headers], subprotocols=subprotocols
    )
    connected, protocol = await communicator.connect()
    assert connected
    return communicator, protocol


async def frame(communicator: WebsocketCommunicator) -> dict:
    return json.loads(await communicator.receive_from(timeout=5))


async def until(communicator: WebsocketCommunicator, kind: str) -> dict:
    """The next frame of this type (others, such as ``opponentGone``, pass by)."""
    while (found := await frame(communicator))["type"] != kind:
        pass
    return found


@pytest.mark.asyncio
async def test_the_token_in_a_subprotocol_opens_a_match_socket_that_speaks_euchre_v1(alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    mover = match.players[match.state.turn]
    path = f"/api/v1/ws/matches/{match.pk}"
    socket, protocol = await opened(path, offering(await db(token_for)(mover)))
    assert protocol == "euchre.v1"
    state = await frame(socket)  # the first, at once
    assert state["type"] == "state" and state["version"] == match.version
    assert state["view"]["legal_actions"] and state["seat"] == match.state.turn
    action = str(legal_actions(match.state)[0])  # it plays as the token's player
    await socket.send_to(text_data=json.dumps({"action": action, "version": match.version}))
    assert (await until(socket, "state"))["version"] == match.version + 1
    await socket.disconnect()


@pytest.mark.asyncio
async def test_the_header_still_opens_it_with_or_without_the_protocol(alice, bob):
    await db(start)(alice, bob, move_seconds=None)
    header = [(b"authorization", f"Bearer {await db(token_for)(alice)}".encode())]
    for offered, chosen in [(None, None), (["euchre.v1"], "euchre.v1")]:
        socket, protocol = await opened("/api/v1/ws/account", offered, header)
        assert protocol == chosen
        assert (await until(socket, "matchStart"))["match"]["status"] == "active"
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_bad_token_in_a_subprotocol_is_refused_in_words(alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    row, revoked = await db(services.api_token_create)(user=alice, name="old", scopes=["read"])
    await db(services.api_token_revoke)(user=alice, token_id=row.pk)
    for token in ["nope", revoked, ""]:
        for path in ["/api/v1/ws/account", f"/api/v1/ws/matches/{match.pk}"]:
            # Accepted with the protocol a browser offered: else it would never see the words.
            socket, protocol = await opened(path, offering(token))
            assert protocol == "euchre.v1"
            refused = await frame(socket)
            assert refused == {"type": "error", "code": "unauthorized", "detail": refused["detail"]}
            assert "token" in refused["detail"].lower()
            closed = await socket.receive_output()
            assert closed == {"type": "websocket.close", "code": 4401}


@pytest.mark.asyncio
async def test_a_read_token_in_a_subprotocol_may_watch_but_not_move(alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    mover = match.players[match.state.turn]
    token = await db(token_for)(mover, scopes=("read",))
    socket, _protocol = await opened(f"/api/v1/ws/matches/{match.pk}", offering(token))
    await until(socket, "state")
    action = str(legal_actions(match.state)[0])
    await socket.send_to(text_data=json.dumps({"action": action, "version": match.version}))
    assert (await until(socket, "error"))["code"] == "scope_missing"
    await socket.disconnect()


# The JavaScript client's websocket transport opens the match's stream with the token, then
# with a bad one: the first event, then the refusal.
FIRST_EVENT = """
const { Bot, ApiError } = await import(process.env.CLIENT);
for (const token of [process.env.TOKEN, "nope"]) {
  const bot = new Bot(process.env.SITE, token, null, { transport: "websocket" });
  try {
    for await (const event of bot.stream(`/api/v1/stream/matches/${process.env.MATCH}`)) {
      console.log(JSON.stringify({ type: event.type, version: event.version }));
      break;
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    console.log(JSON.stringify({ status: error.status, code: error.code }));
  }
}
"""


def test_a_real_handshake_answers_with_euchre_v1_and_never_the_token(alice, bob, node, capfd):
    """Through a server process: the ``websockets`` library's handshake, and Node's WebSocket
    (undici's, which fails a connection as a browser does) running the JavaScript client's
    websocket transport, with a good token and a bad one."""
    match = start(alice, bob, move_seconds=None)
    token = token_for(alice)
    server = Server(server_env()).start()
    try:
        protocol, answer = asyncio.run(handshake(server, match.pk, token))
        env = {"SITE": server.url, "TOKEN": token, "MATCH": str(match.pk)}
        ran = subprocess.run(
            [node, "--experimental-websocket", "--input-type=module", "-e", FIRST_EVENT],
            env={**env, "CLIENT": JS_CLIENT.as_uri()}, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        server.stop()
    assert protocol == "euchre.v1" and token not in answer
    assert ran.returncode == 0, ran.stderr
    lines = [json.loads(line) for line in ran.stdout.splitlines()]
    assert lines == [
        {"type": "state", "version": match.version},
        {"status": 4401, "code": "unauthorized"},
    ]
    out, err = capfd.readouterr()
    assert token not in out + err  # nothing the server logged shows it


async def handshake(server: Server, match_id: int, token: str) -> tuple[str, str]:
    """The protocol the server chose, and its handshake's answer as text."""
    async with websockets.connect(
        f"{server.ws_url}/api/v1/ws/matches/{match_id}", subprotocols=offering(token)
    ) as ws:
        assert json.loads(await ws.recv())["type"] == "state"
        return ws.subprotocol, str(ws.response.headers)
