"""A player with nobody to play starts a match against the computer and plays a hand."""

from __future__ import annotations

import time

import pytest

from games.models import Match, Move
from tests.e2e.conftest import shot
from tests.e2e.test_play_in_browser import PREFERRED, trump_was_made

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.engines]


def test_a_whole_hand_against_the_hard_computer_without_a_reload(live_server_url, new_page, alice):
    page = new_page(logged_in=alice)
    page.goto(live_server_url + "/play/")
    shot(page, "lobby-with-the-computer")
    page.click("[data-more-options] summary")  # every rule: one click away
    page.check("input[name=computer-strength][value=hard]")
    page.click("[data-action=play-computer]")
    page.wait_for_selector("#board .scorebox")
    assert "Computer (hard)" in page.locator("#board").inner_text()
    page.evaluate("window.sameDocument = true")  # a reload would wipe it out

    match = Match.objects.get()
    play_against_the_computer(page, match, trump_was_made)
    assert page.evaluate("window.sameDocument")
    match.refresh_from_db()
    page.wait_for_selector(f"#board[data-version='{match.version}']", timeout=10_000)
    page.wait_for_selector("#board .felt:not([data-stage])")  # the hand's end played
    scores = match.snapshot["scores"]
    assert sum(scores) > 0
    assert page.locator("[data-score='0']").inner_text() == str(scores[0])
    assert page.locator("[data-score='1']").inner_text() == str(scores[1])
    assert Move.objects.filter(match=match, seat=1).count() >= 5  # the computer played its cards


# A board later than the version given is on the page.
NEWER = "v => Number(document.querySelector('#board')?.dataset.version) > v"
# The board's version and whether it is the player's turn, read at once: a board pushed between
# two reads would pair one board's version with the next one's turn.
BOARD = """() => {
  const board = document.querySelector("#board");
  return [Number(board.dataset.version), board.hasAttribute("data-your-turn")];
}"""


def play_against_the_computer(page, match: Match, done, seconds: float = 120) -> None:
    """Click the player's preferred control whenever it is their turn, and wait for the
    computer's move otherwise, until ``done`` holds for the match's hand results."""
    deadline = time.monotonic() + seconds
    while not done(Match.objects.get(pk=match.pk).snapshot["results"]):
        assert time.monotonic() < deadline, f"not done in {seconds} s"
        version, my_turn = page.evaluate(BOARD)
        if not my_turn:
            # The computer's turn: its move is pushed to the page within a few seconds (the
            # board after it may already have come too: the computer can act twice running).
            page.wait_for_function(NEWER, arg=version, timeout=15_000)
            continue
        board = page.locator(f"#board[data-version='{version}']")  # that board, not a later one
        for kind in PREFERRED:
            buttons = board.locator(f"button[data-action={kind}]")
            if buttons.count():
                buttons.first.click()
                page.wait_for_function(NEWER, arg=version, timeout=10_000)
                break
