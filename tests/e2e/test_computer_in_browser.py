"""A player with nobody to play starts a match against the computer and plays a hand."""

from __future__ import annotations

import pytest

from games.models import Match, Move
from tests.support.browser import play_against_the_computer, shot, trump_was_made

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
