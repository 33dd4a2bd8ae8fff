"""The move clock counts down in the page, and at zero the player to act loses the match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import EndReason, Match
from tests.support.browser import shot
from tests.support.matches import both_acted, start
from tests.support.tasks import age

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.engines]


def seconds_shown(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def assert_shows_time_left(shown: str, deadline, asked) -> int:
    """The clock shows the time left until the server's deadline. The page counts down from
    the moment its board was rendered, after the test asked for it (``asked``): it shows no
    more than was left then, and never runs ahead of the deadline (read after it was shown)
    by more than the second the server rounds down."""
    most = (deadline - asked).total_seconds()
    least = (deadline - timezone.now()).total_seconds()
    value = seconds_shown(shown)
    assert least - 1 <= value <= most + 1, (shown, least, most)
    return value


def test_the_clock_counts_down_and_running_out_loses_the_match(
    live_server_url, new_page, alice, bob
):
    # Both have made a first move (until then, running out of time only calls the match off).
    match = age(both_acted(start(alice, bob, move_seconds=30)), 22)  # 8 s left to act
    deadline = match.deadline
    late = match.players[match.state.turn]
    waiting = match.players[match.state.turn ^ 1]
    page = new_page(logged_in=waiting)
    asked = timezone.now()
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    clock = page.locator("[data-clock] [data-countdown-text]")
    first = clock.inner_text()
    value = assert_shows_time_left(first, deadline, asked)
    assert value > 0, "the page came too late to see the clock count down"
    page.wait_for_function(
        "t => document.querySelector('[data-clock] [data-countdown-text]')?.textContent !== t",
        arg=first,
    )  # it counts down without a reload, and keeps to the deadline as it does
    assert assert_shows_time_left(clock.inner_text(), deadline, asked) < value
    shot(page, "clock-running", full_page=False)
    # At zero the worker ends the match, and the page shows it without a reload, not before
    # the deadline. (The timeout is a failure guard: the clock has seconds left to run.)
    wait = (deadline - timezone.now()).total_seconds() + 30
    page.wait_for_selector("[data-result]", timeout=wait * 1000)
    assert timezone.now() >= deadline
    assert f"{late.username} ran out of time" in page.locator("[data-result]").inner_text()
    assert not page.locator("[data-prompt]").count()  # nobody is waited for any more
    match.refresh_from_db()
    assert match.end_reason == EndReason.TIMEOUT and match.winner == waiting


def test_a_player_whose_opponent_left_claims_the_match(live_server_url, new_page, alice, bob):
    match = both_acted(start(alice, bob, move_seconds=None))
    # The opponent has not moved for 4 min 57 s and has no page open: 3 s until a claim.
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=4, seconds=57)
    )
    gone = match.players[match.state.turn]
    waiting = match.players[match.state.turn ^ 1]
    page = new_page(logged_in=waiting)
    page.on("dialog", lambda dialog: dialog.accept())  # "Claim the match? ..."
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    notice = page.locator("[data-claim]")
    assert f"{gone.username} has left the table" in notice.inner_text()
    assert not page.locator("#claim-button").is_visible()
    shot(page, "claim-counting-down", full_page=False)
    page.locator("#claim-button").click()  # shown when the count reaches zero
    page.wait_for_selector("[data-result]")
    assert f"{gone.username} left the table" in page.locator("[data-result]").inner_text()
    match.refresh_from_db()
    assert match.end_reason == EndReason.ABANDONED and match.winner == waiting
