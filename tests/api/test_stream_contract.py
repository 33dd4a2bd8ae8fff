"""What docs/API.md promises of the API's streams, each over http and the websocket: a first
event at once (a real server's headers with it), the state for a reconnect that missed nothing,
a final event and the end when the match is over, which side of a challenge the receiver is
on, and ``opponentGone`` as the opponent leaves the table and comes back."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
from datetime import datetime

import pytest
import websockets
from channels.testing import WebsocketCommunicator

from euchre_site.asgi import application
from games import services
from games.models import Match
from tests.support.api import token_for
from tests.support.matches import start
from tests.support.players import session_cookie
from tests.support.servers import Server, server_env
from tests.support.streams import db, ended, move_once, open_stream, until

pytestmark = pytest.mark.django_db(transaction=True)
KINDS = ["http", "websocket"]


def http_first(server: Server, token: str, path: str) -> bytes:
    """The first line of an http stream (a blank line would be a heartbeat)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    assert response.status == 200
    line = response.readline()
    connection.close()
    return line


async def socket_first(server: Server, token: str, path: str) -> dict:
    async with websockets.connect(
        server.ws_url + path, additional_headers={"Authorization": f"Bearer {token}"}
    ) as socket:
        return json.loads(await asyncio.wait_for(socket.recv(), 30))


def test_every_stream_sends_its_headers_and_a_first_event_at_once(alice, bob, carol):
    """On a real server (daphne holds an http response's headers until its first bytes): an
    idle account's stream says so at once, a match's sends the state."""
    match = start(alice, bob, move_seconds=None)
    idle = token_for(carol)
    streams = [
        (idle, "account", {"type": "idle"}),
        (token_for(alice), f"matches/{match.pk}", {"type": "state", "version": match.version}),
    ]
    server = Server(server_env()).start()
    try:
        warm_up = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        warm_up.request("GET", "/api/v1/account", headers={"Authorization": f"Bearer {idle}"})
        assert warm_up.getresponse().status == 200  # what is measured is a stream, not imports
        warm_up.close()
        for token, path, expected in streams:
            # The headers, then the first event before any heartbeat: nothing held back.
            first = http_first(server, token, f"/api/v1/stream/{path}")
            assert first.strip(), f"{path}: a heartbeat came before the first event"
            assert json.loads(first).items() >= expected.items()
            event = asyncio.run(socket_first(server, token, f"/api/v1/ws/{path}"))
            assert event.items() >= expected.items()
    finally:
        server.stop()


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_a_reconnect_at_the_current_version_gets_the_state(kind, alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    token = await db(token_for)(alice)
    rng = random.Random(2)
    for _ in range(3):
        current = (await move_once(match.pk, rng)).version
    # At the version it saw (one yet to come is refused: tests/api/test_api_gaps.py).
    for _ in range(2):
        since = current
        stream = await open_stream(kind, token, f"matches/{match.pk}?since={since}")
        first = await stream.next(timeout=2)
        assert first["type"] == "state" and first["version"] == current
        moved = await move_once(match.pk, rng)  # and it follows the match from there
        assert (await until(stream, "move"))["version"] == moved.version
        assert (await until(stream, "state"))["version"] == moved.version
        current = moved.version
        await stream.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_a_match_stream_ends_with_the_final_state_and_a_closed_event(kind, alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    token = await db(token_for)(alice)
    stream = await open_stream(kind, token, f"matches/{match.pk}")
    assert (await stream.next())["type"] == "state"
    await db(services.match_resign)(user=bob, match_id=match.pk)
    final = await until(stream, "state")
    assert final["match"]["status"] != "active"
    closed = await stream.next()
    assert closed["type"] == "closed" and closed["code"] == "over" and closed["detail"]
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)
    # Opened on a match already over (from the start, or missing its last moves): the same.
    for since in ("", "?since=1"):
        again = await open_stream(kind, token, f"matches/{match.pk}{since}")
        events = [await again.next()]
        while events[-1]["type"] != "closed":
            events.append(await again.next())
        assert events[-2] == final and events[-1] == closed
        assert all(event["type"] == "move" for event in events[:-2])
        assert await ended(kind, again) == ("end" if kind == "http" else 1000)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_challenge_events_say_which_side_the_receiver_is_on(kind, alice, bob):
    alices = await open_stream(kind, await db(token_for)(alice), "account")
    bobs = await open_stream(kind, await db(token_for)(bob), "account")
    assert await alices.next() == {"type": "idle"} == await bobs.next()  # nothing yet
    challenge = await db(services.challenge_create)(user=bob, challenged=alice)
    to_alice, from_bob = await until(alices, "challenge"), await until(bobs, "challenge")
    assert to_alice["challenge"] == from_bob["challenge"]
    assert (to_alice["direction"], from_bob["direction"]) == ("in", "out")
    await db(services.challenge_decline)(user=alice, challenge_id=challenge.pk)
    gone_alice, gone_bob = await until(alices, "challengeGone"), await until(bobs, "challengeGone")
    assert gone_alice["challenge_id"] == gone_bob["challenge_id"] == challenge.pk
    assert (gone_alice["direction"], gone_bob["direction"]) == ("in", "out")
    # A stream opened while it is pending says the same.
    again = await db(services.challenge_create)(user=alice, challenged=bob)
    for user, direction in ((alice, "out"), (bob, "in")):
        stream = await open_stream(kind, await db(token_for)(user), "account")
        event = await stream.next()
        assert event["type"] == "challenge" and event["challenge"]["id"] == again.pk
        assert event["direction"] == direction
        await stream.close()
    await alices.close()
    await bobs.close()


async def page_socket(user, match_id: int) -> WebsocketCommunicator:
    """The match page's socket, as a person's browser opens it."""
    cookie = (await db(session_cookie)(user)).encode()
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver"), (b"cookie", cookie)]
    socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
    assert (await socket.connect())[0]
    assert 'id="board"' in await socket.receive_from(timeout=5)
    return socket


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_a_player_hears_when_the_opponent_leaves_the_table_and_comes_back(kind, alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)  # no clock: a claim is possible
    mover = match.players[match.state.turn]
    waiting = alice if mover == bob else bob
    opens = (await db(Match.objects.get)(pk=match.pk)).claim_opens_at
    stream = await open_stream(kind, await db(token_for)(waiting), f"matches/{match.pk}")
    assert (await stream.next())["type"] == "state"

    def away(event: dict) -> None:
        """Gone, and the claim opens when the site takes one (it is the opponent's turn)."""
        assert event["gone"] is True and event["match_id"] == match.pk
        assert event["version"] == match.version
        assert datetime.fromisoformat(event["claim_opens_at"]) == opens
        assert 0 < event["claim_in_seconds"] <= (opens - match.turn_started_at).total_seconds()

    away(await until(stream, "opponentGone"))  # not there as the stream opens
    page = await page_socket(mover, match.pk)
    back = await until(stream, "opponentGone")
    assert back["gone"] is False and back["claim_opens_at"] is back["claim_in_seconds"] is None
    await page.disconnect()
    away(await until(stream, "opponentGone"))
    page = await page_socket(mover, match.pk)
    assert (await until(stream, "opponentGone"))["gone"] is False
    await page.disconnect()
    await stream.close()
