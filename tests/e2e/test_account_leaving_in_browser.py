"""Leaving, in a browser: a player downloads their data (the worker makes the file; the
download's JSON holds their matches and settings, no seed and none of the opponent's hidden
discards), deletes the account with the password, and the opponent's history still shows
their matches under "deleted player"; the deleted name is refused at sign-up until the delay
has passed. With SCREENSHOTS=1 it photographs the section at 1280 and 375 px."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import global_settings
from django.utils import timezone

from games.models import Match, NameReservation, PlayerSettings
from tests.support.browser import shot
from tests.support.matches import both_acted, play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse 1"


def photographed(page, name: str) -> None:
    for width, height in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#leaving").scroll_into_view_if_needed()
        shot(page, f"leaving-{name}-{width}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_player_downloads_their_data_leaves_and_the_opponent_keeps_the_matches(
    live_server_url, new_page, alice, bob, settings
):
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # the server's, to check it
    alice.set_password(PASSWORD)
    alice.save()
    finished = play_to_the_end(start(alice, bob, rated=True))
    in_play = both_acted(start(bob, alice))
    PlayerSettings.objects.update_or_create(user=alice, defaults={"four_colour": True})

    page = new_page(width=1280, logged_in=alice)
    page.goto(f"{live_server_url}/settings/account/#leaving")
    photographed(page, "offered")
    page.click("[data-action=data-export]")
    page.wait_for_selector("#data-export[data-export=preparing], #data-export[data-export=ready]")
    photographed(page, "preparing")
    link = page.wait_for_selector("[data-action=data-download]", timeout=30_000)  # the worker's
    assert "Offered until" in page.inner_text("#data-export")
    photographed(page, "ready")
    with page.expect_download() as download:
        link.click()
    data = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert data["account"]["username"] == "alice"
    assert data["settings"]["four_colour"] is True
    matches = {m["match"]["id"]: m for m in data["matches"]}
    assert set(matches) == {finished.pk, in_play.pk}
    text = json.dumps(data)
    for match in Match.objects.filter(pk__in=matches):
        assert str(match.seed) not in text
        mine = matches[match.pk]
        hidden = [m for m in mine["moves"] if m["seat"] != mine["seat"]]
        assert all(m["action"] == "discard" for m in hidden if m["action"].startswith("discard"))

    # A wrong password is refused in words, and changes nothing.
    page.fill("#leaving-password", "not my password")
    page.click("[data-action=account-delete]")
    page.wait_for_selector("[data-account-delete] .form-errors")
    assert "That is not your password" in page.inner_text("[data-account-delete]")
    photographed(page, "refused")
    page.fill("#leaving-password", PASSWORD)
    page.click("[data-action=account-delete]")
    page.wait_for_url(f"{live_server_url}/")
    assert "Your account has been deleted" in page.inner_text("main")

    opponent = new_page(width=1280, logged_in=bob)
    opponent.goto(f"{live_server_url}/history/")
    for played in (finished, in_play):  # the match in play was resigned: bob won it
        row = opponent.locator(f"tr[data-match='{played.pk}']")
        assert "deleted player" in row.inner_text()
        assert "alice" not in row.inner_text() and not row.locator("a[href*='/players/']").count()
    for width, height in ((1280, 800), (375, 667)):
        opponent.set_viewport_size({"width": width, "height": height})
        shot(opponent, f"leaving-opponents-history-{width}", full_page=False)
    opponent.goto(f"{live_server_url}/matches/{finished.pk}/replay")
    assert "deleted player" in opponent.inner_text("main")

    # The name waits out the delay before a new player may take it.
    visitor = new_page(width=375, height=667)

    def sign_up() -> None:
        visitor.goto(f"{live_server_url}/accounts/signup/")
        visitor.fill("[name=username]", "alice")
        visitor.fill("[name=password1]", "A-fresh-start-55")
        visitor.fill("[name=password2]", "A-fresh-start-55")
        visitor.click("main form button[type=submit]")

    sign_up()
    visitor.wait_for_selector(".errorlist, .form-errors")
    assert "looks too much like another player's" in visitor.inner_text("main")
    NameReservation.objects.update(until=timezone.now() - timedelta(minutes=1))  # 30 days on
    sign_up()
    visitor.wait_for_url("**/play/")
    assert visitor.inner_text("[data-me]") == "alice"
