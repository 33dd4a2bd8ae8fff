"""Puzzles stored before the miner counted every opponent hand are checked again
(``manage.py puzzles_confirm``): one that cleared the bar only through its sample is retired,
shown nowhere again, with its answers kept; one the full count confirms stays, with the
count's values; a second run changes nothing; mining a match again retires what it no
longer finds."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import services
from games.bots import choose
from games.bots import puzzles as mining
from games.bots.analysis import decide
from games.db import selectors
from games.engine import view_for
from games.models import MatchStatus, Puzzle, PuzzleAttempt, PuzzleRating, PuzzleStreak
from tests.support.matches import resign, start
from tests.support.training import moments

pytestmark = pytest.mark.django_db


def _stored_by_the_old_rule(alice, bob, seed: int, monkeypatch) -> Puzzle:
    """A finished match whose first nine moves are two medium computers' of the seeded deal
    ``seed`` (tests/bots/test_analysis_truth.py), and the puzzle its ninth move made when the
    margin over 8 sampled opponent hands was enough (no full count: ``EXACT_WORK`` 0)."""
    match = start(alice, bob, seed=seed, rated=False)
    rng = random.Random(seed)
    for _ in range(9):
        state = match.state
        before, seat = state, state.turn  # the state before the ninth, at the end
        text = choose("medium", view_for(state, seat), rng)
        match = services.move_apply(
            user=match.players[seat], match_id=match.pk, action=text, version=match.version
        ).match
    match = resign(alice, match)
    assert match.status == MatchStatus.FINISHED
    moves = _moves(match)
    sampled = decide(before, moves[8][1], 8, random.Random(f"{seed}:8"), 8, {})
    with monkeypatch.context() as old_rule:
        old_rule.setattr(mining, "EXACT_WORK", 0)
        assert services.puzzles_mine(match=match, moves=moves, decisions=[sampled]) == 1
    return Puzzle.objects.get(match=match)


@pytest.fixture
def two(alice, bob, monkeypatch):
    """Seed 1's puzzle (sampled margin 0.75, exact under 0.1) and seed 2's (sampled 1.5,
    exact 0.94), both stored by the old rule."""
    noisy = _stored_by_the_old_rule(alice, bob, 1, monkeypatch)
    sound = _stored_by_the_old_rule(alice, bob, 2, monkeypatch)
    assert (noisy.answer, noisy.margin, noisy.private) == ("play:TD", 0.75, False)
    assert (sound.answer, sound.margin) == ("play:AC", 1.5)
    return noisy, sound


def _moves(match) -> list[tuple[int, str]]:
    return list(match.moves.order_by("seq").values_list("seat", "action"))


def _sampled(puzzle: Puzzle):
    """The analysis of the puzzle's move over 8 sampled opponent hands (as the worker's)."""
    match = puzzle.match
    state = {index: state for index, _seat, state in moments(match)}[puzzle.index]
    text = _moves(match)[puzzle.index][1]
    return decide(state, text, puzzle.index, random.Random(f"{match.seed}:{puzzle.index}"), 8, {})


def _confirm() -> str:
    out = io.StringIO()
    call_command("puzzles_confirm", stdout=out)
    return out.getvalue()


def _stored() -> list[tuple]:
    rows = Puzzle.objects.order_by("pk")
    return list(rows.values_list("pk", "retired_at", "margin", "options", "rating", "attempts"))


def test_the_count_retires_the_noisy_puzzle_and_confirms_the_sound_one(two):
    noisy, sound = two
    said = _confirm()
    assert "Counted 2 puzzle(s) in full: 1 retired, 1 confirmed with new values" in said
    noisy.refresh_from_db()
    sound.refresh_from_db()
    assert noisy.retired_at is not None and noisy.margin == 0.75  # kept as it was shown
    assert sound.retired_at is None and sound.answer == "play:AC"
    assert abs(sound.margin - 0.9359) < 1e-4  # the full count's margin
    values = dict(sound.options)
    assert values["play:AC"] - max(v for a, v in values.items() if a != "play:AC") > 0.93


def test_a_second_run_changes_nothing(two):
    _confirm()
    after_one = _stored()
    said = _confirm()
    assert "Counted 1 puzzle(s) in full: 0 retired, 0 confirmed with new values, 1 confirmed" in (
        said
    )
    assert _stored() == after_one


def test_a_retired_puzzle_is_served_nowhere(two, alice, bob, carol, client):
    noisy, sound = two
    owner = noisy.match.players[noisy.seat]
    # The owner's weak spot of the theme: the same move, had they played the second best.
    sampled = _sampled(noisy)
    second = sorted(sampled.options, key=lambda o: o.known)[-2].action
    built = dataclasses.replace(sampled, chosen=second)
    assert built.flag is not None
    services.flagged_record(match=noisy.match, moves=_moves(noisy.match), decisions=[built])
    assert [(s.theme, s.own_puzzles) for s in selectors.weak_spots(user=owner)] == [
        (noisy.theme, 1)
    ]
    _confirm()
    for user in (alice, bob, carol):
        for pick in range(selectors.NEAREST):
            found = selectors.puzzle_next(user=user, pick=pick, mine_first=True)
            assert found is None or found.pk == sound.pk
        theme = selectors.puzzle_next(user=user, theme=noisy.theme)
        assert theme is None or theme.pk != noisy.pk
    assert selectors.puzzle_daily() == sound
    assert [(s.theme, s.own_puzzles) for s in selectors.weak_spots(user=owner)] == [
        (noisy.theme, 0)
    ]
    client.force_login(carol)
    page = client.get(reverse("puzzles"))
    assert page.status_code == 302 and page.url.startswith(reverse("puzzle", args=[sound.pk]))
    page = client.get(reverse("puzzle", args=[noisy.pk]))
    assert page.status_code == 404
    assert "This puzzle was retired" in page.content.decode()
    answer = client.post(reverse("puzzle", args=[noisy.pk]), {"action": noisy.answer})
    assert answer.status_code == 404
    assert not PuzzleAttempt.objects.filter(user=carol, puzzle=noisy).exists()
    assert services.streak_start(user=carol).puzzle == sound


def test_answers_to_a_retired_puzzle_stay_and_no_rating_moves_back(two, carol):
    noisy, _sound = two
    _puzzle, attempt = services.puzzle_answer(user=carol, puzzle_id=noisy.pk, action=noisy.answer)
    rated = PuzzleRating.objects.get(user=carol).value
    noisy.refresh_from_db()
    puzzle_rating = noisy.rating
    _confirm()
    assert PuzzleAttempt.objects.get(pk=attempt.pk).correct
    assert PuzzleRating.objects.get(user=carol).value == rated == attempt.after
    noisy.refresh_from_db()
    assert (noisy.rating, noisy.attempts, noisy.solved) == (puzzle_rating, 1, 1)
    results = selectors.theme_results(user=carol)
    assert [(r.theme, r.attempts, r.solved) for r in results] == [(noisy.theme, 1, 1)]


def test_a_streak_with_the_retired_puzzle_on_its_table_moves_on(two, carol):
    noisy, sound = two
    assert services.streak_start(user=carol).puzzle == noisy  # the easiest: the first made
    _confirm()
    assert PuzzleStreak.objects.get(user=carol).puzzle == sound


def test_mining_a_match_again_retires_the_puzzle_it_no_longer_finds(two):
    noisy, sound = two
    for puzzle in (noisy, sound):
        match = puzzle.match
        services.puzzles_mine(match=match, moves=_moves(match), decisions=[_sampled(puzzle)])
    noisy.refresh_from_db()
    sound.refresh_from_db()
    assert noisy.retired_at is not None
    assert sound.retired_at is None and abs(sound.margin - 0.9359) < 1e-4
    said = _confirm()
    assert "Counted 1 puzzle(s) in full: 0 retired, 0 confirmed with new values, 1 confirmed" in (
        said
    )
