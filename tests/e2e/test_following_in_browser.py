"""Players who follow each other, in two browsers (one a phone): the list shows the other
online once their page opens, pushed (the list asks the server for nothing meanwhile), and a
challenge from the list is accepted live."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match, MatchStatus
from tests.support.browser import shot, socket_heard, watch_sockets

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_followed_player_shows_online_at_once_and_a_challenge_from_the_list_is_accepted(
    live_server_url, new_page, alice, bob
):
    services.follow_create(user=alice, followed=bob)
    services.follow_create(user=bob, followed=alice)
    a = new_page(logged_in=alice)
    watch_sockets(a)
    a.goto(f"{live_server_url}/following/")
    row = a.locator('[data-followed="bob"]')
    assert row.get_attribute("data-online") == "no"
    assert "Offline" in row.inner_text()
    socket_heard(a, "/ws/me/")  # the list is listening
    asked = []  # the list's own requests for itself (its poll, every minute)
    a.on("request", lambda r: r.url.endswith("/following/") and asked.append(r.url))
    b = new_page(width=375, height=700, logged_in=bob)
    b.goto(f"{live_server_url}/")  # bob opens the site
    online = '[data-followed="bob"][data-online="yes"]'
    # How soon after is bench/load's push latency; here: it comes, and by the push.
    a.wait_for_selector(online)
    assert asked == [], "the list asked for itself: bob's coming online was not pushed"
    assert "Online now" in a.locator(online).inner_text()
    shot(a, "following-online")
    a.locator(online).locator("[data-action=challenge]").click()
    a.wait_for_url(f"{live_server_url}/following/")
    assert "Challenge sent to bob" in a.locator(".messages").inner_text()
    a.wait_for_selector("[data-my-challenge]")
    b.wait_for_selector("[data-action=accept-challenge]")  # live, no reload
    assert "alice challenges you" in b.locator("[data-challenge]").inner_text()
    shot(b, "following-challenge-phone")
    b.click("[data-action=accept-challenge]")
    b.wait_for_url("**/matches/*/")  # the accept made the match: bob is taken to it
    match = Match.objects.get(status=MatchStatus.ACTIVE)
    assert {match.player0, match.player1} == {alice, bob}
    for page in (a, b):
        page.wait_for_url(f"{live_server_url}/matches/{match.pk}/")
        page.wait_for_selector("#board .scorebox")
    assert (match.target, match.move_seconds, match.rated) == (10, 120, True)


def test_following_and_blocking_from_a_profile_as_a_player_would(
    live_server_url, new_page, alice, bob
):
    a = new_page(width=375, height=700, logged_in=alice)
    a.goto(f"{live_server_url}/users/bob/")
    a.click("[data-action=follow]")
    assert "You follow bob." in a.locator(".messages").inner_text()
    assert a.locator("[data-followers]").inner_text() == "1"
    a.click(".profile-actions >> text=Players you follow")  # the profile links to the list
    a.wait_for_selector('[data-followed="bob"]')
    a.click("[data-action=notify-seeks]")
    a.wait_for_selector('[data-action=notify-seeks][data-notify="on"]')
    services.match_create(user=bob, target=5)  # bob opens a match in the lobby
    a.goto(f"{live_server_url}/play/")
    a.wait_for_selector("[data-seek]")
    assert "bob, whom you follow, opened a match" in a.locator("[data-seek]").inner_text()
    a.goto(f"{live_server_url}/users/bob/")
    a.click("[data-action=block]")
    assert "You blocked bob" in a.locator(".messages").inner_text()
    assert a.locator("[data-action=challenge]").count() == 0
    shot(a, "profile-blocked-phone")
