"""A visitor plays at once, without an account: "Play now" makes a guest, who plays a whole
match against the computer and then keeps the games by making an account, and its history
shows the match; another guest asking for a rated match is refused in words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Match, MatchStatus
from tests.support.browser import play_against_the_computer, shot

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "Deal-me-in-2026"


def play_now(page, base: str) -> str:
    """From the home page, as a visitor: "Play now". The guest's name, from the header."""
    page.goto(base + "/")
    page.click("main [data-action=play-now]")
    page.wait_for_url("**/play/")
    name = page.locator("[data-me]").inner_text().strip()
    assert re.fullmatch(r"Guest \d{4,6}", name)
    return name


def test_a_visitor_plays_the_computer_then_keeps_the_games_and_sees_them_in_its_history(
    live_server_url, new_page
):
    page = new_page()
    name = play_now(page, live_server_url)
    expect(page.locator(".site-header [data-action=keep-games]")).to_be_visible()
    shot(page, "guest-lobby")
    # A short match: to 5 points against the easy computer, chosen under More options.
    page.click("[data-more-options] summary")
    page.check("input[name=computer-strength][value=easy]")
    page.select_option("select[name=computer-target]", "5")
    page.click("#computer [data-action=play-computer]")
    page.wait_for_selector("#board .scorebox")
    match = Match.objects.get(computer="easy")
    assert match.player0.username == name and match.target == 5

    def over(_results) -> bool:
        return Match.objects.get(pk=match.pk).status != MatchStatus.ACTIVE

    play_against_the_computer(page, match, over, seconds=300)
    page.wait_for_selector("#board [data-result]", timeout=15_000)

    page.click(".site-header [data-action=keep-games]")
    page.wait_for_url("**/accounts/keep/")
    shot(page, "keep-my-games")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", SECRET)
    page.fill("#id_password2", SECRET)
    page.click("main [data-action=keep-games]")
    page.wait_for_url("**/history/")
    expect(page.locator("[data-me]")).to_have_text("newcomer")
    expect(page.locator(".site-header [data-action=keep-games]")).to_have_count(0)
    row = page.locator(f"[data-history] tr[data-match='{match.pk}']")
    expect(row).to_contain_text("computer-easy")
    shot(page, "kept-history")
    assert Match.objects.get(pk=match.pk).player0.username == "newcomer"


def test_a_guest_cannot_start_or_join_a_rated_match_and_is_told_why(
    live_server_url, new_page, alice
):
    rated = services.match_create(user=alice)
    page = new_page(width=390, height=844)
    play_now(page, live_server_url)
    page.click("[data-more-options] summary")
    rated_box = page.locator(".create-form input[name=rated]")
    expect(rated_box).not_to_be_checked()  # a guest's form starts casual
    rated_box.check()
    page.click("[data-action=create-match]")
    refusal = page.locator(".form-errors")
    expect(refusal).to_contain_text("Guests play casual matches only")
    shot(page, "guest-rated-refused")
    assert not Match.objects.filter(player0__username__startswith="Guest").exists()

    page.goto(live_server_url + "/play/")
    page.locator(f"form[action='/matches/{rated.pk}/join'] [data-action=join]").click()
    expect(page.locator("main")).to_contain_text("Guests play casual matches only")
    assert Match.objects.get(pk=rated.pk).status == MatchStatus.OPEN
