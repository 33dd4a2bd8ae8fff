"""Training on one's own mistakes: weak spots ranked by the points lost (counted here by hand
from analyses built by hand), a player's own puzzles private to them, and the streak: rising
ratings, the end at the first miss, the best kept, nothing skipped or tried twice."""

from __future__ import annotations

import pytest

from games import rating, services
from games.db import selectors
from games.engine.state import Phase
from games.errors import Conflict
from games.models import FlaggedDecision, Puzzle, PuzzleAttempt, PuzzleRating, PuzzleStreak
from games.services.puzzles import people
from tests.support.matches import play_to_the_end, start
from tests.support.training import decision, first

pytestmark = pytest.mark.django_db


def _played(alice, bob, seed: int = 3):
    return play_to_the_end(start(alice, bob, target=10, rated=False), seed=seed)


def _moves(match):
    return list(match.moves.order_by("seq").values_list("seat", "action"))


def test_weak_spots_rank_the_themes_by_the_points_lost(alice, bob):
    match = _played(alice, bob)
    me, other = match.seat_of(alice), match.seat_of(bob)
    built = [
        # alice: two calls of round one (ordering up) lose 0.40 and 0.35: 0.75 in two;
        decision(*first(match, me, Phase.ROUND_ONE, 0, dealer=False), lost=0.40),
        decision(*first(match, me, Phase.ROUND_ONE, 1, dealer=False), lost=0.35),
        # one discard loses 1.20 alone: first, though one decision;
        decision(*first(match, me, Phase.DISCARD), lost=1.20),
        # one within 0.3 of the best is not flagged, and bob's are his.
        decision(*first(match, me, Phase.ROUND_ONE, 2, dealer=False), lost=0.20),
        decision(*first(match, other, Phase.ROUND_ONE, 0, dealer=False), lost=2.00),
    ]
    kept = services.flagged_record(match=match, moves=_moves(match), decisions=built)
    assert kept == 4
    spots = selectors.weak_spots(user=alice)
    assert [(s.theme, s.count, s.loss) for s in spots] == [
        ("discard", 1, 1.2),
        ("ordering_up", 2, 0.75),
    ]
    assert [(s.theme, s.count, s.loss) for s in selectors.weak_spots(user=bob)] == [
        ("ordering_up", 1, 2.0)
    ]
    # A newer analysis replaces the decisions kept from the older one.
    services.flagged_record(match=match, moves=_moves(match), decisions=built[:1])
    assert FlaggedDecision.objects.filter(match=match).count() == 1


def test_a_players_own_flagged_decisions_are_their_private_puzzles(alice, bob, carol):
    match = _played(alice, bob)
    me = match.seat_of(alice)
    private_at = first(match, me, Phase.ROUND_ONE, 0, dealer=False)
    public_at = first(match, me, Phase.ROUND_ONE, 1, dealer=False)
    built = [decision(*private_at, lost=0.35), decision(*public_at, lost=0.80)]
    Puzzle.objects.filter(match=match).delete()
    services.puzzles_mine(match=match, moves=_moves(match), decisions=built)
    private = Puzzle.objects.get(match=match, index=private_at[0])
    public = Puzzle.objects.get(match=match, index=public_at[0])
    assert (private.private, public.private) == (True, False)
    assert private.theme == "ordering_up" and private.answer == built[0].options[0].action
    # The private one is alice's alone: not bob's (her opponent), not carol's, not the day's.
    assert selectors.puzzle_visible(user=alice, puzzle_id=private.pk) == private
    for other in (bob, carol):
        assert selectors.puzzle_visible(user=other, puzzle_id=private.pk) is None
        assert selectors.puzzle_visible(user=other, puzzle_id=public.pk) == public
    # Her weak spot's link finds her own puzzles first, then everyone's.
    found = selectors.puzzle_next(user=alice, theme="ordering_up", mine_first=True)
    assert found in (private, public)
    theirs = selectors.puzzle_next(user=carol, theme="ordering_up", mine_first=True)
    assert theirs is not None and not theirs.private


def test_the_computers_seat_keeps_no_flags_nor_private_puzzles(alice):
    match = services.match_create_computer(user=alice, strength="easy")
    seat = match.seat_of(alice)
    persons = people(match)
    assert persons[seat] and not persons[1 - seat]


def _ladder(alice, bob, ratings: list[int]) -> list[Puzzle]:
    """Puzzles of a played match, rated as given (a test's own ladder)."""
    match = _played(alice, bob)
    at = [first(match, s, Phase.ROUND_ONE, n, dealer=False) for n in range(3) for s in (0, 1)]
    built = [decision(*m, lost=0.8) for m in at[: len(ratings)]]
    Puzzle.objects.filter(match=match).delete()
    services.puzzles_mine(match=match, moves=_moves(match), decisions=built)
    puzzles = list(Puzzle.objects.filter(match=match).order_by("index"))
    for puzzle, value in zip(puzzles, ratings, strict=True):
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=value)
        puzzle.rating = value
    return sorted(puzzles, key=lambda p: p.rating)


def _wrong(puzzle: Puzzle) -> str:
    return next(a for a, _v in puzzle.options if a != puzzle.answer)


def test_a_streak_rises_in_rating_ends_at_the_first_miss_and_keeps_the_best(alice, bob, carol):
    ladder = _ladder(alice, bob, [1650, 1400, 1500, 1450, 1800])
    streak = services.streak_start(user=carol)
    shown = [streak.puzzle]
    for _ in range(3):
        streak, attempt = services.streak_answer(
            user=carol, puzzle_id=streak.puzzle_id, action=streak.puzzle.answer
        )
        assert attempt.correct and not attempt.rated
        shown.append(streak.puzzle)
    assert [p.rating for p in shown] == [1400, 1450, 1500, 1650]
    assert (streak.current, streak.best) == (3, 3)
    missed = streak.puzzle
    streak, attempt = services.streak_answer(user=carol, puzzle_id=missed.pk, action=_wrong(missed))
    assert not attempt.correct
    assert (streak.puzzle, streak.missed, streak.current, streak.best) == (None, missed, 3, 3)
    # Unrated: no puzzle rating for carol, the puzzles' ratings unchanged.
    assert not PuzzleRating.objects.filter(user=carol).exists()
    assert sorted(Puzzle.objects.values_list("rating", flat=True)) == sorted(
        p.rating for p in ladder
    )
    # A new run starts from the easiest left (each puzzle once): 1800, solved, then complete.
    streak = services.streak_start(user=carol)
    assert streak.puzzle.rating == 1800 and streak.current == 0
    streak, _ = services.streak_answer(
        user=carol, puzzle_id=streak.puzzle_id, action=streak.puzzle.answer
    )
    assert (streak.puzzle, streak.current, streak.best, streak.runs) == (None, 1, 3, 2)


def test_a_streak_cannot_skip_nor_retry_a_puzzle(alice, bob, carol):
    ladder = _ladder(alice, bob, [1400, 1500, 1600])
    streak = services.streak_start(user=carol)
    first_one = streak.puzzle
    with pytest.raises(Conflict) as going:  # starting again would skip the one on the table
        services.streak_start(user=carol)
    assert going.value.code == "streak_going"
    with pytest.raises(Conflict) as other:  # a puzzle not on the table
        services.streak_answer(user=carol, puzzle_id=ladder[1].pk, action=ladder[1].answer)
    assert other.value.code == "streak_moved_on"
    with pytest.raises(Conflict) as elsewhere:  # nor answered, rated, on the puzzles page
        services.puzzle_answer(user=carol, puzzle_id=first_one.pk, action=first_one.answer)
    assert elsewhere.value.code == "in_your_streak"
    streak, _ = services.streak_answer(user=carol, puzzle_id=first_one.pk, action=first_one.answer)
    with pytest.raises(Conflict) as again:  # the page from before: answered, moved on
        services.streak_answer(user=carol, puzzle_id=first_one.pk, action=first_one.answer)
    assert again.value.code == "streak_moved_on"
    missed = streak.puzzle
    services.streak_answer(user=carol, puzzle_id=missed.pk, action=_wrong(missed))
    with pytest.raises(Conflict) as retry:
        services.streak_answer(user=carol, puzzle_id=missed.pk, action=missed.answer)
    assert retry.value.code == "no_streak_going"
    assert PuzzleAttempt.objects.filter(user=carol).count() == 2
    assert PuzzleStreak.objects.get(user=carol).best == 1
    # The missed puzzle is never shown again: the next run begins above nothing it has seen.
    assert services.streak_start(user=carol).puzzle == ladder[2]
    assert selectors.puzzle_next(user=carol) is None  # every puzzle tried or on the table
    assert rating.INITIAL == 1500
