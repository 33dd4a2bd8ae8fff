"""A hand's end is played on the table before the next hand can be (static/js/table.js): the
next hand's first turn starts HAND_END later, for its clock and for the computer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.models import HAND_END, HAND_END_BY_PACE, Match, MatchStatus, TablePace, pace_ms
from games.services import computer
from tests.support.matches import pass_if_allowed, start


def until_a_hand_ends(match: Match) -> Match:
    hands = len(match.state.results)
    while len(match.state.results) == hands:
        match = pass_if_allowed(match)
    return match


@pytest.mark.django_db
def test_the_next_hands_first_turn_and_its_clock_start_after_the_hands_end(alice, bob):
    match = start(alice, bob, move_seconds=30)
    move = pass_if_allowed(match)
    assert move.turn_started_at <= timezone.now()  # within a hand: at once
    before = timezone.now()
    match = until_a_hand_ends(move)
    assert match.status == MatchStatus.ACTIVE
    assert before + HAND_END <= match.turn_started_at <= timezone.now() + HAND_END
    assert match.deadline == match.turn_started_at + timedelta(seconds=30)


@pytest.mark.django_db
def test_the_computer_waits_for_the_hands_end_before_its_move(alice, settings, monkeypatch):
    settings.COMPUTER_MOVE_DELAY = 0.5
    # A fixed deal (tests/conftest.py fixes the computer's choices): with random ones the match
    # could end before a hand ended with the computer to speak first (the loop below then had
    # no turn to play). CI once drew such choices when only the deal was fixed.
    monkeypatch.setattr("games.services.matches.new_seed", lambda: 12345)
    match = services.match_create_computer(user=alice, strength="easy")
    while True:  # the player passes; the computer's turns are made at once
        if match.state.turn == 1:
            computer.play_turn(match.pk)
            match = Match.objects.get(pk=match.pk)
            continue
        hands = len(match.state.results)
        match = pass_if_allowed(match)
        if len(match.state.results) > hands and match.state.turn == 1:
            break
    task = DBTaskResult.objects.filter(status=TaskResultStatus.READY).latest("enqueued_at")
    assert task.args_kwargs["args"] == [match.pk, match.version]
    # Not before the next hand is on the table, and no beat after it: the hand's end is the
    # beat (the player's first control of the hand comes within the table's pace).
    assert task.run_after == match.turn_started_at
    assert match.turn_started_at >= timezone.now() + HAND_END - timedelta(seconds=1)


@pytest.mark.django_db
def test_the_next_hand_waits_for_the_slower_of_the_two_tables(alice, bob):
    services.player_table_pace_set(user=bob, pace=TablePace.RELAXED, forced_card=False)
    match = start(alice, bob, move_seconds=30)
    before = timezone.now()
    match = until_a_hand_ends(match)
    relaxed = HAND_END_BY_PACE[TablePace.RELAXED]
    assert relaxed > HAND_END
    assert before + relaxed <= match.turn_started_at <= timezone.now() + relaxed


def test_the_quick_pace_ends_a_hand_within_two_and_a_half_seconds():
    """The page's stages at the quick pace, and the server's wait, which is never shorter."""
    assert pace_ms(TablePace.QUICK) <= HAND_END.total_seconds() * 1000 <= 2500
    assert pace_ms(TablePace.RELAXED) <= HAND_END_BY_PACE[TablePace.RELAXED].total_seconds() * 1000
