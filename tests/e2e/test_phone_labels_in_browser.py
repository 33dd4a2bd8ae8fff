"""The narrowest phone (320 px) in the languages with the longest words: every label of the
opponent's seat whole, on one line and clear of the felt's edge and of the upcard ("miiska
ayuu joogaa", "5 kaar"); "you" whole in the scoreboard; a long name cut on the plate but one
tap from whole; and, the opponent gone on their turn with no clock, "away" with the time
left to come back counted down on the same line."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import shot, socket_heard, watch_sockets
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)

LONG_NAME = "cabdiraxmaan_xasan_maxamed"
AWAY = {"so": "ma joogo", "am": "የለም", "en": "away"}

# Each label of the opponent's seat and the scoreboard's "you": its box, whether its text is
# cut (wider than its box), how many lines it takes, its room to the felt's edges, and whether
# it lies over the upcard.
LABELS = """() => {
  const felt = document.querySelector("#board .felt").getBoundingClientRect();
  const upcard = document.querySelector(".stock .on-pile");
  const up = upcard ? upcard.getBoundingClientRect() : null;
  const look = (selector) => {
    const el = document.querySelector(selector);
    if (!el || !el.checkVisibility()) return null;
    const r = el.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(el).lineHeight) || r.height;
    return {
      text: el.textContent.trim(),
      cut: el.scrollWidth > el.clientWidth + 1,
      lines: Math.round(r.height / line),
      room: Math.min(r.left - felt.left, felt.right - r.right),
      overUpcard: !!up && r.left < up.right && r.right > up.left && r.top < up.bottom
        && r.bottom > up.top,
    };
  };
  return {
    presence: look(".seat-top .presence"),
    count: look(".seat-top .count"),
    you: look(".scorebox tbody tr:first-child th"),
  };
}"""


# Whether the opponent's name on the plate is wider than its box (the text's own width: a
# button's scrollWidth does not always count what overflows it).
CUT = """() => {
  const name = document.querySelector(".seat-top .plate .who");
  const text = document.createRange();
  text.selectNodeContents(name);
  return text.getBoundingClientRect().width > name.getBoundingClientRect().width + 1;
}"""


def in_language(page, language: str) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": "127.0.0.1", "path": "/"}]
    )


def whole_and_clear(labels: dict) -> None:
    for name in ("presence", "count", "you"):
        label = labels[name]
        assert label is not None, name
        assert not label["cut"], (name, label)
        assert label["lines"] == 1, (name, label)
    for name in ("presence", "count"):
        assert labels[name]["room"] >= 4, (name, labels[name])  # not touching the edge
    assert not labels["count"]["overUpcard"], labels["count"]


@pytest.mark.parametrize("language", ["so", "am"])
def test_the_opponents_labels_are_whole_and_clear_at_320_px(
    live_server_url, new_page, alice, django_user_model, language
):
    other = django_user_model.objects.create_user(LONG_NAME, password="not-used-here-123")
    match = start(alice, other, move_seconds=None)
    theirs = new_page(1280, 800, logged_in=other)
    theirs.goto(f"{live_server_url}/matches/{match.pk}/")
    page = new_page(320, 568, logged_in=alice)
    in_language(page, language)
    watch_sockets(page)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    # The socket's first board (the room's, with this page's own presence) swaps the plate:
    # a tap must not fall between its press and its release, or it lands on neither plate.
    socket_heard(page, "/ws/matches/")
    page.wait_for_selector('.seat-top .presence[data-presence="here"]')
    whole_and_clear(page.evaluate(LABELS))
    # The name is cut to fit; a tap shows it whole, a second cuts it again.
    name = page.locator(".seat-top .plate .who")
    assert page.evaluate(CUT)
    name.click()
    assert not page.evaluate(CUT) and name.inner_text() == LONG_NAME
    shot(page, f"name-whole-{language}-320", full_page=False)
    name.click()
    assert page.evaluate(CUT)


@pytest.mark.parametrize("language", ["so", "en"])
def test_away_on_their_turn_says_the_time_left_to_come_back_on_one_line(
    live_server_url, new_page, alice, django_user_model, language
):
    other = django_user_model.objects.create_user(LONG_NAME, password="not-used-here-123")
    match = start(alice, other, move_seconds=None)
    waiting = match.players[match.state.turn ^ 1]  # the opponent, to act, never comes
    page = new_page(320, 568, logged_in=waiting)
    in_language(page, language)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    presence = page.locator('.seat-top .presence[data-presence="away"]')
    presence.locator("[data-countdown-text]").wait_for()
    words = presence.inner_text()
    assert AWAY[language] in words and re.search(r"\d:\d\d", words), words
    shown = presence.locator("[data-countdown-text]").inner_text()
    page.wait_for_function(  # counted down by the page
        "shown => document.querySelector('.seat-top .presence [data-countdown-text]')"
        ".textContent !== shown",
        arg=shown,
    )
    whole_and_clear(page.evaluate(LABELS))
    shot(page, f"away-{language}-320", full_page=False)
