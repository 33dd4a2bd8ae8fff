"""Two people sign up, meet through an invite link and play a whole hand by clicking."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.support.browser import act_in_turn, trump_was_made
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "Deal-me-in-2026")
    page.fill("#id_password2", "Deal-me-in-2026")
    page.click("button[type=submit]")
    page.wait_for_url(base + "/play/")


def test_two_players_play_a_whole_hand_by_clicking(live_server_url, new_page):
    alice, bob = new_page(), new_page(width=375, height=800)
    sign_up(alice, live_server_url, "alice")
    sign_up(bob, live_server_url, "bob")

    alice.click("[data-more-options] summary")  # every rule: one click away
    alice.click("[data-action=create-match]")
    invite = alice.locator("a[data-invite]").get_attribute("href")
    bob.goto(live_server_url + invite)
    bob.click("[data-action=join]")
    bob.wait_for_selector("#board .scorebox")
    alice.wait_for_selector("#board .scorebox")  # pushed to alice's page

    match = Match.objects.get()
    posted = []  # moves go over the open socket: none is posted
    for page in (alice, bob):  # a marker that a reload would wipe out
        page.evaluate("window.sameDocument = true")
        page.on("request", lambda r: posted.append(r.url) if r.url.endswith("/act") else None)
    while not trump_was_made(Match.objects.get(pk=match.pk).snapshot["results"]):
        act_in_turn({"alice": alice, "bob": bob}, match.pk)
    assert alice.evaluate("window.sameDocument") and bob.evaluate("window.sameDocument")
    assert match.moves.count() > 5 and posted == []

    match.refresh_from_db()
    scores = match.snapshot["scores"]
    assert sum(scores) > 0  # a hand was scored
    for page, username in ((alice, "alice"), (bob, "bob")):
        page.wait_for_selector(f"#board[data-version='{match.version}']")
        page.wait_for_selector("#board .felt:not([data-stage])")  # the hand's end played
        seat = match.seat_of(match.player0 if username == "alice" else match.player1)
        assert page.locator(f"[data-score='{seat}']").inner_text() == str(scores[seat])
        assert page.locator(f"[data-score='{seat ^ 1}']").inner_text() == str(scores[seat ^ 1])
    assert bob.evaluate("document.documentElement.scrollWidth") <= 375
    assert alice.locator("#move-log li").count() > 5  # opened before bob came: filled by pushes


def test_without_its_socket_the_page_posts_its_moves(live_server_url, new_page, alice, bob):
    match = start(alice, bob)
    mover = alice if match.seat_of(alice) == match.state.turn else bob
    page = new_page(logged_in=mover)
    page.route_web_socket("**/ws/matches/**", lambda ws: ws.close())  # never stays open
    posted = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("body[data-offline]")
    assert "reconnecting" in page.locator("#live-status").inner_text()
    page.locator("#board form[data-move] button").first.click()
    page.wait_for_selector(f"#board[data-version='{match.version + 1}']")
    assert posted == [f"{live_server_url}/matches/{match.pk}/act"]
    assert match.moves.count() == 1


def test_arrow_keys_step_through_a_replay(live_server_url, new_page, alice, bob):
    match = play_to_the_end(start(alice, bob), seed=2)
    page = new_page(logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/replay")
    page.wait_for_selector("#replay[data-step='0']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay[data-step='1']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay[data-step='2']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay[data-step='1']")
    page.keyboard.press("End")
    page.wait_for_selector(f"#replay[data-step='{match.moves.count()}']")
    assert page.url.endswith(f"step={match.moves.count()}")  # the address follows the step
