"""Move clocks and abandoned matches: nobody can stall an opponent forever. The worker ends
a clocked turn at its deadline; a move that arrives late is refused even without it."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import legal_actions
from games.models import Connection, EndReason, Match, MatchStatus, Move, RatingChange
from games.tasks import clock_expire
from tests.support.matches import both_acted, play_to_the_end
from tests.support.matches import start as deal
from tests.support.tasks import age, queued, run_due_tasks

pytestmark = pytest.mark.django_db


def start(creator, joiner, **options) -> Match:
    """A match both players have begun: from now on running out of time loses it (the fair
    aborts before that are tests/services/test_play_again.py's). With a one-minute clock
    unless asked otherwise."""
    return both_acted(deal(creator, joiner, **{"move_seconds": 60, **options}))


def to_act(match: Match):
    return match.players[match.state.turn]


def test_a_new_match_has_a_two_minute_clock_unless_asked_otherwise(alice, bob):
    assert deal(alice, bob).move_seconds == services.DEFAULT_MOVE_SECONDS == 120
    assert start(alice, bob, move_seconds=None).move_seconds is None
    with pytest.raises(services.GameError, match="bad_clock"):
        services.match_create(user=alice, move_seconds=2)


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
def test_running_out_of_time_loses_the_match_when_the_worker_reaches_the_deadline(
    client, alice, bob
):
    match = start(alice, bob)
    assert queued("clock_expire") == [(match.pk, match.clock_due.isoformat())]  # with the deal
    run_due_tasks()  # a minute to go: nothing happens
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE
    match = age(match, 61)
    late, waiting = to_act(match), match.players[match.state.turn ^ 1]
    run_due_tasks()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.end_reason == EndReason.TIMEOUT
    assert match.winner == waiting
    client.force_login(waiting)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert f"{late.username} ran out of time" in page
    assert RatingChange.objects.filter(match=match).count() == 2  # a rated match is rated
    assert "Won (on time)" in client.get(reverse("history")).content.decode()


def test_one_clock_task_waits_per_match_and_follows_the_turns(alice, bob):
    match = age(start(alice, bob), 55)
    [(pk, due)] = queued("clock_expire")
    match = services.move_apply(
        user=to_act(match), match_id=match.pk,
        action=str(legal_actions(match.state)[0]), version=match.version,
    ).match  # fmt: skip
    assert queued("clock_expire") == [(pk, due)]  # a move queues no task of its own
    assert not clock_expire.call(pk, due)  # due: that turn was played in time, so it waits again
    match = Match.objects.get(pk=pk)
    assert match.status == MatchStatus.ACTIVE and match.clock_due == match.deadline
    assert queued("clock_expire")[-1] == (pk, match.clock_due.isoformat())
    assert not clock_expire.call(pk, due)  # a duplicate of the task that ran: nothing
    assert len(queued("clock_expire")) == 2
    age(match, 61)
    assert clock_expire.call(pk, match.clock_due.isoformat())
    assert Match.objects.get(pk=pk).end_reason == EndReason.TIMEOUT


def test_a_clock_task_run_before_the_deadline_waits_again(alice, bob):
    match = age(start(alice, bob), 30)
    [(pk, due)] = queued("clock_expire")
    assert not clock_expire.call(pk, due)  # the worker's clock runs ahead of the web's
    match = Match.objects.get(pk=pk)
    assert match.status == MatchStatus.ACTIVE and match.clock_due == match.deadline
    assert queued("clock_expire")[-1] == (pk, match.clock_due.isoformat())


def test_a_match_without_a_clock_queues_no_clock_task(alice, bob):
    match = start(alice, bob, move_seconds=None)
    play_to_the_end(match)
    assert queued("clock_expire") == []


def test_with_time_left_the_page_shows_the_time(client, alice, bob):
    match = age(start(alice, bob), 50)
    client.force_login(alice)
    before = (match.deadline - timezone.now()).total_seconds()  # about 10 s
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    after = (match.deadline - timezone.now()).total_seconds()
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    shown = int(re.search(r'data-countdown="(\d+)"', page).group(1))  # whole seconds, down
    assert after - 1 <= shown <= before and 0 < shown <= 10, (before, shown, after)


def test_a_move_after_the_clock_ran_out_is_refused_and_the_match_is_lost(client, alice, bob):
    match = age(start(alice, bob), 75)
    moves = Move.objects.filter(match=match).count()
    late = to_act(match)
    client.force_login(late)
    action = str(legal_actions(match.state)[0])
    response = client.post(
        reverse("match_act", args=[match.pk]),
        {"action": action, "version": match.version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    assert "Time ran out before that move" in response.content.decode()
    match.refresh_from_db()
    assert match.end_reason == EndReason.TIMEOUT and match.winner != late
    assert Move.objects.filter(match=match).count() == moves


def test_the_clock_starts_again_for_every_move(alice, bob):
    match = age(start(alice, bob), 55)
    match = services.move_apply(
        user=to_act(match), match_id=match.pk,
        action=str(legal_actions(match.state)[0]), version=match.version,
    ).match  # fmt: skip
    assert timezone.now() - match.turn_started_at < timedelta(seconds=5)
    assert match.deadline - timezone.now() > timedelta(seconds=55)


def test_expire_matches_ends_every_overdue_match_and_only_those(alice, bob, carol):
    overdue = age(start(alice, bob), 120)
    fresh = start(alice, carol)
    unclocked = age(start(bob, carol, move_seconds=None), 10_000)
    out = StringIO()
    call_command("expire_matches", stdout=out)
    assert f"Ended 1 match on time (#{overdue.pk})" in out.getvalue()
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses[overdue.pk] == MatchStatus.FINISHED
    assert statuses[fresh.pk] == statuses[unclocked.pk] == MatchStatus.ACTIVE
    again = StringIO()
    call_command("expire_matches", stdout=again)
    assert "Ended 0 matches on time" in again.getvalue()


# Abandonment, for matches without a clock.


def abandoned(alice, bob, seconds: float = 301) -> tuple[Match, object, object]:
    match = age(start(alice, bob, move_seconds=None), seconds)
    gone = to_act(match)
    return match, gone, match.players[match.state.turn ^ 1]


def test_the_waiting_player_claims_a_match_the_opponent_left(client, alice, bob):
    match, gone, waiting = abandoned(alice, bob)
    client.force_login(waiting)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert f"{gone.username} has left the table" in page and 'data-action="claim"' in page
    response = client.post(reverse("match_claim", args=[match.pk]), follow=True)
    match.refresh_from_db()
    assert match.end_reason == EndReason.ABANDONED and match.winner == waiting
    assert f"{gone.username} left the table" in response.content.decode()
    assert RatingChange.objects.filter(match=match).count() == 2
    history = client.get(reverse("history")).content.decode()
    assert "(abandoned)" in history


@pytest.mark.parametrize(
    ("seconds", "present", "words"),
    [
        (200, False, "You may claim the match in 1 min"),
        (400, True, "is still at the table"),
    ],
)
def test_a_claim_too_early_or_against_a_connected_player_is_refused(
    client, alice, bob, seconds, present, words
):
    match, gone, waiting = abandoned(alice, bob, seconds)
    if present:
        Connection.objects.create(match=match, user=gone, channel_name="x", seen_at=timezone.now())
    client.force_login(waiting)
    response = client.post(reverse("match_claim", args=[match.pk]), headers={"HX-Request": "1"})
    assert response.status_code == 409 and words in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


def test_nobody_claims_on_their_own_turn_or_in_a_match_with_a_clock(client, alice, bob):
    match, gone, waiting = abandoned(alice, bob)
    client.force_login(gone)
    response = client.post(reverse("match_claim", args=[match.pk]), headers={"HX-Request": "1"})
    assert response.status_code == 409 and "It is your turn" in response.content.decode()
    clocked = age(start(alice, bob), 30)
    client.force_login(clocked.players[clocked.state.turn ^ 1])
    response = client.post(reverse("match_claim", args=[clocked.pk]), headers={"HX-Request": "1"})
    assert response.status_code == 409 and "move clock" in response.content.decode()
    assert Match.objects.filter(status=MatchStatus.ACTIVE).count() == 2


def test_the_claim_notice_counts_down_before_the_button_may_be_used(client, alice, bob):
    match, gone, waiting = abandoned(alice, bob, 230)
    client.force_login(waiting)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "You may claim the match in" in page
    assert ">1:09<" in page or ">1:10<" in page
    assert 'id="claim-button" data-action="claim" hidden' in page


def test_the_plate_says_away_with_the_time_left_to_come_back_on_one_line(client, alice, bob):
    """The opponent away on their turn, with no clock: their plate says so in words, with the
    time they have to come back before the match may be claimed, counted down by the page."""
    match, gone, waiting = abandoned(alice, bob, 230)
    client.force_login(waiting)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    plate = page.split('class="presence"')[1].split("</p>")[0]
    assert 'data-presence="away"' in page and ">away <" in plate
    assert "time to come back" in plate
    assert re.search(r'class="clock" data-countdown="(69|70)"', plate)  # 70 s, in a pill
    assert re.search(r"data-countdown-text>1:(09|10)<", plate)
    client.force_login(gone)  # the one away, back: their own plate is the opponent's, there
    mine = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "time to come back" not in mine
