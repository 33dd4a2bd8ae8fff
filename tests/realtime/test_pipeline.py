"""One move pipeline. Whichever way a move comes in (the page's socket, the page's form post,
the API's POST and websocket, the computer's turn), it goes through ``services.move_on_locked``:
the match's state is decoded once in the process that made the move, and that process's room
takes the move's table as it commits, reading nothing back. The opponent's board shows the
move all the same. The computer's turn reads the match row once."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.engine import legal_actions
from games.models import match as match_module
from games.realtime import tables
from games.services.computer import play_turn
from tests.support.api import program, token_for
from tests.support.catalogues import client_in
from tests.support.matches import start
from tests.support.sockets import board, socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
db = database_sync_to_async


@pytest.fixture
def counted(monkeypatch):
    """How many times a snapshot is decoded, and how many times a room reads a match."""
    counts = {"decodes": 0, "reads": 0}
    decode, read = match_module.state_from_json, tables.read_tables

    def counting_decode(snapshot):
        counts["decodes"] += 1
        return decode(snapshot)

    def counting_read(match_ids, presence_ids, moves):
        counts["reads"] += bool(match_ids)
        return read(match_ids, presence_ids, moves)

    monkeypatch.setattr(match_module, "state_from_json", counting_decode)
    monkeypatch.setattr(tables, "read_tables", counting_read)
    return counts


async def watched(alice, bob):
    """A match in play, the player not to act watching it on their page's socket."""
    match = await db(start)(alice, bob, move_seconds=None)
    mover = match.players[match.state.turn]
    other = match.players[match.state.turn ^ 1]
    page = await socket(other, f"/ws/matches/{match.pk}/")
    assert (await page.connect())[0]
    await board(page, match.version)
    return match, mover, page


def first_move(match) -> dict:
    return {"action": str(legal_actions(match.state)[0]), "version": match.version}


async def test_a_move_over_the_page_socket(alice, bob, counted):
    match, mover, page = await watched(alice, bob)
    mine = await socket(mover, f"/ws/matches/{match.pk}/")
    assert (await mine.connect())[0]
    await board(mine, match.version)
    counted.update(decodes=0, reads=0)
    await mine.send_to(text_data=json.dumps(first_move(match)))
    await board(page, match.version + 1)
    await board(mine, match.version + 1)
    assert counted == {"decodes": 1, "reads": 0}
    await mine.disconnect()
    await page.disconnect()


async def test_a_move_by_the_page_form_post(alice, bob, counted):
    match, mover, page = await watched(alice, bob)
    counted.update(decodes=0, reads=0)
    url = reverse("match_act", args=[match.pk])
    answer = await db(
        lambda: client_in(mover, "en").post(url, first_move(match), headers={"HX-Request": "true"})
    )()
    assert (
        answer.status_code == 200
        and f'data-version="{match.version + 1}"' in answer.content.decode()
    )
    await board(page, match.version + 1)
    assert counted == {"decodes": 1, "reads": 0}  # the answer's board included
    await page.disconnect()


async def test_a_move_by_the_api_post(alice, bob, counted):
    match, mover, page = await watched(alice, bob)
    api = program(await db(token_for)(mover))
    counted.update(decodes=0, reads=0)
    answer = await db(lambda: api.post(f"/api/v1/matches/{match.pk}/move", first_move(match),
                                       content_type="application/json"))()  # fmt: skip
    assert answer.status_code == 200 and answer.json()["match"]["version"] == match.version + 1
    await board(page, match.version + 1)
    assert counted == {"decodes": 1, "reads": 0}  # the answer's JSON included
    await page.disconnect()


async def test_a_move_over_the_api_socket(alice, bob, counted):
    from channels.testing import WebsocketCommunicator

    from euchre_site.asgi import application

    match, mover, page = await watched(alice, bob)
    token = await db(token_for)(mover)
    stream = WebsocketCommunicator(
        application, f"/api/v1/ws/matches/{match.pk}", headers=[(b"host", b"testserver")],
        subprotocols=["euchre.v1", f"euchre.token.{token}"],
    )  # fmt: skip
    assert (await stream.connect())[0]
    while json.loads(await stream.receive_from(timeout=5)).get("version") != match.version:
        pass
    counted.update(decodes=0, reads=0)
    await stream.send_to(text_data=json.dumps(first_move(match)))
    await board(page, match.version + 1)
    while json.loads(await stream.receive_from(timeout=5)).get("version") != match.version + 1:
        pass
    assert counted == {"decodes": 1, "reads": 0}
    await stream.disconnect()
    await page.disconnect()


async def test_the_computers_turn_reads_the_match_once(alice, counted):
    match = await db(services.match_create_computer)(user=alice, strength="easy")
    if match.state.turn == 0:  # alice first: she passes or plays, and it is the computer's
        match = await db(services.move_apply)(user=alice, match_id=match.pk, **first_move(match))
    page = await socket(alice, f"/ws/matches/{match.pk}/")
    assert (await page.connect())[0]
    await board(page, match.version)
    counted.update(decodes=0, reads=0)

    def turn():
        with CaptureQueriesContext(connection) as queries:
            assert play_turn(match.pk, version=match.version)
        return [q["sql"] for q in queries if 'FROM "games_match"' in q["sql"]]

    match_reads = await db(turn)()
    await board(page, match.version + 1)
    assert len(match_reads) == 1  # locked, where the database locks rows (not SQLite)
    assert connection.vendor != "postgresql" or "FOR NO KEY UPDATE" in match_reads[0]
    assert counted == {"decodes": 1, "reads": 0}
    await page.disconnect()
