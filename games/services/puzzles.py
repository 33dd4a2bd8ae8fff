"""Puzzles: mined from each analysed match by the task worker, answered by players.

A puzzle is a decision where one option was clearly best (``games.bots.puzzles``). Each answer
is a rated game between the player and the puzzle (``games.rating``'s Elo: solving it is a
win for the player, missing it a win for the puzzle); a player answers each puzzle once.
A visitor who is not logged in may answer too: checked, stored nowhere, and told nothing (the
web asks them to log in), so an answer is never read before the one that counts is given.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F

from .. import rating
from ..bots import puzzles as mining
from ..bots.analysis import Decision
from ..engine import Rules
from ..errors import Conflict, NotFound
from ..models import Match, Puzzle, PuzzleAttempt, PuzzleRating


def puzzles_mine(*, match: Match, moves: list[tuple[int, str]], decisions: list[Decision]) -> int:
    """Store the puzzles of an analysed match (once: those it has already are kept); returns
    how many it has now."""
    rules: Rules = match.rules
    found = mining.mine(int(match.seed), rules, moves, decisions)
    Puzzle.objects.bulk_create(
        [
            Puzzle(
                match=match,
                index=f.index,
                seat=f.seat,
                answer=f.answer,
                theme=f.theme,
                graded=f.graded,
                margin=f.margin,
                options=[list(o) for o in f.options],
                line=[list(m) for m in f.line],
                reason=list(f.reason),
            )
            for f in found
        ],
        ignore_conflicts=True,
    )
    return Puzzle.objects.filter(match=match).count()


def puzzle_answer(*, user, puzzle_id: int, action: str) -> tuple[Puzzle, PuzzleAttempt | None]:
    """``user``'s answer to a puzzle: the attempt (whether it is the answer) with both ratings
    moved, or None for a visitor not logged in (nothing stored, nothing told). Refuses a
    puzzle that does not exist, an action that is not one of its options, and a second answer
    to the same puzzle."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise NotFound("no_such_puzzle")
    if action not in {a for a, _value in puzzle.options}:
        raise Conflict("not_an_option")
    if not user.is_authenticated:
        return puzzle, None
    correct = action == puzzle.answer
    try:
        with transaction.atomic():
            puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
            mine, _created = PuzzleRating.objects.select_for_update().get_or_create(user=user)
            score = 1.0 if correct else 0.0
            gained = rating.change(mine.value, puzzle.rating, score, mine.attempts)
            lost = rating.change(puzzle.rating, mine.value, 1 - score, puzzle.attempts)
            attempt = PuzzleAttempt.objects.create(
                user=user,
                puzzle=puzzle,
                chosen=action,
                correct=correct,
                before=mine.value,
                after=mine.value + gained,
            )
            PuzzleRating.objects.filter(pk=mine.pk).update(
                value=F("value") + gained,
                attempts=F("attempts") + 1,
                solved=F("solved") + int(correct),
            )
            Puzzle.objects.filter(pk=puzzle.pk).update(
                rating=F("rating") + lost,
                attempts=F("attempts") + 1,
                solved=F("solved") + int(correct),
            )
    except IntegrityError:
        raise Conflict("puzzle_answered") from None  # a second answer (another tab)
    puzzle.refresh_from_db()
    return puzzle, attempt
