"""Lines of an arena's chat pushed to its open pages (their own socket, ``/ws/me/?arena=``),
through the full ASGI app and the real channel layer: each reader gets a quick message in
their own language, a removal leaves every page, and a blocked player's line never reaches
the blocker (proven by a line said after it: each page reads its lines in order)."""

from __future__ import annotations

import html

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from games import services
from games.presentation.chat import PHRASE_WORDS
from tests.support.arenas import announced, moderator_made
from tests.support.sockets import socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def arena_with(*players):
    """A moderator, and an arena announced for the hour to come with ``players`` in it."""
    moderator = moderator_made()
    return moderator, announced(moderator, players)


async def open_page(user, arena, language: str | None = None, chat: int = 0):
    """The arena page's socket, opened as the page opens it: its first frame (the banner,
    the arena's live part, the lines said since ``chat``) taken."""
    ws = await socket(user, f"/ws/me/?arena={arena.pk}&chat={chat}", language=language)
    assert (await ws.connect())[0]
    first = await ws.receive_from(timeout=5)
    assert 'id="arena-live"' in first
    return ws, first


async def frame_with(ws, text: str) -> list[str]:
    """Every frame the page gets up to and with the first that has ``text``."""
    frames = []
    while text not in (frame := await ws.receive_from(timeout=5)):
        frames.append(frame)
    return [*frames, frame]


say = database_sync_to_async(services.chat_say_arena)


def words_in(code: str, language: str) -> str:
    with translation.override(language):
        return str(PHRASE_WORDS[code])


async def test_a_quick_message_reaches_each_arena_page_in_its_language_and_a_removal_both(
    moderators_group, alice, bob
):
    moderator, arena = await arena_with(alice, bob)
    (thai, _), (somali, _) = await open_page(alice, arena, "th"), await open_page(bob, arena, "so")
    line = await say(user=alice, arena_id=arena.pk, phrase="good_luck")
    for ws, language in ((thai, "th"), (somali, "so")):
        frame = html.unescape((await frame_with(ws, f'id="chat-{line.pk}"'))[-1])
        assert 'id="chat-news"' in frame and words_in("good_luck", language) in frame
    assert len({words_in("good_luck", code) for code in ("en", "th", "so")}) == 3
    await database_sync_to_async(services.chat_remove)(
        moderator=moderator, line_id=line.pk, reason="spam"
    )
    for ws in (thai, somali):
        await frame_with(ws, f'data-removed="{line.pk}"')
        await ws.disconnect()


async def test_a_page_opened_after_a_line_gets_the_lines_since_it_was_made(
    moderators_group, alice, bob, carol
):
    _, arena = await arena_with(alice, bob)
    first = await say(user=alice, arena_id=arena.pk, phrase="have_fun")
    later = await say(user=bob, arena_id=arena.pk, phrase="thanks")
    ws, frame = await open_page(carol, arena, chat=first.pk)  # carol reads, though not in it
    assert f'id="chat-{later.pk}"' in frame and f'id="chat-{first.pk}"' not in frame
    await ws.disconnect()


async def test_a_blocked_players_line_never_reaches_the_blockers_arena_page(
    moderators_group, alice, bob
):
    _, arena = await arena_with(alice, bob)
    (blocker, _), (blocked, _) = await open_page(alice, arena), await open_page(bob, arena)
    await database_sync_to_async(services.block_create)(user=alice, blocked_player=bob)
    unheard = await say(user=bob, arena_id=arena.pk, phrase="good_game")
    await frame_with(blocked, f'id="chat-{unheard.pk}"')  # the author's own page shows it
    heard = await say(user=alice, arena_id=arena.pk, phrase="thanks")
    seen = await frame_with(blocker, f'id="chat-{heard.pk}"')
    assert not any(f'id="chat-{unheard.pk}"' in frame for frame in seen)
    for ws in (blocker, blocked):
        await ws.disconnect()


async def test_the_end_of_an_arena_match_hears_no_chat(moderators_group, alice, bob, carol):
    _, arena = await arena_with(alice, bob)
    ws = await socket(alice, f"/ws/me/?arena={arena.pk}&after=1&chat=0")
    assert (await ws.connect())[0]
    assert "chat-news" not in await ws.receive_from(timeout=5)
    await say(user=bob, arena_id=arena.pk, phrase="thanks")
    # The sentinel: the arena's change that follows the line comes after it would have.
    await database_sync_to_async(services.arena_join)(user=carol, arena_id=arena.pk)
    assert "chat-news" not in await ws.receive_from(timeout=5)
    await ws.disconnect()
