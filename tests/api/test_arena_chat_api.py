"""An arena through the API (issue 54): its stream (``stream/arenas/<id>``, ``ws/arenas/<id>``)
sends the arena with its standings as it opens and at each change, the lines of its chat the
caller reads (a quick message in the stream's language, lines said after it opened) and a
moderator's removal, and ends once the arena is over; a program says a line with ``POST
arenas/<id>/chat``, refused in words to one who did not join."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient
from django.utils import timezone

from euchre_site.asgi import application
from games import services
from games.api.views import api
from games.models import Arena
from tests.support.api import program, refused, token_for
from tests.support.arenas import announced, moderator_made
from tests.support.streams import ended, open_stream, until

db = database_sync_to_async
JSON = "application/json"
KINDS = ["http", "websocket"]


@pytest.fixture
def moderator(moderators_group):
    return moderator_made()


@pytest.fixture
def arena(moderator, alice, bob):
    """An arena announced for the hour to come, alice and bob in it."""
    return announced(moderator, (alice, bob))


@pytest.mark.django_db
def test_a_player_says_a_quick_message_answered_as_the_streams_send_it(arena, alice):
    answer = program(token_for(alice)).post(
        f"/api/v1/arenas/{arena.pk}/chat", {"phrase": "good_luck"}, JSON,
        headers={"accept-language": "so"},
    )  # fmt: skip
    assert answer.status_code == 200, answer.content
    line = answer.json()
    assert (line["type"], line["arena_id"], line["room"], line["phrase"], line["text"]) == (
        "chat", arena.pk, "arena", "good_luck", None,
    )  # fmt: skip
    assert line["words"] == "Nasiib wacan!" and line["author"]["username"] == "alice"
    assert "match_id" not in line


@pytest.mark.django_db
def test_what_the_arena_chat_refuses_in_words(arena, alice, carol):
    path = f"/api/v1/arenas/{arena.pk}/chat"
    body = refused(program(token_for(carol)).post(path, {"phrase": "oops"}, JSON), 403,
                   "chat_arena_players_only")  # fmt: skip
    assert body["detail"] == "Only the arena's players talk here"  # carol did not join
    client = program(token_for(alice))
    refused(client.post(path, {}, JSON), 400, "chat_empty")
    refused(client.post(path, {"phrase": "insult"}, JSON), 400, "invalid")
    refused(client.post(path, {"text": "hello all"}, JSON), 403, "chat_free_off")
    services.chat_settings_set(user=alice, free_chat=True, chat_sound=False)
    body = refused(client.post(path, {"text": "a\x00b"}, JSON), 400, "invalid")  # not a 500
    assert body["errors"][0]["field"] == "text"
    assert client.post(path, {"text": "hello all"}, JSON).json()["text"] == "hello all"
    refused(client.post("/api/v1/arenas/999999/chat", {"phrase": "oops"}, JSON), 404,
            "no_such_arena")  # fmt: skip
    refused(program(token_for(alice, scopes=("read",))).post(path, {"phrase": "oops"}, JSON),
            403, "scope_missing")  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", KINDS)
async def test_the_stream_opens_with_the_arena_then_brings_its_chat_in_its_language(
    kind, arena, alice, bob, carol, moderator
):
    before = await db(services.chat_say_arena)(user=alice, arena_id=arena.pk, phrase="have_fun")
    token = await db(token_for)(carol)  # carol did not join: she reads the arena's chat
    stream = await open_stream(kind, token, f"arenas/{arena.pk}", language="th")
    first = await stream.next()
    shown = await db(lambda: program(token).get(f"/api/v1/arenas/{arena.pk}").json())()
    assert first == {"type": "arena", **shown}
    assert [row["player"]["username"] for row in first["standings"]] == ["alice", "bob"]
    said = await db(program(await db(token_for)(bob)).post)(
        f"/api/v1/arenas/{arena.pk}/chat", {"phrase": "good_luck"}, JSON
    )
    line = said.json()
    event = await until(stream, "chat")  # the line said before the stream opened never came
    assert event["id"] == line["id"] != before.pk
    assert (event["arena_id"], event["words"], event["author"]["username"]) == (
        arena.pk, "ขอให้โชคดี!", "bob",
    )  # fmt: skip
    await db(services.chat_remove)(moderator=moderator, line_id=line["id"], reason="test")
    removed = await until(stream, "chatRemoved")
    assert removed == {"type": "chatRemoved", "arena_id": arena.pk, "id": line["id"]}
    await stream.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", KINDS)
async def test_the_stream_sends_each_change_and_ends_when_the_arena_ends(kind, arena, alice, carol):
    stream = await open_stream(kind, await db(token_for)(alice), f"arenas/{arena.pk}")
    assert (await stream.next())["joined"] is True
    await db(services.arena_join)(user=carol, arena_id=arena.pk)
    joined = await until(stream, "arena")
    assert [row["player"]["username"] for row in joined["standings"]] == ["alice", "bob", "carol"]
    # Its start and its end, each due: the arena announced for 30 minutes from 31 ago.
    await db(Arena.objects.filter(pk=arena.pk).update)(
        starts_at=timezone.now() - timedelta(minutes=31)
    )
    assert await db(services.arena_start)(arena_id=arena.pk)
    # (Its new start time is a change too: the heartbeat may send it, still scheduled, first.)
    await until(stream, "arena", status="running")
    assert await db(services.arena_end)(arena_id=arena.pk)
    await until(stream, "arena", status="finished")
    closed = await stream.next()
    assert closed == {"type": "closed", "code": "over", "detail": "This arena is over"}
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_cancelled_arenas_stream_sends_it_and_ends_at_once(kind, arena, bob, moderator):
    await db(services.arena_cancel)(moderator=moderator, arena_id=arena.pk, reason="storm")
    stream = await open_stream(kind, await db(token_for)(bob), f"arenas/{arena.pk}", "am")
    assert (await stream.next())["status"] == "cancelled"
    closed = await stream.next()
    assert closed == {"type": "closed", "code": "over", "detail": "ይህ ውድድር አልቋል"}
    assert await ended(kind, stream) == ("end" if kind == "http" else 1000)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_such_arena_is_refused_in_words_on_both_streams(alice):
    token = await db(token_for)(alice)
    headers = {"authorization": f"Bearer {token}"}
    answer = await AsyncClient().get("/api/v1/stream/arenas/999999", headers=headers)
    assert answer.status_code == 404 and answer.json()["code"] == "no_such_arena"
    bearer = [(b"authorization", f"Bearer {token}".encode())]
    socket = WebsocketCommunicator(application, "/api/v1/ws/arenas/999999", headers=bearer)
    await socket.connect()
    frame = await socket.receive_json_from()
    assert frame["code"] == "no_such_arena" and frame["detail"] == "There is no such arena"
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4404}


def test_the_arena_socket_is_documented_with_its_events_and_close_codes():
    schema = api.get_openapi_schema()
    sockets = {s["path"]: s for s in schema["x-websockets"]}
    arena = sockets["/api/v1/ws/arenas/{arena_id}"]
    types = {ref["$ref"].rsplit("/", 1)[1] for ref in arena["events"]["oneOf"]}
    assert types == {"ArenaEvent", "ArenaChatEvent", "ArenaChatRemovedEvent", "ClosedEvent"}
    assert arena["sends"] is None and "no such arena" in arena["close_codes"]["4404"]
    assert set(arena["close_codes"]) == {"1000", "4400", "4401", "4403", "4404", "4429"}
    stream = schema["paths"]["/api/v1/stream/arenas/{arena_id}"]["get"]["responses"][200]
    assert stream["content"]["application/x-ndjson"]["schema"] == {
        "$ref": "#/components/schemas/ArenaStreamEvent"
    }
