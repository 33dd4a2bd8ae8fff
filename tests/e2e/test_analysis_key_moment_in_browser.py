"""A key moment's link lands the player on its position: the board and the options weighed
there in view, at a desktop's and a phone's size. On a phone the replay reads in every
language: the hand-by-hand table's cells hold their words whole, each hand's cards and the
step buttons keep to one row."""

from __future__ import annotations

import pytest
from django.conf import settings

from games import services
from games.models import Match
from tests.support.browser import SCREENSHOTS, TAKE_SCREENSHOTS, shot
from tests.support.matches import play_to_the_end, resign

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": (1280, 800), "phone": (375, 667)}
SHOTS = SCREENSHOTS / "analysis"

# Each element's box: where it is against the viewport.
BOXES = """(selector) => [...document.querySelectorAll(selector)].map(e => {
  const r = e.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
})"""

# The hand-by-hand table's cells whose text does not fit (cut, or scrolled inside), and the
# words of it split over two lines: a word is what lies between spaces (Thai and Burmese
# write a phrase without them: the whole phrase then).
SUMMARY_FAULTS = """() => {
  const cut = [], split = [];
  for (const cell of document.querySelectorAll("[data-summary] :is(td, th)")) {
    const head = cell.closest("thead");  // a stacked table's headings are read out only
    if (!cell.offsetParent || (head && head.getBoundingClientRect().height <= 1)) continue;
    if (cell.scrollWidth > cell.clientWidth) cut.push(cell.textContent);
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/[^\\s]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
          .map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(match[0]);
      }
    }
  }
  const table = document.querySelector("[data-summary]");
  const box = table.closest(".summary");
  return {cut, split, wide: table.getBoundingClientRect().width > box.clientWidth};
}"""


DEAL = 20261206  # the deal's seed: the same match, and the same key moments, every run


def analysed(alice, bob) -> Match:
    """A finished match with its analysis stored, here rather than by the worker: nothing to
    wait for (should the worker's run come first, this one does nothing)."""
    waiting = services.match_create(user=alice, target=5, rated=False)
    Match.objects.filter(pk=waiting.pk).update(seed=str(DEAL))  # dealt when bob joins
    match = play_to_the_end(services.match_join(user=bob, match_id=waiting.pk), seed=4)
    services.match_analyse(match_id=match.pk)
    return match


def in_language(page, code: str) -> None:
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": code}
    page.context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])


# What a key moment's link must bring into view: the position and the options weighed there.
SEEN = {
    "hands": "#replay .my-hand",
    "table": "#replay .table",
    "options": "#replay [data-analysis-options]",
    "decision": "#analysis-move",
}


def one_row(page, selector: str) -> bool:
    """Whether the elements of ``selector`` sit on one row (their middles level)."""
    middles = {round((b["top"] + b["bottom"]) / 2) for b in page.evaluate(BOXES, selector)}
    return max(middles) - min(middles) <= 3


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_key_moment_brings_its_board_and_options_into_view(
    live_server_url, new_page, alice, bob, size
):
    match = analysed(alice, bob)
    width, height = size
    page = new_page(width, height, logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/replay?analysis=1")
    count = page.locator("[data-key-moments] a").count()
    assert count >= 3
    label = "desktop" if width > 600 else "phone"
    for number in range(count):  # each from the list under the one before
        moment = page.locator("[data-key-moments] a").nth(number)
        step = moment.get_attribute("href").split("step=")[1].split("&")[0]
        moment.click()  # scrolled down to it, as a player does
        page.wait_for_selector(f"#replay[data-step='{step}'] [data-analysis-move][data-flag]")
        # Focus on the decision weighed at this position (a screen reader reads it out).
        page.wait_for_function("document.activeElement.id === 'analysis-move'")
        shot(page, f"key-moment-{label}-{number}", full_page=False, folder=SHOTS)
        for name, selector in SEEN.items():
            boxes = page.evaluate(BOXES, selector)
            assert boxes, name
            for box in boxes:
                assert box["top"] >= 0 and box["bottom"] <= height, (number, name, box)
                assert box["left"] >= 0 and box["right"] <= width, (number, name, box)


@pytest.mark.parametrize("code", ["en", "th"])
def test_the_replay_reads_on_a_phone(live_server_url, new_page, alice, bob, code):
    match = analysed(alice, bob)
    page = new_page(375, 667, logged_in=alice)
    in_language(page, code)
    steps = match.moves.count()
    for step in (0, steps // 2):
        page.goto(f"{live_server_url}/matches/{match.pk}/replay?step={step}&analysis=1")
        # Each hand's cards on one row; the four step buttons and the step's words too.
        for seat in (0, 1):
            assert one_row(page, f"#replay .my-hand[data-seat='{seat}'] .card"), (code, step)
        assert one_row(page, ".replay-steps > *"), (code, step)
    faults = page.evaluate(SUMMARY_FAULTS)
    assert faults == {"cut": [], "split": [], "wide": False}, code
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("[data-summary]").scroll_into_view_if_needed()
    shot(page, f"hand-by-hand-{code}-phone", full_page=False, folder=SHOTS)


# The chart's labels as drawn: each box, and its type's size on the screen.
LABELS = """(selector) => [...document.querySelectorAll(selector)].map(e => {
  const r = e.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: e.textContent};
})"""


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_rating_chart_is_dated_and_its_labels_readable(
    live_server_url, new_page, alice, bob, size
):
    for _ in range(4):
        match = services.match_join(user=alice, match_id=services.match_create(user=bob).pk)
        resign(bob, match)
    page = new_page(*size, logged_in=bob)
    page.goto(f"{live_server_url}/users/alice/")
    chart = page.locator("[data-rating-chart]")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    dates = page.evaluate(LABELS, "[data-rating-chart] [data-date-tick]")
    values = page.evaluate(LABELS, "[data-rating-chart] [data-value-tick]")
    assert dates and len(values) >= 3
    for label in dates + values:  # inside the chart, and type a reader can read
        assert box["x"] <= label["left"] and label["right"] <= box["x"] + box["width"], label
        assert label["bottom"] - label["top"] >= 10, label
    for a, b in zip(dates, dates[1:], strict=False):  # side by side, never over each other
        assert a["right"] < b["left"], (a, b)
    label = "desktop" if size[0] > 600 else "phone"
    if TAKE_SCREENSHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        chart.screenshot(path=str(SHOTS / f"rating-chart-{label}.png"))
