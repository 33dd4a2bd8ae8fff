"""Lines of chat pushed to the match's open pages, through the full ASGI app and the real
channel layer: each reader gets a quick message in their own language, and only the lines
theirs to read (not the players' room for a spectator, not a blocked player's lines).

A line that must not arrive is proven absent by a line that must, said after it: each page
reads its new lines in the order they were said, so the later line's frame comes after
anything the earlier one would have brought."""

from __future__ import annotations

import html

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from games import services
from games.presentation.chat import PHRASE_WORDS
from tests.support.matches import start
from tests.support.sockets import board, socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def open_page(user, match, language: str | None = None):
    """The match page's socket, opened as the page opens it and heard in the match's room."""
    ws = await socket(user, f"/ws/matches/{match.pk}/?chat=0", language=language)
    assert (await ws.connect())[0]
    await board(ws)
    return ws


async def frames_until_line(ws, line) -> list[str]:
    """Every frame the page gets up to and with the one bringing ``line``."""
    frames = []
    while f'id="chat-{line.pk}"' not in (frame := await ws.receive_from(timeout=5)):
        frames.append(frame)
    return [*frames, frame]


say = database_sync_to_async(services.chat_say)


def words_in(code: str, language: str) -> str:
    with translation.override(language):
        return str(PHRASE_WORDS[code])


async def test_a_quick_message_reaches_each_player_in_their_own_language(alice, bob):
    match = await database_sync_to_async(start)(alice, bob)
    thai = await open_page(alice, match, language="th")
    somali = await open_page(bob, match, language="so")
    line = await say(user=alice, match_id=match.pk, phrase="good_luck")
    for ws, language in ((thai, "th"), (somali, "so")):
        frame = html.unescape((await frames_until_line(ws, line))[-1])
        assert words_in("good_luck", language) in frame
    # Each read it in a language of their own (the catalogues' words, not English twice).
    assert len({words_in("good_luck", code) for code in ("en", "th", "so")}) == 3
    line = await say(user=bob, match_id=match.pk, phrase="one_more")
    assert words_in("one_more", "th") in html.unescape((await frames_until_line(thai, line))[-1])
    assert words_in("one_more", "so") in html.unescape((await frames_until_line(somali, line))[-1])
    for ws in (thai, somali):
        await ws.disconnect()


async def test_the_players_line_never_reaches_a_spectators_page_during_the_match(alice, bob, carol):
    match = await database_sync_to_async(start)(alice, bob, spectators_allowed=True)
    player, spectator = await open_page(alice, match), await open_page(carol, match)
    players_line = await say(user=alice, match_id=match.pk, phrase="good_luck")
    await frames_until_line(player, players_line)
    spectators_line = await say(
        user=carol, match_id=match.pk, phrase="nice_trick", room="spectators"
    )
    seen = await frames_until_line(spectator, spectators_line)
    assert not any(f'id="chat-{players_line.pk}"' in frame for frame in seen)
    # Nor does the spectators' line reach the player while the match is in play.
    later = await say(user=alice, match_id=match.pk, phrase="thanks")
    seen = await frames_until_line(player, later)
    assert not any(f'id="chat-{spectators_line.pk}"' in frame for frame in seen)
    for ws in (player, spectator):
        await ws.disconnect()


async def test_a_blocked_players_line_never_reaches_the_blocker(alice, bob):
    match = await database_sync_to_async(start)(alice, bob)
    blocker, blocked = await open_page(alice, match), await open_page(bob, match)
    await database_sync_to_async(services.block_create)(user=alice, blocked_player=bob)
    unheard = await say(user=bob, match_id=match.pk, phrase="good_game")
    await frames_until_line(blocked, unheard)  # the author's own page shows it
    heard = await say(user=alice, match_id=match.pk, phrase="thanks")
    seen = await frames_until_line(blocker, heard)
    assert not any(f'id="chat-{unheard.pk}"' in frame for frame in seen)
    assert "Good game" not in " ".join(seen)
    await frames_until_line(blocked, heard)  # the blocked player still reads the blocker
    for ws in (blocker, blocked):
        await ws.disconnect()


async def test_the_spectators_lines_reach_the_players_pages_as_the_match_ends(alice, bob, carol):
    match = await database_sync_to_async(start)(alice, bob, spectators_allowed=True)
    player, spectator = await open_page(alice, match), await open_page(carol, match)
    spectators_line = await say(
        user=carol, match_id=match.pk, phrase="nice_trick", room="spectators"
    )
    await frames_until_line(spectator, spectators_line)
    await database_sync_to_async(services.match_resign)(user=bob, match_id=match.pk)
    # The last board, then the spectators' lines: no reload needed.
    frames = await frames_until_line(player, spectators_line)
    assert any("data-match-over" in frame for frame in frames)
    assert words_in("nice_trick", "en") in html.unescape(frames[-1])
    for ws in (player, spectator):
        await ws.disconnect()
