"""A newcomer finds "Learn in one hand" on the home page and plays the guided hand to the end
on a phone (375x667), in English and in Thai, once by clicking and once by the keyboard alone.
The hand is played on the match's own table; after every step the table and every control
the newcomer may use are on the screen, the guide's box above them, and no card shows twice
(the upcard, once taken up, is in the dealer's hand, not on the stock)."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.support.browser import AXE, RUN, TAGS

pytestmark = pytest.mark.django_db(transaction=True)

WIDE, HIGH = 375, 667

# The felt, each control the newcomer may use now, and the guide: their boxes on the screen,
# and each card face shown, by its code.
SCREEN = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const usable = [...document.querySelectorAll(
    "#board form[data-move] button:not([disabled])")].filter(b => b.checkVisibility());
  const faces = [...document.querySelectorAll("#board .felt .card[data-card]")]
    .filter(c => c.checkVisibility({visibilityProperty: true}) &&
                 !c.closest("[data-trick-pause][hidden], .last-trick, .hand-summary"))
    .map(c => c.dataset.card);
  const focus = document.activeElement;
  return {
    felt: box(document.querySelector("#board .felt")),
    guide: box(document.getElementById("learn-guide")),
    controls: usable.map(b => ({name: b.innerText || b.getAttribute("aria-label") || "",
                                key: b.dataset.key || "", ...box(b)})),
    faces,
    focused: !!(focus && focus.closest("#board form[data-move]") && focus.matches("button")),
    version: document.getElementById("board").dataset.version,
  };
}"""
AT_REST = "() => !document.querySelector('#board .felt[data-stage]') && !document.querySelector('.htmx-request')"  # noqa: E501


def on_screen(box, *, height=HIGH, width=WIDE) -> bool:
    return (
        box["top"] >= -1
        and box["left"] >= -1
        and box["bottom"] <= height + 1
        and (box["right"] <= width + 1)
    )


@pytest.mark.parametrize("by", ["clicks", "keyboard"])
@pytest.mark.parametrize("code", ["en", "th"])
def test_a_newcomer_completes_the_guided_hand_on_a_phone(live_server_url, new_page, code, by):
    page = new_page(WIDE, HIGH)
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": code}
    page.context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])
    page.goto(live_server_url + "/")
    page.click("[data-learn]")
    page.wait_for_selector("#board .felt [data-move]")
    page.wait_for_load_state()  # its scripts have run (a slow machine: the table is parsed first)
    assert (page.locator("h1").inner_text() == "Learn in one hand") == (code == "en")
    first = page.locator("[data-guide-line]").first.inner_text()
    assert first and (("upcard" in first) == (code == "en"))
    steps = 0
    while not page.locator("[data-learn-done]").count():
        page.wait_for_function(AT_REST)
        screen = page.evaluate(SCREEN)
        where = (code, by, steps)
        assert on_screen(screen["felt"]), (where, screen["felt"])
        assert screen["guide"]["bottom"] <= screen["felt"]["top"], where  # above the table
        assert on_screen(screen["guide"]), (where, screen["guide"])
        assert screen["controls"], where
        for control in screen["controls"]:
            assert on_screen(control), (where, control)
        assert len(screen["faces"]) == len(set(screen["faces"])), (where, screen["faces"])
        if page.locator(".stock[data-upcard-fate=taken_up]").count():
            assert page.locator(".stock .on-pile").count() == 0, where
        version = screen["version"]
        if by == "keyboard":
            # Focus follows the play: the first control the newcomer may use has it; its key
            # (a letter for a call, a number for a card) makes that move.
            assert screen["focused"], where
            key = screen["controls"][0]["key"]
            assert key, where
            page.keyboard.press(key)
        else:
            page.locator("#board form[data-move] button:not([disabled]):visible").first.click()
        page.wait_for_function(
            f"() => document.getElementById('board').dataset.version !== '{version}'"
        )
        steps += 1
        assert steps < 15
    page.wait_for_function(AT_REST)
    end = page.locator("[data-learn-done]")
    end.wait_for(state="visible")
    choices = end.locator("[data-action=play-computer], [data-action=find-opponent]")
    assert choices.count() == 2 and end.locator("[data-hand-summary]").count() == 1
    box = page.evaluate(
        "() => { const r = document.querySelector('[data-learn-done]').getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"
    )
    assert on_screen(box), box
    # The page was never reloaded: the same document all along (htmx swapped the table).
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    page.click("[data-learn-done] [data-action=play-computer]")
    # A newcomer without an account plays at once, as a guest, against the medium computer.
    page.wait_for_url("**/matches/*/")
    page.wait_for_selector("#board .scorebox")
    assert page.locator("[data-me]").inner_text().startswith("Guest ")


def test_the_guide_opens_and_closes_and_the_page_stays_accessible(live_server_url, new_page):
    page = new_page(WIDE, HIGH)
    page.add_init_script(path=str(AXE))
    page.goto(live_server_url + "/learn/")
    page.locator("#board [data-action=pass]").click()  # the guide explains why not
    page.wait_for_selector("[data-note]")
    page.wait_for_function(AT_REST)
    toggle = page.locator("[data-guide-toggle]")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    hidden = page.locator("[data-guide-line]:not([data-new])")
    assert hidden.count() and not hidden.first.is_visible()  # read before: behind "Read all"
    assert page.locator("[data-guide-line][data-new]").first.is_visible()
    for expanded in ("true", "false"):
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == expanded
        assert hidden.first.is_visible() == (expanded == "true")
        violations = page.evaluate(RUN, TAGS)
        assert [v for v in violations if v["impact"] in ("serious", "critical")] == []
    # Opened, it stays open from step to step.
    toggle.click()
    version = page.locator("#board").get_attribute("data-version")
    page.locator("#board form[data-move] button:not([disabled]):visible").first.click()
    page.wait_for_function(
        f"() => document.getElementById('board').dataset.version !== '{version}'"
    )
    page.wait_for_function(AT_REST)
    assert page.locator("[data-guide-toggle]").get_attribute("aria-expanded") == "true"
