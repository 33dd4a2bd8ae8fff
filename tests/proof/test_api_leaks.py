"""The leak campaign, extended to the API: random whole matches played through its move
endpoint, with both players and a spectator following each over a stream (one over http, the
others over the websocket) and asking for the match after each move. No answer or event shows
a viewer a card hidden from them, nor the seed while the match is played.

The counts are printed at the end of the module (tests/proof/conftest.py).
"""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.engine import legal_actions, view_for
from games.models import Match
from tests.support.api import program, token_for
from tests.support.leaks import Scan, cards_shown
from tests.support.matches import start
from tests.support.streams import open_stream

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
MATCHES = [(25, 12), (32, 13)]  # (deck, seed of the moves)
db = database_sync_to_async


def checked(scan: Scan, match: Match, text: str, seat: int | None, version: int, where: str):
    scan.check(text, seat, version, where)
    if match.status == "active":
        assert match.seed not in text, f"{where} shows the seed while the match is played"


async def drain(scan: Scan, match: Match, streams: dict, seats: dict) -> int:
    """Every stream's events up to the state at the match's version, each checked."""
    count = 0
    for pk, stream in streams.items():
        while True:
            event = await stream.next(timeout=10)
            text = json.dumps(event)
            checked(scan, match, text, seats[pk], event["version"], f"a {event['type']}")
            count += 1
            if event["type"] == "state" and event["version"] == match.version:
                break
    return count


async def test_no_api_answer_or_event_shows_a_viewer_a_hidden_card(
    alice, bob, carol, figures, settings
):
    settings.MOVE_LIMIT_PER_10_SECONDS = settings.API_REQUESTS_PER_MINUTE = 100_000
    scan = Scan()
    users = (alice, bob, carol)
    tokens = {u.pk: await db(token_for)(u) for u in users}
    clients: dict[int, Client] = {u.pk: program(tokens[u.pk]) for u in users}
    events = 0
    for deck, seed in MATCHES:
        match = await db(start)(alice, bob, deck=deck, target=5, move_seconds=None)
        seats = {u.pk: match.seat_of(u) for u in users}
        streams = {
            u.pk: await open_stream(kind, tokens[u.pk], f"matches/{match.pk}")
            for u, kind in zip(users, ("http", "websocket", "websocket"), strict=True)
        }
        scan.states = {match.version: match.state}
        rng = random.Random(seed)

        events += await drain(scan, match, streams, seats)
        while match.status == "active":
            state = match.state
            mover = match.players[state.turn]
            response = await db(clients[mover.pk].post)(
                f"/api/v1/matches/{match.pk}/move",
                {"action": str(rng.choice(legal_actions(state))), "version": match.version},
                "application/json",
            )
            assert response.status_code == 200, response.content
            match = await db(Match.objects.select_related("player0", "player1").get)(pk=match.pk)
            scan.states[match.version] = match.state
            answer = response.content.decode()
            checked(scan, match, answer, seats[mover.pk], match.version, "a move's answer")
            # The scanner is not blind: it finds every card of the mover's own hand.
            assert set(view_for(match.state, seats[mover.pk]).hand) <= cards_shown(answer)
            scan.moves += 1
            events += await drain(scan, match, streams, seats)
            for user in users:
                for path in (f"/api/v1/matches/{match.pk}", f"/api/v1/matches/{match.pk}/view"):
                    answer = await db(clients[user.pk].get)(path)
                    if answer.status_code == 200:
                        checked(scan, match, answer.content.decode(), seats[user.pk],
                                match.version, path)  # fmt: skip
                        scan.responses += 1
        for stream in streams.values():
            await stream.close()
    figures.update(
        {
            "matches": len(MATCHES),
            "moves": scan.moves,
            "answers": scan.responses,
            "stream events": events,
            "card mentions checked": scan.cards_seen,
        }
    )
    assert scan.moves >= 60 and events >= 6 * scan.moves
