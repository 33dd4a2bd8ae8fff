"""The API's event streams, over http (newline-delimited JSON) and the websocket: what they
send, a reconnect that gets exactly what it missed, and a revoked token closing them at once."""

from __future__ import annotations

import json
import random
import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient

from euchre_site.asgi import application
from games import services
from games.engine import legal_actions
from games.models import Connection, MatchStatus
from tests.support.api import token_for
from tests.support.matches import start
from tests.support.streams import db, move_once, open_stream, socket_stream, until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_a_match_stream_sends_every_change_with_its_version(kind, alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    stream = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    first = await stream.next()
    assert first["type"] == "state" and first["version"] == match.version
    assert len(first["view"]["hand"]) == 5 and first["seat"] == 0
    rng = random.Random(3)
    for _ in range(6):
        moved = await move_once(match.pk, rng)
        move = await until(stream, "move")
        assert move["version"] == moved.version and move["seq"] == moved.move_count
        state = await until(stream, "state")
        assert state["version"] == moved.version == state["match"]["version"]
    await stream.close()


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_a_reconnect_with_the_last_version_gets_exactly_what_it_missed(kind, alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    token = await db(token_for)(bob)
    whole = await open_stream(kind, token, f"matches/{match.pk}")
    seen = [await whole.next()]
    rng = random.Random(5)
    for _ in range(4):
        await move_once(match.pk, rng)
        seen.append(await until(whole, "state"))
    last_seen = seen[-1]["version"]
    moves_after = []
    for _ in range(5):  # the reconnecting client is away for these
        moved = await move_once(match.pk, rng)
        moves_after.append((moved.version, moved.move_count))
    back = await open_stream(kind, token, f"matches/{match.pk}?since={last_seen}")
    replayed = [await back.next() for _ in range(6)]
    assert [(e["version"], e["seq"]) for e in replayed[:5]] == moves_after
    assert all(e["type"] == "move" for e in replayed[:5])
    assert replayed[5]["type"] == "state" and replayed[5]["version"] == moves_after[-1][0]
    # The same moves, in the same words, as the stream that never went away had.
    stayed = []
    while not stayed or stayed[-1] != replayed[4]:
        event = await whole.next()
        if event["type"] == "move":
            stayed.append(event)
    assert stayed == replayed[:5]
    # Live from there on, like the stream that never went away.
    moved = await move_once(match.pk, rng)
    assert (await until(back, "move"))["version"] == moved.version
    assert (await until(whole, "move"))["version"] == moved.version
    await whole.close()
    await back.close()


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_a_program_following_its_match_is_at_the_table_for_its_opponent(kind, alice, bob):
    """As a person's open page does, a player's stream shows them at the table on the
    opponent's board (not away) while it is open, and away once it closes."""
    match = await db(start)(alice, bob, move_seconds=None)
    page = AsyncClient()
    await page.aforce_login(bob)

    async def alice_shown() -> str:
        html = (await page.get(f"/matches/{match.pk}/")).content.decode()
        (presence,) = re.findall(r'data-presence="(\w+)"', html)  # the opponent's, alice's
        return presence

    assert await alice_shown() == "away"
    stream = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    await stream.next()
    assert await alice_shown() == "here"
    await stream.close()
    assert await alice_shown() == "away"
    watching = await open_stream(kind, await db(token_for)(bob), f"matches/{match.pk}")
    await watching.next()  # bob's own stream: bob is at the table, alice still away
    assert await alice_shown() == "away"
    await watching.close()


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_an_open_stream_keeps_its_player_at_the_table(kind, alice, bob, settings):
    """Its presence is refreshed at each heartbeat (it would expire otherwise)."""
    settings.REALTIME_HEARTBEAT_SECONDS = 0.2
    settings.REALTIME_CATCH_UP_SECONDS = 0.25  # with Redis it is 10 s: the beat's own pace
    match = await db(start)(alice, bob, move_seconds=None)
    stream = await open_stream(kind, await db(token_for)(alice), f"matches/{match.pk}")
    await stream.next()
    seen = db(lambda: Connection.objects.get(user=alice, match=match).seen_at)
    arrived = await seen()
    await stream.heartbeat()  # sent once the beat has marked the stream's player present
    assert await seen() > arrived
    await stream.close()


async def test_an_http_stream_whose_client_goes_as_it_joins_ends_without_a_heartbeat(alice, bob):
    """The client goes while the stream joins its groups (a send to Redis finishing as the
    cancel comes): the stream ends there, not at its next heartbeat, 10 s on."""
    await db(services.challenge_create)(user=alice, challenged=bob)
    for user in (alice, bob, alice):
        stream = await open_stream("http", await db(token_for)(user), "account")
        assert (await stream.next())["type"] == "challenge"
        assert b"\n" not in await stream.close()


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_revoking_the_token_closes_its_open_streams_at_once(kind, alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    row, token = await db(services.api_token_create)(user=alice, name="p", scopes=["read"])
    on_match = await open_stream(kind, token, f"matches/{match.pk}")
    account = await open_stream(kind, token, "account")
    # Both are open (a websocket is accepted before its token is read): their first events.
    assert (await on_match.next())["type"] == "state"
    assert (await account.next())["type"] == "matchStart"
    await db(services.api_token_revoke)(user=alice, token_id=row.pk)
    for stream in (on_match, account):
        closed = await until(stream, "closed")
        assert closed["code"] == "token_revoked" and closed["detail"]
    if kind == "http":
        with pytest.raises(StopAsyncIteration):
            await on_match.next()
    else:
        output = await on_match.communicator.receive_output(timeout=5)
        assert output == {"type": "websocket.close", "code": 4401}


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_the_account_stream_tells_of_challenges_and_matches_starting(kind, alice, bob):
    stream = await open_stream(kind, await db(token_for)(alice), "account")
    challenge = await db(services.challenge_create)(user=bob, challenged=alice)
    event = await until(stream, "challenge")
    assert event["challenge"]["id"] == challenge.pk
    assert event["challenge"]["challenger"]["username"] == "bob"
    match = await db(services.challenge_accept)(user=alice, challenge_id=challenge.pk)
    started = await until(stream, "matchStart")
    assert started["match"]["id"] == match.pk and started["seat"] in (0, 1)
    gone = await until(stream, "challengeGone")
    assert gone["status"] == "accepted" and gone["match_id"] == match.pk
    await db(services.match_resign)(user=alice, match_id=match.pk)
    finished = await until(stream, "matchFinish")
    assert finished["match"]["status"] in (MatchStatus.ABORTED, MatchStatus.FINISHED)
    await stream.close()


async def test_a_websocket_takes_moves_and_refuses_what_it_must(alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    mover = match.players[match.state.turn]
    stream = await socket_stream(await db(token_for)(mover), f"/api/v1/ws/matches/{match.pk}")
    await stream.next()
    action = str(legal_actions(match.state)[0])
    await stream.communicator.send_to(text_data=json.dumps({"action": action, "version": 0}))
    refused = await until(stream, "error")
    assert refused["code"] == "stale" and refused["detail"]
    # With the match now, as the http 409 has it: no second request to learn the version.
    assert refused["state"]["match"]["version"] == match.version
    assert refused["state"]["view"]["legal_actions"] == [str(a) for a in legal_actions(match.state)]
    await stream.communicator.send_to(
        text_data=json.dumps({"action": action, "version": match.version})
    )
    state = await until(stream, "state")
    assert state["version"] == match.version + 1
    await stream.communicator.send_to(text_data="not json")
    assert (await until(stream, "error"))["code"] == "unreadable"
    await stream.close()


async def test_streams_refuse_in_json_without_a_valid_token(alice, bob, carol):
    match = await db(start)(alice, bob, move_seconds=None, spectators_allowed=False)
    response = await AsyncClient().get(f"/api/v1/stream/matches/{match.pk}")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"
    for path, code, close in [
        (f"/api/v1/ws/matches/{match.pk}", "unauthorized", 4401),
        ("/api/v1/ws/matches/999999", "no_such_match", 4404),
    ]:
        token = "nope" if code == "unauthorized" else await db(token_for)(carol)
        communicator = WebsocketCommunicator(
            application, path, headers=[(b"authorization", f"Bearer {token}".encode())]
        )
        await communicator.connect()
        frame = json.loads(await communicator.receive_from())
        assert frame == {"type": "error", "code": code, "detail": frame["detail"]}
        assert await communicator.receive_output() == {"type": "websocket.close", "code": close}
    carols = {"authorization": f"Bearer {await db(token_for)(carol)}"}
    closed = await AsyncClient().get(f"/api/v1/stream/matches/{match.pk}", headers=carols)
    assert closed.status_code == 403 and closed.json()["code"] == "not_open_to_watch"
