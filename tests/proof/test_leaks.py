"""No card hidden from a viewer ever reaches that viewer: random whole matches played
through the real views and sockets, every response and every pushed frame scanned, the
frames of chat too (the players and a spectator talk as they play: a quick message or a line
of chat must carry no card by the site's doing).

The counts are printed at the end of the module (tests/proof/conftest.py).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.engine import legal_actions, view_for
from games.models import ChatLine, Match
from tests.support.leaks import Scan, cards_shown
from tests.support.matches import start
from tests.support.sockets import socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
VERSION = re.compile(r'data-version="(\d+)"')
MATCHES = [(24, 1), (25, 2), (32, 3), (25, 4), (24, 5), (32, 6)]  # (deck, seed of the moves)
TALK_EVERY = 5  # moves between two rounds of talk


def version_in(text: str, default: int) -> int:
    found = VERSION.search(text)
    return int(found.group(1)) if found else default


async def test_no_response_or_push_shows_a_viewer_a_card_hidden_from_them(
    alice, bob, carol, figures, settings
):
    settings.MOVE_LIMIT_PER_10_SECONDS = 100_000  # these players move far faster than people
    settings.CHAT_LINES_PER_MINUTE = 100_000  # and talk faster too
    scan = Scan()
    clients = {}
    for user in (alice, bob, carol):
        clients[user.pk] = Client()
        await database_sync_to_async(clients[user.pk].force_login)(user)
        await database_sync_to_async(services.chat_settings_set)(
            user=user, free_chat=True, chat_sound=False
        )
    for deck, seed in MATCHES:
        match = await database_sync_to_async(start)(
            alice, bob, deck=deck, target=5, move_seconds=None, spectators_allowed=True
        )
        await play_and_scan(match, clients, (alice, bob, carol), scan, random.Random(seed))
    figures.update(
        {
            "matches": len(MATCHES),
            "responses": scan.responses,
            "moves": scan.moves,
            "pushed frames": scan.frames,
            "card mentions checked": scan.cards_seen,
            "rounds of talk": scan.talks,
            "chat frames": scan.chat_frames,
        }
    )
    # Every viewer saw every move (a frame at least per socket and move), and the pages too;
    # every page got the lines of each round of talk.
    assert scan.moves >= 200 and scan.frames >= 3 * scan.moves and scan.responses > 900
    assert scan.talks >= scan.moves // (2 * TALK_EVERY) and scan.chat_frames >= 3 * scan.talks


async def play_and_scan(match: Match, clients, users, scan: Scan, rng) -> None:
    seats = {user.pk: match.seat_of(user) for user in users}  # None: carol, the spectator
    sockets = {}
    for user in users:
        ws = await socket(user, f"/ws/matches/{match.pk}/")
        assert (await ws.connect())[0]
        sockets[user.pk] = ws
    scan.states = {match.version: match.state}
    held = {pk: [] for pk in sockets}  # frames read before their version's state was known

    async def drain(version: int) -> None:
        """Read every socket up to the board at ``version``, checking each frame."""
        for pk, ws in sockets.items():
            while True:
                frame = held[pk].pop(0) if held[pk] else await ws.receive_from(timeout=10)
                seen = version_in(frame, version)
                scan.check(frame, seats[pk], seen, "a pushed frame")
                scan.frames += 1
                if seen == version and 'id="board"' in frame:
                    break

    await drain(match.version)
    moves = 0
    while match.status == "active":
        state = match.state
        mover = match.players[state.turn]
        action = str(rng.choice(legal_actions(state)))
        if moves % 2:  # half the moves over the socket, half by htmx post
            await sockets[mover.pk].send_to(
                text_data=json.dumps({"action": action, "version": match.version})
            )
        else:
            response = await database_sync_to_async(clients[mover.pk].post)(
                f"/matches/{match.pk}/act",
                {"action": action, "version": match.version},
                headers={"HX-Request": "true"},
            )
            assert response.status_code == 200
        if moves % 2:  # the socket's own board at the next version: the move is applied
            held[mover.pk] = await frames_to_board_after(sockets[mover.pk], match.version)
        moved = await database_sync_to_async(reread)(match)
        assert moved.version > match.version, "the move was not applied"
        match = moved
        scan.states[match.version] = match.state
        if moves % 2 == 0:
            scan.check(response.content.decode(), seats[mover.pk], match.version, "a move answer")
            scan.responses += 1
        await drain(match.version)
        if moves % TALK_EVERY == 2 and match.status == "active":
            await talk_and_scan(match, clients, users, sockets, seats, scan, moves)
        if moves % 7 == 0 or match.status != "active":
            await pages(match, clients, users, seats, scan)
        moves += 1
        scan.moves += 1
    for ws in sockets.values():
        await ws.disconnect()


async def talk_and_scan(match: Match, clients, users, sockets, seats, scan: Scan, moves: int):
    """A player says a quick message or a line of free chat, the spectator a quick message in
    the spectators' room; every page's frames up to the last line it reads are scanned."""
    phrase = services.PHRASES[moves % len(services.PHRASES)]
    player = match.players[moves % 2]
    spectator = next(user for user in users if seats[user.pk] is None)
    said = {"phrase": phrase} if moves % 3 else {"text": f"well done there, round {moves}"}
    talk = [(player, said, "players"), (spectator, {"phrase": phrase}, "spectators")]
    scan.talks += 1
    lines = {}
    for user, line, room in talk:
        response = await database_sync_to_async(clients[user.pk].post)(
            f"/matches/{match.pk}/chat", {**line, "room": room}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 200, response.content
        scan.check(response.content.decode(), seats[user.pk], match.version, "a chat answer")
        scan.responses += 1
        lines[room] = await ChatLine.objects.filter(author=user).alatest("pk")
    for user in users:
        last = lines["spectators" if seats[user.pk] is None else "players"]
        while True:  # a player's page reads the players' room, the spectator's theirs
            frame = await sockets[user.pk].receive_from(timeout=10)
            scan.check(frame, seats[user.pk], version_in(frame, match.version), "a pushed frame")
            scan.frames += 1
            if f'id="chat-{last.pk}"' in frame:
                break


async def frames_to_board_after(ws, version: int) -> list[str]:
    """The frames the socket pushes up to its board after ``version`` (a socket's move is
    answered by the boards of the next version, pushed once it is applied)."""
    frames = [await ws.receive_from(timeout=10)]
    while 'id="board"' not in frames[-1] or version_in(frames[-1], version) == version:
        frames.append(await ws.receive_from(timeout=10))
    return frames


def reread(match: Match) -> Match:
    return Match.objects.select_related("player0", "player1").get(pk=match.pk)


@database_sync_to_async
def pages(match: Match, clients, users, seats, scan: Scan) -> None:
    """Every page a viewer may open while the match runs (and once it is over)."""
    for user in users:
        client = clients[user.pk]
        urls = [
            f"/matches/{match.pk}/",
            f"/matches/{match.pk}/board",
            f"/matches/{match.pk}/replay",
            "/history/",
            "/play/",
            f"/users/{match.players[0].username}/",
        ]
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 403), url
            if url.endswith("/replay") and match.status == "active":
                assert response.status_code == 403  # no replay while the cards are in play
            if match.status != "active" and url.endswith("/replay"):
                continue  # finished: the replay shows every card, as it should
            page = response.content.decode()
            scan.check(page, seats[user.pk], match.version, url)
            scan.responses += 1
            seat = seats[user.pk]
            if url.endswith(f"/{match.pk}/") and seat is not None and match.status == "active":
                # The scanner is not blind: it finds every card of the viewer's own hand.
                own = set(view_for(match.state, seat).hand)
                assert own <= cards_shown(page)
