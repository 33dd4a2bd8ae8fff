"""A player with analysed matches trains on their own mistakes: opens their weak spots,
follows a theme into a puzzle of their own, solves it, then plays a streak to its first miss;
the best streak shows on the profile."""

from __future__ import annotations

import pytest

from games.models import FlaggedDecision, Puzzle
from tests.support.browser import analysed
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


def _answer_button(page, action: str):
    return page.locator(f"#board form[data-move] button[value='{action}']")


def _on_table(page) -> Puzzle:
    board = page.wait_for_selector("#board[data-your-turn]")
    return Puzzle.objects.get(pk=int(board.get_attribute("data-version")))


def test_a_player_follows_a_weak_spot_into_their_own_puzzle_and_plays_a_streak(
    live_server_url, new_page, alice, bob
):
    match = play_to_the_end(start(alice, bob, target=5, rated=False), seed=3)
    page = new_page(1280, 900, logged_in=alice)
    analysed(page, live_server_url, match)  # the worker's analysis: puzzles and weak spots
    assert FlaggedDecision.objects.filter(user=alice).exists()
    page.goto(f"{live_server_url}/puzzles/")
    page.click("[data-training-link]")
    rows = page.locator("[data-weak-spot]")
    assert rows.count() >= 1
    # The first theme (the most points lost) that has a puzzle of alice's own.
    row = next(
        rows.nth(i)
        for i in range(rows.count())
        if int(rows.nth(i).locator("td").nth(2).inner_text()) > 0
    )
    theme = row.get_attribute("data-weak-spot")
    row.locator("[data-theme-link]").click()
    page.wait_for_selector("[data-puzzle-own]")
    puzzle = _on_table(page)
    assert puzzle.theme == theme and puzzle.match_id == match.pk
    assert match.seat_of(alice) == puzzle.seat
    _answer_button(page, puzzle.answer).click()
    assert page.wait_for_selector("[data-puzzle-result]").get_attribute("data-puzzle-result") == (
        "right"
    )
    # The streak: solve the first, miss the second.
    page.click("[data-streak-link]")
    page.click("[data-action='start-streak']")
    first = _on_table(page)
    _answer_button(page, first.answer).click()
    page.wait_for_selector("[data-streak-count='1']")
    second = _on_table(page)
    assert second.pk != first.pk and second.rating >= first.rating
    page.reload()  # a reload shows the same puzzle, nothing skipped
    assert _on_table(page).pk == second.pk
    wrong = next(a for a, _v in second.options if a != second.answer)
    _answer_button(page, wrong).click()
    ended = page.wait_for_selector("[data-streak-ended]")
    assert "1" in ended.inner_text()
    assert page.locator("[data-streak-panel]").get_attribute("data-streak-panel") is not None
    assert page.locator("[data-streak-best='1']").count() == 1
    page.goto(f"{live_server_url}/users/alice/")
    assert "Best puzzle streak: 1" in page.inner_text("main")
