"""A token is sent as exactly ``Authorization: Bearer <token>`` (RFC 6750: the scheme in any
case, one space), or by a websocket as the subprotocol ``euchre.token.<token>`` as sent. Any
other spelling is refused, 401 ``unauthorized``, before the token is looked up: the front
(deploy/nginx.conf) limits the streams a token opens by the token it reads from these headers,
so a spelling the site took and the front did not read as that token would be a way past the
limit."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from euchre_site.asgi import application
from tests.support import contract
from tests.support.api import token_for
from tests.support.servers import Server, server_env

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async

# The token's own spelling aside, what a program might send: each one refused.
MISSPELT = [
    "Bearer  {token}",  # two spaces
    "Bearer \t{token}",
    "Bearer\t{token}",
    "Bearer {token} ",
    "Bearer {token}\t",
    "Bearer {token} junk",
    "Bearer {token},",
    "Bearer ",
    "Bearer",
    "Bearer{token}",
    "Token {token}",
    "Basic eDp5",
    "{token}",
]
SPELT = ["Bearer {token}", "bearer {token}", "BEARER {token}"]


def refused_401(response) -> None:
    assert response.status_code == 401, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response["WWW-Authenticate"] == "Bearer"
    body = response.json()
    assert body["code"] == "unauthorized"
    assert "Authorization: Bearer <token>" in body["detail"]  # says how to send it


def test_an_authorization_header_not_spelt_bearer_space_token_is_refused(alice):
    token = token_for(alice)
    for spelling in MISSPELT:
        header = {"authorization": spelling.format(token=token)}
        for path in ("/api/v1/account", "/api/v1/stream/account"):
            refused_401(Client(headers=header).get(path))
    for spelling in SPELT:
        client = Client(headers={"authorization": spelling.format(token=token)})
        assert client.get("/api/v1/account").json()["username"] == "alice"


async def socket_answer(headers=(), subprotocols=None) -> tuple[dict, dict | None]:
    """The first frame of an account's socket, and its close if it closed."""
    communicator = WebsocketCommunicator(
        application,
        "/api/v1/ws/account",
        headers=[(b"host", b"testserver"), *headers],
        subprotocols=subprotocols,
    )
    connected, _protocol = await communicator.connect()
    assert connected  # accepted, so that a refusal reaches the client in words
    frame = contract.checked("/api/v1/ws/account", json.loads(await communicator.receive_from()))
    closed = None
    if frame["type"] == "error":
        closed = await communicator.receive_output()
    await communicator.disconnect()
    return frame, closed


def is_refused_401(answer: tuple[dict, dict | None]) -> bool:
    frame, closed = answer
    return (frame["type"], frame.get("code"), closed) == (
        "error",
        "unauthorized",
        {"type": "websocket.close", "code": 4401},
    )


@pytest.mark.asyncio
async def test_a_socket_with_a_misspelt_authorization_is_refused_whatever_it_offers(alice):
    """The header alone counts once it is sent: a token also offered as a subprotocol does
    not open a socket whose header the front could not read as that token."""
    token = await db(token_for)(alice)
    offered = ["euchre.v1", f"euchre.token.{token}"]
    for spelling in MISSPELT:
        header = [(b"authorization", spelling.format(token=token).encode())]
        for subprotocols in (None, offered):
            answer = await socket_answer(header, subprotocols)
            assert is_refused_401(answer), (spelling, subprotocols, answer)
    for spelling in SPELT:
        header = [(b"authorization", spelling.format(token=token).encode())]
        frame, closed = await socket_answer(header)
        assert frame["type"] == "idle" and closed is None


def test_a_subprotocol_counts_as_sent_not_percent_decoded(alice):
    """daphne percent-decodes the subprotocols it hands on (``%2E`` a dot): the token is read
    from the header as sent, as the front reads it. Through a server process, a token offered
    spelt that way is refused; among other offered protocols, in any order, as sent, it
    opens the socket."""
    token = token_for(alice)
    server = Server(server_env()).start()

    async def first(subprotocols: list[str]) -> tuple[dict, int | None]:
        async with websockets.connect(
            server.ws_url + "/api/v1/ws/account", subprotocols=subprotocols
        ) as socket:
            frame = json.loads(await asyncio.wait_for(socket.recv(), 5))
            if frame["type"] == "error":
                await asyncio.wait_for(socket.wait_closed(), 5)
            return frame, socket.close_code

    try:
        for encoded in (f"euchre%2Etoken%2E{token}", f"%65uchre.token.{token}"):
            frame, closed = asyncio.run(first(["euchre.v1", encoded]))
            assert (frame.get("code"), closed) == ("unauthorized", 4401), (encoded, frame)
        for offered in (
            ["made-up", f"euchre.token.{token}", "euchre.v1"],
            ["euchre.v1", "x-other", f"euchre.token.{token}"],
        ):
            frame, closed = asyncio.run(first(offered))
            assert frame["type"] == "idle" and closed is None, offered
    finally:
        server.stop()
