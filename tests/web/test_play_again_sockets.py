"""Pushes of playing again, through the full ASGI app: the lobby's watch list, the rematch
offer on the opponent's match page, and the player's own socket (challenges, and the push
that takes a page to a match that has just started)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import services
from games.db import selectors
from games.models import Match
from tests.support.matches import both_acted, play_to_the_end, start
from tests.support.sockets import (
    board,
    frame_with,
    frames_before_answer,
    nothing_before_answer,
    refused_with,
    socket,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def watch_part(frame: str) -> str:
    return frame[frame.index('id="lobby-watch"') :]


async def test_the_watch_list_updates_live_when_a_match_starts_and_ends(
    alice, bob, carol, monkeypatch
):
    reads = []
    lobby_open = selectors.lobby_open
    monkeypatch.setattr(selectors, "lobby_open", lambda **kw: reads.append(kw) or lobby_open(**kw))
    watchers = [await socket(user, "/ws/lobby/") for user in (carol, carol)]
    for ws in watchers:
        assert (await ws.connect())[0]
    match = await database_sync_to_async(start)(alice, bob)
    for ws in watchers:  # opened, then started: the list now has it
        frame = await frame_with(ws, f'data-watch="{match.pk}"')
        assert "alice v bob" in watch_part(frame) and "0–0" in watch_part(frame)
    assert reads.count({}) <= 2  # read once per event for every lobby socket of the process
    match = await database_sync_to_async(both_acted)(match)
    await database_sync_to_async(services.match_resign)(user=alice, match_id=match.pk)
    for ws in watchers:  # over: it leaves the list
        while f'data-watch="{match.pk}"' in watch_part(await frame_with(ws, "lobby-watch")):
            pass
    for ws in watchers:
        await ws.disconnect()


async def test_a_players_own_match_is_not_in_their_watch_list_when_it_starts(alice, bob, carol):
    """Theirs to play, not to watch: the other players' lists have it, theirs do not, however
    the shared push and the player's own push are ordered."""
    sockets = {}
    for user in (alice, carol):
        sockets[user] = ws = await socket(user, "/ws/lobby/")
        assert (await ws.connect())[0]
    match = await database_sync_to_async(start)(alice, bob)
    await frame_with(sockets[carol], f'data-watch="{match.pk}"')  # others may watch it
    # Alice's own lists and her watch list, pushed in either order (or in one frame).
    mine = latest = None
    while mine is None or latest is None:
        frame = await sockets[alice].receive_from(timeout=5)
        if 'id="lobby-mine"' in frame:
            mine = frame
        if 'id="lobby-watch"' in frame:
            latest = watch_part(frame)
    assert mine.count(f'href="/matches/{match.pk}/"') >= 1  # hers among her matches...
    for frame in await frames_before_answer(sockets[alice]):  # ...and any later watch list
        if 'id="lobby-watch"' in frame:
            latest = watch_part(frame)
    assert f'data-watch="{match.pk}"' not in latest  # ...lacks it
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_rematch_offer_reaches_the_opponents_match_page(alice, bob):
    finished = await database_sync_to_async(play_to_the_end)(
        await database_sync_to_async(start)(alice, bob)
    )
    ws = await socket(bob, f"/ws/matches/{finished.pk}/")
    assert (await ws.connect())[0]
    assert 'data-action="accept-rematch"' not in await board(ws)
    await database_sync_to_async(services.rematch_offer)(user=alice, match_id=finished.pk)
    while 'data-action="accept-rematch"' not in (frame := await board(ws)):
        pass
    assert 'data-action="decline-rematch"' in frame and "alice offers a rematch" in frame
    await ws.disconnect()


async def test_a_challenge_reaches_every_page_and_its_acceptance_takes_the_challenger_there(
    alice, bob
):
    challenger = await socket(alice, "/ws/me/")
    challenged = await socket(bob, "/ws/me/")
    for ws in (challenger, challenged):
        assert (await ws.connect())[0]
        assert 'id="challenges"' in await ws.receive_from(timeout=5)  # the banner, empty
    challenge = await database_sync_to_async(services.challenge_create)(user=alice, challenged=bob)
    banner = await frame_with(challenged, f'data-challenge="{challenge.pk}"')
    assert "alice challenges you to a match" in banner
    assert 'data-action="accept-challenge"' in banner and "data-goto" not in banner
    waiting = await frame_with(challenger, f'data-my-challenge="{challenge.pk}"')
    assert "You challenged bob" in waiting
    match = await database_sync_to_async(services.challenge_accept)(
        user=bob, challenge_id=challenge.pk
    )
    frame = await frame_with(challenger, "data-goto")  # the challenger's page goes to it
    assert f'data-goto="/matches/{match.pk}/"' in frame
    assert "data-challenge=" not in frame and "data-my-challenge=" not in frame
    # The accepting page goes there with the answer to its own request (the views' test): a
    # push as well would race that navigation.
    await nothing_before_answer(challenged)
    for ws in (challenger, challenged):
        await ws.disconnect()


async def test_a_page_that_was_loading_when_the_challenge_was_accepted_goes_to_the_match(
    alice, bob
):
    challenge = await database_sync_to_async(services.challenge_create)(user=alice, challenged=bob)
    match = await database_sync_to_async(services.challenge_accept)(
        user=bob, challenge_id=challenge.pk
    )  # the push went out while alice's page had no socket open (it was loading)
    page = await socket(alice, "/ws/me/")
    assert (await page.connect())[0]
    assert f'data-goto="/matches/{match.pk}/"' in await page.receive_from(timeout=5)
    await page.disconnect()
    opened = await socket(alice, f"/ws/matches/{match.pk}/")  # once she is there: no more
    assert (await opened.connect())[0]
    await board(opened)
    again = await socket(alice, "/ws/me/")
    assert (await again.connect())[0]
    assert "data-goto" not in await again.receive_from(timeout=5)
    await again.disconnect()
    await opened.disconnect()
    other = await socket(bob, "/ws/me/")  # the one who accepted went there with the answer
    assert (await other.connect())[0]
    assert "data-goto" not in await other.receive_from(timeout=5)
    await other.disconnect()


async def test_an_accepted_rematch_takes_the_offerers_page_to_the_new_match(alice, bob):
    finished = await database_sync_to_async(play_to_the_end)(
        await database_sync_to_async(start)(alice, bob)
    )
    pages = [await socket(user, "/ws/me/") for user in (alice, bob)]
    for ws in pages:
        assert (await ws.connect())[0]
        assert 'id="challenges"' in await ws.receive_from(timeout=5)  # the banner, empty
    await database_sync_to_async(services.rematch_offer)(user=alice, match_id=finished.pk)
    new = await database_sync_to_async(services.rematch_accept)(user=bob, match_id=finished.pk)
    offerer, accepter = pages
    assert f'data-goto="/matches/{new.pk}/"' in await frame_with(offerer, "data-goto")
    await nothing_before_answer(accepter)  # its own answer takes it there
    for ws in pages:
        await ws.disconnect()
    assert await database_sync_to_async(Match.objects.count)() == 2


async def test_the_players_socket_refuses_strangers_and_messages(alice):
    assert await refused_with(await socket(None, "/ws/me/")) == 4401
    ws = await socket(alice, "/ws/me/")
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)
    await ws.send_to(text_data="hello")
    assert "This connection takes no messages" in await ws.receive_from(timeout=5)
    await ws.disconnect()


async def test_the_challenger_hears_that_the_challenge_was_declined(alice, bob):
    challenger = await socket(alice, "/ws/me/")
    assert (await challenger.connect())[0]
    await challenger.receive_from(timeout=5)
    challenge = await database_sync_to_async(services.challenge_create)(user=alice, challenged=bob)
    await frame_with(challenger, "data-my-challenge")
    await database_sync_to_async(services.challenge_decline)(user=bob, challenge_id=challenge.pk)
    frame = await frame_with(challenger, 'data-challenge-answer="declined"')
    assert "bob declined your challenge." in frame and "data-my-challenge" not in frame
    lapsed = await database_sync_to_async(services.challenge_create)(user=alice, challenged=bob)
    await database_sync_to_async(services.challenge_lapse)(challenge_id=lapsed.pk)
    frame = await frame_with(challenger, 'data-challenge-answer="lapsed"')
    assert "Your challenge to bob lapsed" in frame
    await challenger.disconnect()
