"""A match's chat through the API (issue 54): a program says a quick message or a line
(``POST matches/<id>/chat``), and the match's streams carry the lines the caller reads, a quick
message in the stream's language, and a moderator's removal. A bot account writes free chat
only to an opponent who reads it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import services
from tests.support.api import program, refused, token_for
from tests.support.chat import free_chat
from tests.support.matches import start
from tests.support.streams import open_stream, until

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async
JSON = "application/json"
KINDS = ["http", "websocket"]


def test_a_quick_message_is_said_and_answered_as_the_streams_send_it(alice, bob):
    match = start(alice, bob)
    answer = program(token_for(alice)).post(
        f"/api/v1/matches/{match.pk}/chat", {"phrase": "good_luck"}, JSON,
        headers={"accept-language": "th"},
    )  # fmt: skip
    assert answer.status_code == 200, answer.content
    line = answer.json()
    assert (line["type"], line["room"], line["phrase"], line["text"]) == (
        "chat", "players", "good_luck", None,
    )  # fmt: skip
    assert line["words"] == "ขอให้โชคดี!" and line["author"]["username"] == "alice"


def test_what_the_api_refuses_in_words(alice, bob, carol, django_user_model):
    match = start(alice, bob)
    client = program(token_for(alice))
    path = f"/api/v1/matches/{match.pk}/chat"
    body = refused(client.post(path, {"phrase": "insult"}, JSON), 400, "invalid")
    assert body["errors"][0]["field"] == "phrase"
    refused(client.post(path, {}, JSON), 400, "chat_empty")
    refused(client.post(path, {"text": "hi"}, JSON), 403, "chat_free_off")
    free_chat(alice)
    refused(client.post(path, {"text": "x" * 141}, JSON), 400, "chat_too_long")
    assert client.post(path, {"text": "hi"}, JSON).status_code == 200
    refused(client.post(path, {"text": "HI"}, JSON), 409, "chat_repeated")
    refused(program(token_for(carol)).post(path, {"room": "players", "phrase": "oops"}, JSON),
            403, "chat_players_only")  # fmt: skip


def test_a_bot_writes_free_chat_only_to_a_person_who_reads_it(alice, django_user_model):
    bot = django_user_model.objects.create_user("tinybot")
    services.player_bot_set(user=bot)
    services.player_bot_challenges_set(user=alice, allowed=True)  # alice plays bots
    match = start(alice, bot)
    free_chat(bot)
    client = program(token_for(bot))
    path = f"/api/v1/matches/{match.pk}/chat"
    refused(client.post(path, {"text": "gg"}, JSON), 403, "chat_bot_quick_only")
    assert client.post(path, {"phrase": "good_game"}, JSON).status_code == 200
    free_chat(alice)  # the person allows more
    assert client.post(path, {"text": "gg"}, JSON).json()["text"] == "gg"


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", KINDS)
async def test_the_match_streams_carry_the_lines_each_caller_reads(kind, alice, bob, carol):
    match = await db(start)(alice, bob, spectators_allowed=True)
    players = await open_stream(kind, await db(token_for)(bob), f"matches/{match.pk}")
    watching = await open_stream(kind, await db(token_for)(carol), f"matches/{match.pk}")
    for stream in (players, watching):
        assert (await stream.next())["type"] == "state"
    said = await db(services.chat_say)(user=alice, match_id=match.pk, phrase="well_played")
    event = await until(players, "chat")
    assert (event["id"], event["words"], event["room"]) == (said.pk, "Well played!", "players")
    # The spectator's stream never gets it: its own room's line comes, and nothing before it.
    theirs = await db(services.chat_say)(
        user=carol, match_id=match.pk, phrase="nice_trick", room="spectators"
    )
    event = await until(watching, "chat")
    assert event["id"] == theirs.pk
    moderator = await db(get_user_model().objects.create_user)("mod", is_staff=True)
    await db(services.chat_remove)(moderator=moderator, line_id=said.pk, reason="test")
    removed = await until(players, "chatRemoved")
    assert removed == {"type": "chatRemoved", "match_id": match.pk, "id": said.pk}
    for stream in (players, watching):
        await stream.close()
