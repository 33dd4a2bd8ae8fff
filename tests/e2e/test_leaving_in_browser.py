"""Leaving a match in play asks first: the browser's own question ("Leave site?"), as the clock
runs on or the opponent may claim the match once no page of the player's is open. Before both
have moved (leaving costs nothing then: the match is called off) and once it is over, the
page lets the player go without a question."""

from __future__ import annotations

import pytest

from tests.support.browser import leave as _leave
from tests.support.matches import both_acted, start

pytestmark = pytest.mark.django_db(transaction=True)


def leave(page, *, asked_first: bool) -> list[str]:
    """Click the header's link to the lobby: the questions asked. Where a question is
    expected (``asked_first``) the player answers "stay" and the click waits for it; where
    none is, the page leaves for the lobby (a question asked is answered "leave" and listed)."""
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.type)
        if asked_first:
            dialog.dismiss()
        else:
            dialog.accept()

    page.on("dialog", answer)
    link = page.locator("header a[href='/play/']").first
    if asked_first:
        with page.expect_event("dialog"):  # staying keeps the navigation from starting
            link.click()
    else:
        link.click()
        page.wait_for_url("**/play/")
    page.remove_listener("dialog", answer)
    return asked


def test_leaving_a_match_in_play_asks_first_and_staying_keeps_the_table(
    live_server_url, new_page, alice, bob
):
    match = both_acted(start(alice, bob, move_seconds=60))
    page = new_page(logged_in=alice)
    page.remove_listener("dialog", _leave)  # this player answers for themselves
    url = f"{live_server_url}/matches/{match.pk}/"
    page.goto(url)
    page.wait_for_selector("#board[data-leaving-costs]")
    page.locator("#board .scorebox").click()  # a player who has touched the page (browsers
    # ask only then)
    assert leave(page, asked_first=True) == ["beforeunload"]
    assert page.url == url and page.locator("#board .felt").is_visible()  # still at the table
    # Once the match is over (the opponent resigns from their page), the page lets her go.
    opponent = new_page(logged_in=bob)
    opponent.on("dialog", lambda dialog: dialog.accept())  # "Resign this match? ..."
    opponent.goto(url)
    opponent.click("[data-action=resign]")
    page.wait_for_selector("#board[data-match-over]")
    assert not page.locator("#board[data-leaving-costs]").count()
    assert leave(page, asked_first=False) == []
    assert page.url == f"{live_server_url}/play/"


def test_before_both_have_moved_leaving_asks_nothing(live_server_url, new_page, alice, bob):
    match = start(alice, bob, move_seconds=60)
    page = new_page(logged_in=alice)
    page.remove_listener("dialog", _leave)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("#board .felt")
    page.locator("#board .scorebox").click()
    assert not page.locator("#board[data-leaving-costs]").count()
    assert leave(page, asked_first=False) == []
    assert page.url == f"{live_server_url}/play/"
