"""A new player solves puzzles on the table: three of them, one missed, by clicks and by the
keyboard, at a desktop's and a phone's width; the rating moves and the source is linked."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Puzzle, PuzzleRating
from tests.support.browser import ROOT, TAKE_SCREENSHOTS, analysed
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ROOT / "artifacts" / "screenshots" / "puzzles"


def _answer_button(page, action: str):
    return page.locator(f"#board form[data-move] button[value='{action}']")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_new_player_solves_three_puzzles_one_missed(live_server_url, new_page, alice, bob, size):
    for player in (alice, bob):  # both let puzzles from their matches name them
        services.player_puzzle_names_set(user=player, allowed=True)
    match = play_to_the_end(start(alice, bob, target=5, rated=False), seed=3)
    analysed(new_page(logged_in=alice), live_server_url, match)  # the analysis mines puzzles
    assert Puzzle.objects.count() >= 3
    newcomer = get_user_model().objects.create_user("dana", password="correct horse 4")
    page = new_page(*size, logged_in=newcomer)
    page.goto(f"{live_server_url}/puzzles/")
    ratings = []
    for number, how in enumerate(("click", "miss", "keyboard")):
        page.wait_for_selector("[data-puzzle-task]")
        puzzle = Puzzle.objects.get(pk=int(page.url.split("/puzzles/")[1].split("/")[0]))
        wrong = next(a for a, _v in puzzle.options if a != puzzle.answer)
        button = _answer_button(page, wrong if how == "miss" else puzzle.answer)
        if how == "keyboard":
            key = button.get_attribute("data-key")
            page.locator("body").press(key)  # 1-6 for a card, a call's letter
        else:
            button.click()
        result = page.wait_for_selector("[data-puzzle-result]")
        assert result.get_attribute("data-puzzle-result") == ("wrong" if how == "miss" else "right")
        assert page.locator("[data-puzzle-reason]").inner_text().strip()
        assert page.locator("[data-puzzle-line] li").count() == 1 + len(puzzle.line)
        rating = page.locator("[data-puzzle-rating]").inner_text()
        assert rating.startswith("Your puzzle rating: ")
        ratings.append(rating)
        # The source, linked once solved: its replay at the puzzle's step.
        source = page.locator("[data-puzzle-source]").get_attribute("href")
        assert source == f"/matches/{puzzle.match_id}/replay?step={puzzle.index}"
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        if TAKE_SCREENSHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            name = "desktop" if size[0] > 600 else "phone"
            page.screenshot(path=str(SHOTS / f"{name}-{number}-{how}.png"), full_page=True)
        page.click("[data-action='next-puzzle']")
    mine = PuzzleRating.objects.get(user=newcomer)
    assert (mine.attempts, mine.solved) == (3, 2)
    assert ratings[1].split("(")[1].startswith("−")  # the missed one cost points
    profile = new_page(*size, logged_in=newcomer)
    profile.goto(f"{live_server_url}/users/dana/")
    assert f"Puzzle rating {mine.value}: 2 of 3 solved" in profile.inner_text("main")
