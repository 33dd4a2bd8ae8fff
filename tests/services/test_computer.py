"""Matches against the computer: made at once, casual, and the computer takes its own turns."""

from __future__ import annotations

import random
import time

import pytest
from django.urls import reverse

from games import computer, services
from games.engine import legal_actions
from games.models import Match, MatchStatus, Move, RatingChange
from tests.matches import start


def human_moves_until_the_computer_is_to_act(match: Match, rng: random.Random) -> Match:
    while match.status == MatchStatus.ACTIVE and match.state.turn == 0:
        match = services.move_apply(
            user=match.player0, match_id=match.pk,
            action=str(rng.choice(legal_actions(match.state))), version=match.version,
        )  # fmt: skip
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
    with pytest.raises(services.GameError, match="easy, medium or hard"):
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


@pytest.mark.django_db(transaction=True)
def test_after_the_players_move_the_computer_answers_by_itself(client, alice, settings):
    settings.COMPUTER_MOVE_DELAY = 0.05
    client.force_login(alice)
    response = client.post(
        reverse("match_create_computer"),
        {"computer-strength": "medium", "computer-deck": "24", "computer-target": "10"},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == reverse("match_detail", args=[match.pk])
    rng = random.Random(4)
    pk = match.pk

    def reread():
        return Match.objects.get(pk=pk)

    def my_turn(m):
        return m.state.turn == 0

    for _ in range(6):  # several turns each way
        match = wait_for(reread, my_turn)
        action = str(rng.choice(legal_actions(match.state)))
        page = client.post(
            reverse("match_act", args=[match.pk]), {"action": action, "version": match.version}
        )
        assert page.status_code == 302
    match = wait_for(reread, my_turn)
    seats = list(Move.objects.filter(match=match).order_by("seq").values_list("seat", flat=True))
    assert seats.count(0) == 6 and seats.count(1) >= 5


@pytest.mark.django_db(transaction=True)
def test_opening_the_page_wakes_a_computer_whose_turn_was_lost(client, alice, settings):
    # A process died between a commit and the computer's move: no timer is running anywhere.
    settings.COMPUTER_MOVE_DELAY = 0.05
    listeners = services.computer_turn_listeners[:]
    services.computer_turn_listeners.clear()
    try:
        match = services.match_create_computer(user=alice, strength="easy")
        match = human_moves_until_the_computer_is_to_act(match, random.Random(2))
        time.sleep(0.3)
        assert match.state.turn == 1 and Match.objects.get(pk=match.pk).version == match.version
    finally:
        services.computer_turn_listeners[:] = listeners
    client.force_login(alice)
    assert client.get(reverse("match_detail", args=[match.pk])).status_code == 200
    moved = wait_for(lambda: Match.objects.get(pk=match.pk), lambda m: m.version > match.version)
    assert Move.objects.filter(match=moved, seat=1).exists()


def wait_for(read, ready, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if ready(value) or time.monotonic() > deadline:
            assert ready(value), "the computer did not move in time"
            return value
        time.sleep(0.05)
