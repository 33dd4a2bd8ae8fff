"""Playing again: fair aborts and the first move's longer clock, rematches, the quick
pairing and challenges, through the services (and the real task queue where time passes)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games import services
from games.engine import first_dealer
from games.models import (
    FIRST_ACTION_SECONDS,
    Challenge,
    EndReason,
    Match,
    MatchStatus,
    PlayerRating,
    RatingChange,
    RematchState,
)
from tests.support.matches import both_acted, play_to_the_end, resign, start
from tests.support.tasks import age, queued, run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    # Refusals are matched by their English words; a page test earlier in the process may have
    # left another language active in this thread.
    with translation.override("en"):
        yield


def to_act(match: Match):
    return match.players[match.state.turn]


def first_move(match: Match) -> Match:
    return services.move_apply(
        user=to_act(match), match_id=match.pk, action="pass", version=match.version
    ).match


# Fair aborts -------------------------------------------------------------------------------


def test_resigning_before_anyone_moved_calls_the_match_off_unrated(alice, bob):
    match = services.match_resign(user=alice, match_id=start(alice, bob).pk)
    assert (match.status, match.end_reason, match.winner) == (
        MatchStatus.ABORTED, EndReason.ABORTED, None,
    )  # fmt: skip
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def test_the_player_who_moved_may_still_resign_for_free_until_the_other_moves(alice, bob):
    match = first_move(start(alice, bob))
    mover = match.players[match.state.turn ^ 1]
    assert services.match_resign(user=mover, match_id=match.pk).status == MatchStatus.ABORTED


def test_once_both_have_moved_resigning_loses_a_rated_match(alice, bob):
    match = resign(alice, start(alice, bob))
    assert match.status == MatchStatus.FINISHED and match.end_reason == EndReason.RESIGNED
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.django_db(transaction=True)  # the real worker runs the clock's task
def test_running_out_of_time_on_a_first_move_aborts_without_rating(alice, bob):
    match = age(start(alice, bob, move_seconds=60), FIRST_ACTION_SECONDS + 1)
    run_due_tasks()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.end_reason == EndReason.ABORTED
    assert not RatingChange.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_second_players_first_move_timing_out_also_aborts(alice, bob):
    match = age(first_move(start(alice, bob, move_seconds=60)), FIRST_ACTION_SECONDS + 1)
    run_due_tasks()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and not RatingChange.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_after_both_have_moved_running_out_of_time_is_rated(alice, bob):
    match = age(both_acted(start(alice, bob, move_seconds=60)), 61)
    late = to_act(match)
    run_due_tasks()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.end_reason == EndReason.TIMEOUT
    assert match.winner != late and RatingChange.objects.filter(match=match).count() == 2


def test_a_first_move_has_at_least_sixty_seconds_whatever_the_move_clock(alice, bob):
    match = start(alice, bob, move_seconds=10)
    assert match.deadline - match.turn_started_at == timedelta(seconds=FIRST_ACTION_SECONDS)
    # The task queued with the deal is due at that deadline, not after 10 seconds.
    assert queued("clock_expire") == [(match.pk, match.deadline.isoformat())]
    match = age(match, 30)
    assert not services.match_expire(match_id=match.pk)  # 30 s gone: still in time
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE
    match = first_move(Match.objects.get(pk=match.pk))  # the second player's first move: long
    assert match.deadline - match.turn_started_at == timedelta(seconds=FIRST_ACTION_SECONDS)
    match = first_move(match)  # both have moved: the move clock's 10 s from now on
    assert match.both_acted
    assert match.deadline - match.turn_started_at == timedelta(seconds=10)


def test_a_longer_move_clock_stays_as_it_is_for_the_first_move(alice, bob):
    match = start(alice, bob, move_seconds=300)
    assert match.deadline - match.turn_started_at == timedelta(seconds=300)


def test_claiming_a_match_whose_opponent_never_moved_calls_it_off(alice, bob):
    match = age(start(alice, bob, move_seconds=None), 301)
    waiting = match.players[match.state.turn ^ 1]
    match = services.match_claim(user=waiting, match_id=match.pk)
    assert match.status == MatchStatus.ABORTED and not RatingChange.objects.exists()


# Rematches -----------------------------------------------------------------------------------


@pytest.fixture
def finished(alice, bob) -> Match:
    return play_to_the_end(start(alice, bob, deck=32, target=5, stick_the_dealer=True))


def test_a_rematch_offer_waits_for_the_opponent_and_lapses_after_two_minutes(finished, alice):
    match = services.rematch_offer(user=alice, match_id=finished.pk)
    assert match.pk == finished.pk and match.rematch_state == RematchState.OFFERED
    assert match.rematch_seat == match.seat_of(alice)
    assert match.rematch_until - timezone.now() > timedelta(seconds=110)
    assert queued("rematch_lapse") == [(match.pk, match.version)]
    with pytest.raises(services.Conflict, match="rematch_offered"):
        services.rematch_offer(user=alice, match_id=finished.pk)


@pytest.mark.django_db(transaction=True)
def test_the_lapse_task_ends_an_unanswered_offer_and_nothing_else(alice, bob):
    finished = play_to_the_end(start(alice, bob))
    services.rematch_offer(user=alice, match_id=finished.pk)
    run_due_tasks()  # not yet due
    assert Match.objects.get(pk=finished.pk).rematch_state == RematchState.OFFERED
    run_due_tasks(as_if_seconds_passed=121)
    match = Match.objects.get(pk=finished.pk)
    assert match.rematch_state == RematchState.LAPSED and match.next_match is None
    with pytest.raises(services.Conflict, match="no_rematch_offer"):
        services.rematch_accept(user=bob, match_id=finished.pk)


def test_an_offer_answered_in_time_is_left_alone_by_its_lapse_task(finished, alice, bob):
    offered = services.rematch_offer(user=alice, match_id=finished.pk)
    services.rematch_decline(user=bob, match_id=finished.pk)
    assert not services.rematch_lapse(match_id=finished.pk, version=offered.version)
    assert Match.objects.get(pk=finished.pk).rematch_state == RematchState.DECLINED


def test_accepting_starts_the_same_options_with_the_first_deal_to_the_other(finished, alice, bob):
    services.rematch_offer(user=alice, match_id=finished.pk)
    new = services.rematch_accept(user=bob, match_id=finished.pk)
    assert new.status == MatchStatus.ACTIVE and {new.player0, new.player1} == {alice, bob}
    assert (new.deck, new.target, new.stick_the_dealer, new.rated, new.move_seconds) == (
        32, 5, True, True, services.DEFAULT_MOVE_SECONDS,
    )  # fmt: skip
    old_dealer = finished.players[first_dealer(int(finished.seed))]
    new_dealer = new.players[first_dealer(int(new.seed))]
    assert new_dealer != old_dealer and new.players[new.state.dealer] == new_dealer
    old = Match.objects.get(pk=finished.pk)
    assert old.next_match_id == new.pk and old.rematch_state == ""
    # A second click on either side lands in the same new match.
    assert services.rematch_accept(user=bob, match_id=finished.pk).pk == new.pk
    assert services.rematch_offer(user=alice, match_id=finished.pk).pk == new.pk


def test_both_offering_is_agreeing(finished, alice, bob):
    services.rematch_offer(user=alice, match_id=finished.pk)
    new = services.rematch_offer(user=bob, match_id=finished.pk)
    assert new.pk != finished.pk and new.status == MatchStatus.ACTIVE


def test_a_declined_offer_is_not_made_again_by_the_same_player(finished, alice, bob):
    services.rematch_offer(user=alice, match_id=finished.pk)
    match = services.rematch_decline(user=bob, match_id=finished.pk)
    assert match.rematch_state == RematchState.DECLINED
    with pytest.raises(services.Conflict, match="rematch_declined.*bob"):
        services.rematch_offer(user=alice, match_id=finished.pk)
    # The one who declined may still change their mind and offer it.
    assert services.rematch_offer(user=bob, match_id=finished.pk).rematch_state == "offered"


def test_withdrawing_an_offer_leaves_no_trace(finished, alice):
    services.rematch_offer(user=alice, match_id=finished.pk)
    match = services.rematch_decline(user=alice, match_id=finished.pk)
    assert match.rematch_state == "" and match.rematch_until is None


@pytest.mark.django_db(transaction=True)
def test_an_offer_lapses_when_a_player_leaves_the_page_but_not_on_a_reload(alice, bob):
    finished = play_to_the_end(start(alice, bob))
    for user, channel in ((alice, "a"), (bob, "b"), (bob, "b2")):
        services.connection_open(match_id=finished.pk, user=user, channel_name=channel)
    services.rematch_offer(user=alice, match_id=finished.pk)
    services.connection_close(match_id=finished.pk, channel_name="b2")  # bob's other tab
    run_due_tasks(as_if_seconds_passed=6)
    assert Match.objects.get(pk=finished.pk).rematch_state == RematchState.OFFERED
    services.connection_close(match_id=finished.pk, channel_name="b")  # bob reloads the page:
    services.connection_open(match_id=finished.pk, user=bob, channel_name="b3")  # back at once
    run_due_tasks(as_if_seconds_passed=6)
    assert Match.objects.get(pk=finished.pk).rematch_state == RematchState.OFFERED
    services.connection_close(match_id=finished.pk, channel_name="b3")  # bob has gone
    run_due_tasks()  # not yet: he may be reloading
    assert Match.objects.get(pk=finished.pk).rematch_state == RematchState.OFFERED
    run_due_tasks(as_if_seconds_passed=6)
    assert Match.objects.get(pk=finished.pk).rematch_state == RematchState.LAPSED


def test_only_a_finished_match_is_played_again(alice, bob, carol):
    active = start(alice, bob)
    with pytest.raises(services.Conflict, match="rematch_only_finished"):
        services.rematch_offer(user=alice, match_id=active.pk)
    aborted = services.match_resign(user=alice, match_id=start(alice, bob).pk)
    with pytest.raises(services.Conflict, match="rematch_only_finished"):
        services.rematch_offer(user=alice, match_id=aborted.pk)
    finished = play_to_the_end(start(alice, bob))
    with pytest.raises(services.NotAllowed):
        services.rematch_offer(user=carol, match_id=finished.pk)
    with pytest.raises(services.Conflict, match="no_rematch_offer"):
        services.rematch_accept(user=bob, match_id=finished.pk)


def test_against_the_computer_playing_again_starts_at_once(alice):
    first = services.match_create_computer(user=alice, strength="hard", deck=25, target=7)
    finished = services.match_resign(user=alice, match_id=both_acted(first).pk)
    new = services.rematch_offer(user=alice, match_id=finished.pk)
    assert new.status == MatchStatus.ACTIVE and new.computer == "hard"
    assert (new.player0, new.deck, new.target, new.rated) == (alice, 25, 7, False)
    assert first_dealer(int(new.seed)) != first_dealer(int(first.seed))
    assert Match.objects.get(pk=first.pk).next_match_id == new.pk


# The quick pairing ---------------------------------------------------------------------------


def test_find_an_opponent_joins_the_oldest_compatible_open_match(alice, bob, carol):
    older = services.match_create(user=bob)
    services.match_create(user=carol)
    services.match_create(user=carol, deck=32)  # another deck: not compatible
    match = services.match_find(user=alice)
    assert match.pk == older.pk and match.status == MatchStatus.ACTIVE and match.player1 == alice


def test_find_an_opponent_opens_a_match_when_nobody_waits_and_never_two(alice, bob):
    services.match_create(user=bob, move_seconds=None)  # no clock: not for the quick pairing
    mine = services.match_find(user=alice, deck=32, target=5)
    assert (mine.status, mine.player0, mine.deck, mine.target) == (MatchStatus.OPEN, alice, 32, 5)
    assert mine.move_seconds == services.DEFAULT_MOVE_SECONDS and mine.rated
    assert services.match_find(user=alice, deck=32, target=5).pk == mine.pk


# Challenges ----------------------------------------------------------------------------------


def test_an_accepted_challenge_starts_the_match_with_its_options(alice, bob):
    challenge = services.challenge_create(
        user=alice, challenged=bob, deck=25, target=7, rated=False, move_seconds=120
    )
    assert challenge.status == Challenge.Status.PENDING
    assert queued("challenge_lapse") == [(challenge.pk,)]
    with pytest.raises(services.NotAllowed):
        services.challenge_accept(user=alice, challenge_id=challenge.pk)  # not hers to accept
    match = services.challenge_accept(user=bob, challenge_id=challenge.pk)
    assert (match.status, match.deck, match.target, match.rated, match.move_seconds) == (
        MatchStatus.ACTIVE, 25, 7, False, 120,
    )  # fmt: skip
    assert {match.player0, match.player1} == {alice, bob}
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.ACCEPTED
    assert services.challenge_accept(user=bob, challenge_id=challenge.pk).pk == match.pk


def test_a_challenge_is_declined_withdrawn_or_lapses(alice, bob):
    declined = services.challenge_create(user=alice, challenged=bob)
    assert services.challenge_decline(user=bob, challenge_id=declined.pk).status == "declined"
    withdrawn = services.challenge_create(user=alice, challenged=bob)
    assert services.challenge_decline(user=alice, challenge_id=withdrawn.pk).status == "cancelled"
    lapsed = services.challenge_create(user=alice, challenged=bob)
    assert services.challenge_lapse(challenge_id=lapsed.pk)
    assert not services.challenge_lapse(challenge_id=declined.pk)  # answered: nothing to do
    with pytest.raises(services.Conflict, match="challenge_closed"):
        services.challenge_accept(user=bob, challenge_id=lapsed.pk)


def test_a_challenge_past_its_time_is_refused_even_before_its_task_runs(alice, bob):
    challenge = services.challenge_create(user=alice, challenged=bob)
    Challenge.objects.filter(pk=challenge.pk).update(until=timezone.now())
    with pytest.raises(services.Conflict, match="lapsed"):
        services.challenge_accept(user=bob, challenge_id=challenge.pk)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.LAPSED
    assert not Match.objects.exists()


def test_who_may_be_challenged(alice, bob, carol):
    with pytest.raises(services.NotAllowed, match="challenge_self"):
        services.challenge_create(user=alice, challenged=alice)
    with pytest.raises(services.NotAllowed, match="not_challengeable"):
        services.challenge_create(user=alice, challenged=services.computer_user("easy"))
    with pytest.raises(services.GameError, match="bad_clock"):
        services.challenge_create(user=alice, challenged=bob, move_seconds=5)
    services.challenge_create(user=alice, challenged=bob)
    with pytest.raises(services.Conflict, match="already_challenged"):
        services.challenge_create(user=alice, challenged=bob)
    services.challenge_create(user=alice, challenged=carol)  # one each is fine


def test_a_bot_joins_a_persons_open_match_only_if_they_play_bots(alice, bob, carol):
    services.player_bot_set(user=carol)
    open_match = services.match_create(user=alice)
    with pytest.raises(services.NotAllowed) as refused:
        services.match_join(user=carol, match_id=open_match.pk)
    assert refused.value.code == "no_bots" and refused.value.params == {"player": "alice"}
    # "Find an opponent" leaves alice's match alone too: the bot opens one of its own.
    found = services.match_find(user=carol)
    assert found.pk != open_match.pk and found.player0 == carol
    services.player_bot_challenges_set(user=alice, allowed=True)
    assert services.match_join(user=carol, match_id=open_match.pk).player1 == carol
    # A person joins a bot's open match as any other.
    assert services.match_join(user=bob, match_id=found.pk).player1 == bob
