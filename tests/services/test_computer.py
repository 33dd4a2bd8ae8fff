"""Matches against the computer: made at once, casual, and the computer takes its own turns."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games import services
from games.engine import legal_actions
from games.models import Match, MatchStatus, Move, RatingChange
from games.services import computer
from games.tasks import computer_move
from tests.support.matches import start
from tests.support.tasks import queued, run_due_tasks


def human_moves_until_the_computer_is_to_act(match: Match, rng: random.Random) -> Match:
    while match.status == MatchStatus.ACTIVE and match.state.turn == 0:
        match = services.move_apply(
            user=match.player0, match_id=match.pk,
            action=str(rng.choice(legal_actions(match.state))), version=match.version,
        ).match  # fmt: skip
    return match


@pytest.mark.django_db
def test_a_match_against_the_computer_is_dealt_at_once_and_never_rated(alice):
    match = services.match_create_computer(user=alice, strength="hard", target=5)
    assert match.status == MatchStatus.ACTIVE and match.version == 1
    assert match.player0 == alice and match.player1.username == "computer-hard"
    assert not match.rated and match.computer == "hard" and match.state.rules.target == 5
    assert not match.player1.has_usable_password()
    again = services.match_create_computer(user=alice, strength="hard")
    assert again.player1 == match.player1  # one account per strength


@pytest.mark.django_db
def test_an_unknown_strength_is_refused_with_words(alice):
    with pytest.raises(services.GameError, match="bad_strength"):
        services.match_create_computer(user=alice, strength="grandmaster")
    assert not Match.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("strength", ["easy", "medium", "hard"])
def test_the_computer_plays_a_whole_match_one_legal_move_at_a_time(alice, strength):
    rng = random.Random(strength)
    match = services.match_create_computer(user=alice, strength=strength, target=5)
    computer_moves = 0
    while match.status == MatchStatus.ACTIVE:
        match = human_moves_until_the_computer_is_to_act(match, rng)
        if match.status != MatchStatus.ACTIVE:
            break
        legal = {str(a) for a in legal_actions(match.state)}
        assert computer.play_turn(match.pk)
        computer_moves += 1
        last = Move.objects.filter(match=match).latest("seq")
        assert last.seat == 1 and last.player == match.player1 and last.action in legal
        match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and computer_moves > 5
    assert not RatingChange.objects.exists()  # casual: nobody's rating moved


@pytest.mark.django_db
def test_the_computer_does_not_move_out_of_turn(alice, bob):
    match = services.match_create_computer(user=alice, strength="easy")
    if match.state.turn == 1:
        assert computer.play_turn(match.pk)
        match.refresh_from_db()
    before = match.version
    assert match.state.turn == 0
    assert not computer.play_turn(match.pk)
    match.refresh_from_db()
    assert match.version == before
    assert not computer.play_turn(start(alice, bob).pk)  # two people: it never moves there


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
def test_after_the_players_move_the_computer_answers_through_the_worker(client, alice, settings):
    settings.COMPUTER_MOVE_DELAY = 0.8
    client.force_login(alice)
    response = client.post(
        reverse("match_create_computer"),
        {"computer-strength": "medium", "computer-deck": "24", "computer-target": "10"},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == reverse("match_detail", args=[match.pk])
    rng = random.Random(4)
    for _ in range(6):  # several turns each way
        while match.state.turn == 1:  # queued with the change that left the computer to act
            assert queued("computer_move")[-1] == (match.pk, match.version)
            run_due_tasks()  # not due yet: the computer waits its beat
            assert Match.objects.get(pk=match.pk).version == match.version
            run_due_tasks(as_if_seconds_passed=1)
            match = Match.objects.get(pk=match.pk)
        action = str(rng.choice(legal_actions(match.state)))
        page = client.post(
            reverse("match_act", args=[match.pk]), {"action": action, "version": match.version}
        )
        assert page.status_code == 302
        match = Match.objects.get(pk=match.pk)
    seats = list(Move.objects.filter(match=match).order_by("seq").values_list("seat", flat=True))
    assert seats.count(0) == 6 and seats.count(1) >= 1  # it answered whenever it was to act


@pytest.mark.django_db
def test_a_computer_move_task_for_a_past_version_does_nothing(alice):
    match = services.match_create_computer(user=alice, strength="easy")
    match = human_moves_until_the_computer_is_to_act(match, random.Random(2))
    stale = match.version
    assert computer_move.call(match.pk, stale)  # the computer moves once for this version
    moves = Move.objects.filter(match=match).count()
    assert not computer_move.call(match.pk, stale)  # a duplicate, or a retry: nothing
    assert not computer_move.call(match.pk, stale - 1)
    assert Move.objects.filter(match=match).count() == moves


@pytest.mark.django_db
def test_a_refused_move_queues_nothing(alice):
    match = services.match_create_computer(user=alice, strength="easy")
    before = len(queued("computer_move"))
    with pytest.raises(services.Conflict):
        services.move_apply(user=alice, match_id=match.pk, action="pass", version=99)
    assert len(queued("computer_move")) == before
