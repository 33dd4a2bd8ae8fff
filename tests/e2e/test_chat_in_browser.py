"""Table talk in the browser (issue 54): a Thai player and a Somali player at one match tap
quick messages and each reads every line in their own language, the sender too; a spectator's
words stay out of the players' pages while the match is in play and reach them once it is
over; a line typed with markup shows as the text typed, nothing injected."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import services
from games.presentation.chat import PHRASE_WORDS
from tests.support.browser import shot
from tests.support.matches import resign, start

pytestmark = pytest.mark.django_db(transaction=True)

LINES = "#move-log li.log-chat[data-chat]"

# Typed into the free chat box: it must read as typed, and neither bold nor run.
MARKUP = '<b>hi</b> <script>window.injected = 1</script><img src="x" onerror="window.injected = 2">'

# The spectator's line: the kind of help the players must not read while they play.
HELP = "Bob, lead the right bower now"


def words(language: str, code: str) -> str:
    """A quick message's words as a reader in ``language`` reads them (the catalogues'
    translation, or the English while a phrase has none yet)."""
    with translation.override(language):
        return str(PHRASE_WORDS[code])


def opened(new_page, base: str, match, user, language: str, width: int, height: int):
    """``user``'s page of the match, in ``language`` (their saved choice, as the settings
    page saves it), its socket open."""
    services.player_language_set(user=user, language=language)
    page = new_page(width=width, height=height, logged_in=user)  # log-in reads the choice
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_selector(f'html[lang="{language}"]')
    page.wait_for_selector("[data-connection=live]")
    return page


def tap(page, code: str) -> None:
    """Tap a quick message as a player would: on a phone the messages may be folded away."""
    folded = page.locator("[data-chat-panel] details:not([open]):has([data-phrase]) > summary")
    if folded.count():
        folded.first.click()
    page.locator(f"[data-chat-panel] [data-phrase='{code}']").click()


def said(page, send, shown: str, author: str) -> str:
    """Send a line from ``page`` (``send()``) and wait for it in the page's own move log, as
    ``shown``, marked the sender's own: its id."""
    mine = page.locator(f"{LINES}.mine")
    before = mine.count()
    send()
    expect(mine).to_have_count(before + 1)
    line = mine.nth(before)
    expect(line.locator(".chat-words")).to_have_text(shown)
    expect(line.locator(".chat-author")).to_contain_text(author)
    return line.get_attribute("data-chat")


def reads(page, line_id: str, shown: str, author: str) -> None:
    """The page's move log shows the line ``line_id`` as ``shown``, by ``author``."""
    line = page.locator(f"{LINES}[data-chat='{line_id}']")
    expect(line.locator(".chat-words")).to_have_text(shown)
    expect(line.locator(".chat-author")).to_contain_text(author)


def test_a_thai_and_a_somali_player_talk_each_in_their_own_language_and_spectators_wait(
    live_server_url, new_page, alice, bob, carol
):
    for user in (alice, bob, carol):
        services.chat_settings_set(user=user, free_chat=True, chat_sound=False)
    match = start(alice, bob, move_seconds=None, spectators_allowed=True)
    base = live_server_url
    thai = opened(new_page, base, match, alice, "th", 1280, 800)
    somali = opened(new_page, base, match, bob, "so", 375, 667)
    watcher = opened(new_page, base, match, carol, "en", 1280, 800)

    # Each player's buttons speak their own language.
    expect(thai.locator("[data-phrase=good_luck]")).to_have_text(words("th", "good_luck"))
    expect(somali.locator("[data-phrase=thanks]")).to_have_text(words("so", "thanks"))

    # alice wishes luck: she reads it in Thai, bob in Somali.
    luck = said(thai, lambda: tap(thai, "good_luck"), words("th", "good_luck"), "alice")
    reads(somali, luck, words("so", "good_luck"), "alice")
    # In the move log, which a screen reader announces politely.
    assert somali.locator("#move-log[role=log][aria-live=polite] li.log-chat").count() == 1
    # bob thanks her from his phone: he reads it in Somali, she in Thai.
    thanks = said(somali, lambda: tap(somali, "thanks"), words("so", "thanks"), "bob")
    reads(thai, thanks, words("th", "thanks"), "bob")

    # The spectator's room: carol's line reaches the spectators, not the players.
    watcher.fill("[data-chat-form] [name=text]", HELP)
    helped = said(
        watcher, lambda: watcher.click("[data-chat-form] button[type=submit]"), HELP, "carol"
    )
    # A later players' line reaches both players' pages: carol's, earlier, is still absent.
    later = said(thai, lambda: tap(thai, "have_fun"), words("th", "have_fun"), "alice")
    reads(somali, later, words("so", "have_fun"), "alice")
    for page in (thai, somali):
        assert page.locator(f"{LINES}[data-chat='{helped}']").count() == 0
        assert HELP not in page.locator("#move-log").inner_text()
    # ... and the players' lines are not the spectators' to read: carol's next line comes,
    # none of theirs before it.
    again = said(watcher, lambda: tap(watcher, "nice_trick"), words("en", "nice_trick"), "carol")
    shown = watcher.locator(LINES).evaluate_all("lines => lines.map(l => l.dataset.chat)")
    assert shown == [helped, again]

    # Free chat with markup: read as typed on both pages, no element made, no script run.
    typed = " ".join(MARKUP.split())
    thai.fill("[data-chat-form] [name=text]", MARKUP)
    markup = said(thai, lambda: thai.click("[data-chat-form] button[type=submit]"), typed, "alice")
    reads(somali, markup, typed, "alice")
    expect(thai.locator("[data-chat-form] [name=text]")).to_have_value("")  # ready for the next
    for page in (thai, somali):
        line = page.locator(f"{LINES}[data-chat='{markup}']")
        assert line.locator("b, script, img").count() == 0
        assert page.evaluate("window.injected") is None

    # The match ends (bob resigns): the players read the spectators' room too, now.
    resign(bob, match)
    for page, language in ((thai, "th"), (somali, "so")):
        page.reload()
        page.wait_for_selector(f'html[lang="{language}"]')
        page.wait_for_selector("[data-connection=live]")
        reads(page, helped, HELP, "carol")
        assert "log-spectators" in page.locator(f"{LINES}[data-chat='{helped}']").get_attribute(
            "class"
        )
        # What they said during play is still theirs to read, each in their own language.
        reads(page, luck, words(language, "good_luck"), "alice")
        reads(page, thanks, words(language, "thanks"), "bob")
        reads(page, markup, typed, "alice")
        assert page.evaluate("window.injected") is None
    assert somali.evaluate("document.documentElement.scrollWidth") <= 375

    for page, name in ((thai, "th-1280"), (somali, "so-375"), (watcher, "spectator-en-1280")):
        page.locator("#move-log").scroll_into_view_if_needed()
        shot(page, f"chat-{name}")
