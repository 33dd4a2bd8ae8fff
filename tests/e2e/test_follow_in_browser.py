"""Following the play in the browser: two people (one on a phone) play a whole match and each
sees every card, every hand's summary and a log that grows with the other's moves; the tab
title and the keyboard focus follow the turn. Then one player beats the computer with the
keyboard alone, reading the board through the accessibility tree."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import MatchStatus, PlayerSettings
from tests.support.browser import PREFERRED, shot
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)

FOCUS_ON_A_CONTROL = """() => {
  const a = document.activeElement;
  return !!a && a.tagName === 'BUTTON' && !!a.closest('#board form[data-move]') && !a.disabled;
}"""
FOCUS_OFF_THE_BODY = "() => !!document.activeElement && document.activeElement !== document.body"


def at_version(page, version: int) -> None:
    page.wait_for_selector(f"#board[data-version='{version}']", timeout=10_000)


def log_keys(page) -> list[str]:
    return page.eval_on_selector_all("#move-log li", "lines => lines.map(li => li.dataset.key)")


def test_two_players_follow_every_card_summary_and_turn_of_a_whole_match(
    live_server_url, new_page, alice, bob
):
    match = start(alice, bob, target=3, move_seconds=None)
    match.refresh_from_db()
    pages = {
        match.seat_of(alice): new_page(logged_in=alice),
        match.seat_of(bob): new_page(width=375, height=800, logged_in=bob),  # a phone
    }
    for page in pages.values():
        page.goto(f"{live_server_url}/matches/{match.pk}/")
        at_version(page, match.version)
    waiting = match.players[match.state.turn ^ 1]  # turns on the sound and the notifications
    desk = pages[match.state.turn ^ 1]
    desk.context.grant_permissions(["notifications"])
    desk.click("[data-action=sound]")
    desk.wait_for_selector(
        "#alert-settings[data-sound='on'] [data-action=sound][aria-pressed=true]"
    )
    desk.click("[data-action=notify]")
    desk.wait_for_selector("[data-action=notify][aria-pressed=true]")
    assert desk.locator("[data-action=notify]").inner_text() == "Notifications: on"
    assert PlayerSettings.objects.get(user=waiting).sound
    desk.focus("#board [data-focus]")  # back to the table (the focus never leaves a control)
    hands_seen = cards_checked = 0
    deadline = time.monotonic() + 150
    while match.status == MatchStatus.ACTIVE:
        assert time.monotonic() < deadline, "the match did not finish in 150 s"
        mover = match.state.turn
        page, other = pages[mover], pages[mover ^ 1]
        page.wait_for_function(FOCUS_ON_A_CONTROL, timeout=5_000)  # focus came to my controls
        assert page.title().startswith("● Your turn · Match")
        assert not other.title().startswith("●")
        logged = log_keys(other)
        for kind in PREFERRED:  # bid rather than pass, so that hands are played out
            buttons = page.locator(f"#board button[data-action={kind}]")
            if buttons.count():
                action = buttons.first.get_attribute("value")
                buttons.first.click()
                break
        results = len(match.state.results)
        at_version(page, match.version + 1)
        at_version(other, match.version + 1)
        match.refresh_from_db()
        other.wait_for_function(  # a line the other player had not seen yet
            "seen => [...document.querySelectorAll('#move-log li')].some("
            "li => !seen.includes(li.dataset.key))",
            arg=logged,
        )
        if action.startswith("play:"):  # the card reached the other page's table
            code = action.split(":")[1]
            shown = other.locator(
                f"#board .trick [data-card='{code}'], #board [data-last-trick] [data-card='{code}']"
            )
            assert shown.count() >= 1, f"{code} never reached the other page"
            cards_checked += 1
        if len(match.state.results) > results:  # that card ended a hand
            points = match.state.results[-1].points
            for each in pages.values():
                summary = each.locator("[data-hand-summary]")
                assert summary.get_attribute("data-points") == f"{points[0]}-{points[1]}"
            if hands_seen == 0:  # the fifth card still on the table, the summary, the log
                for user, width in ((alice, "desktop"), (bob, "phone")):
                    each = pages[match.seat_of(user)]
                    assert each.locator("[data-trick-pause]").count() == 1
                    shot(each, f"trick-pause-and-summary-{width}")
            hands_seen += 1
        if match.status == MatchStatus.ACTIVE:
            page.wait_for_function(FOCUS_OFF_THE_BODY)
    assert hands_seen >= 2 and cards_checked >= 10
    phone = pages[match.seat_of(bob)]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    for page in pages.values():
        assert not page.title().startswith("●")
    shot(phone, "match-over-log-phone")


BOARD = """() => {
  const board = document.querySelector("#board");
  return [board.dataset.version, board.hasAttribute("data-your-turn"),
          board.hasAttribute("data-match-over")];
}"""


def test_a_whole_match_against_the_computer_with_the_keyboard_alone(
    live_server_url, new_page, alice
):
    match = services.match_create_computer(user=alice, strength="easy", target=2)
    page = new_page(logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    deadline = time.monotonic() + 150
    moves = 0
    while True:
        assert time.monotonic() < deadline, "the match did not finish in 150 s"
        # One read of the board (a pushed one may replace it at any moment); what follows is
        # read from that very board, and waits for it.
        version, my_turn, over = page.evaluate(BOARD)
        if over:
            break
        board = page.locator(f"#board[data-version='{version}']")
        if not my_turn:  # the computer's turn: its move is pushed in
            expect(page.locator(f"#board:not([data-version='{version}'])")).to_be_attached(
                timeout=10_000
            )
            continue
        controls = board.locator("form[data-move]")
        # The focus came to my controls: an enabled button of this board's form (at a hand's
        # end, once the table rests: the next deal is on the table).
        expect(controls.locator("button:focus")).to_be_enabled(timeout=10_000)
        tree = controls.aria_snapshot()
        if not tree:  # the socket's copy of this very board replaced it while it was read
            continue
        page.keyboard.press(key_for(tree, controls))
        expect(board).not_to_be_attached(timeout=10_000)  # the move brought a new board
        moves += 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and moves >= 5
    expect(page.locator("[data-result]")).to_have_count(1)


CALLS = [("Order it up", "O"), ("Accept it", "A"), ("Take it up", "T")]


def key_for(tree: str, controls) -> str:
    """The key a keyboard player presses, from what the accessibility tree offers."""
    for name, key in CALLS:
        if f'button "{name}' in tree:
            return key
    named = re.search(r'button "Name (\w+)', tree)
    if named:
        return {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}[named.group(1)]
    assert re.search(r'button "(Play|Discard) ', tree), tree
    if "not playable now" in tree:
        assert re.search(r'img "[^"]+, not playable now"', tree)
    focused = controls.locator("button:focus")
    if focused.text_content().strip().startswith("Play ") and random.random() < 0.5:
        return "Enter"  # the focused card (the first playable)
    return focused.get_attribute("data-key")  # 1-6: the n-th card of the hand
