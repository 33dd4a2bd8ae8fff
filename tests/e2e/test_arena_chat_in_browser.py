"""An arena's chat in the browser (issue 54): two players on the arena's page, one in Thai on
a computer, the other in Somali on a phone; each taps a quick message, and each reads every
line in their own language in the arena's log, the sender too, without reloading."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import services
from games.models import PlayerRating
from games.presentation.chat import PHRASE_WORDS
from tests.support.arenas import announced
from tests.support.browser import shot

pytestmark = pytest.mark.django_db(transaction=True)

LINES = "#arena-chat-log[role=log][aria-live=polite] li.log-chat[data-chat]"
# Where a person looks at the page (ARENA_CHAT_SHOTS=<folder>), besides SCREENSHOTS=1's.
SHOTS = os.environ.get("ARENA_CHAT_SHOTS", "")


def words(language: str, code: str) -> str:
    with translation.override(language):
        return str(PHRASE_WORDS[code])


def opened(new_page, base: str, arena, user, language: str, width: int, height: int):
    """``user``'s page of the arena, in ``language``, its own socket heard."""
    services.player_language_set(user=user, language=language)
    page = new_page(width=width, height=height, logged_in=user)
    page.goto(f"{base}/arenas/{arena.pk}/")
    page.wait_for_selector(f'html[lang="{language}"]')
    page.wait_for_selector("body[data-page-socket=live]")
    return page


def said(page, code: str, shown: str, author: str) -> str:
    """Tap a quick message on ``page`` and wait for it in its own log, as ``shown``: its id."""
    mine = page.locator(f"{LINES}.mine")
    before = mine.count()
    page.locator(f"[data-chat-panel] [data-phrase='{code}']").click()
    expect(mine).to_have_count(before + 1)
    line = mine.nth(before)
    expect(line.locator(".chat-words")).to_have_text(shown)
    expect(line.locator(".chat-author")).to_contain_text(author)
    return line.get_attribute("data-chat")


def reads(page, line_id: str, shown: str, author: str) -> None:
    line = page.locator(f"{LINES}[data-chat='{line_id}']")
    expect(line.locator(".chat-words")).to_have_text(shown)
    expect(line.locator(".chat-author")).to_contain_text(author)


def test_two_players_talk_on_the_arena_page_each_in_their_own_language(
    live_server_url, new_page, alice, bob
):
    PlayerRating.objects.update_or_create(user=alice, defaults={"rated_matches": 20})
    arena = announced(alice, (alice, bob))
    thai = opened(new_page, live_server_url, arena, alice, "th", 1280, 800)
    somali = opened(new_page, live_server_url, arena, bob, "so", 375, 667)

    luck = said(thai, "good_luck", words("th", "good_luck"), "alice")
    reads(somali, luck, words("so", "good_luck"), "alice")
    thanks = said(somali, "thanks", words("so", "thanks"), "bob")
    reads(thai, thanks, words("th", "thanks"), "bob")
    assert thai.locator(LINES).count() == somali.locator(LINES).count() == 2
    assert somali.evaluate("document.documentElement.scrollWidth") <= 375

    for page, name in ((thai, "th"), (somali, "so")):
        for width, height in ((1280, 800), (375, 667)):  # each language at both widths
            page.set_viewport_size({"width": width, "height": height})
            page.locator("#arena-chat-log").scroll_into_view_if_needed()
            shot(page, f"arena-chat-{name}-{width}")
            if SHOTS:
                shot(page, f"arena-chat-{name}-{width}", folder=Path(SHOTS), force=True)
