"""Puzzles: the next one for the account, and answering it."""

from __future__ import annotations

import random

from ninja import Router, Schema

from ... import services
from ...db import selectors
from ...engine import view_for
from ...errors import NotFound
from ...models import MatchStatus, Puzzle, PuzzleTheme
from ...presentation.puzzles import position
from ..schemas import Puzzle as PuzzleShape
from ..schemas import PuzzleAnswer, answers
from .common import PLAY, READ, Id

router = Router()


class AnswerIn(Schema):
    action: str


def _puzzle(puzzle: Puzzle) -> dict:
    """A puzzle as the solver may see it: the seat's view before its move, and its options
    (the answer only once answered)."""
    match = selectors.puzzle_source(puzzle=puzzle)
    state = position(puzzle, int(match.seed), match.rules, selectors.match_moves(match=match))
    return {
        "id": puzzle.pk,
        "theme": puzzle.theme,
        "rating": puzzle.rating,
        "seat": puzzle.seat,
        "view": view_for(state, puzzle.seat).as_dict(),
        "options": [a for a, _v in puzzle.options],
    }


@router.get("/puzzles/next", auth=READ, tags=["puzzles"], openapi_extra=answers(PuzzleShape, 404))
def puzzle_next(request, theme: str = ""):
    """A puzzle the account has not tried, rated near its puzzle rating (``theme``: one of
    ordering_up, bidding, discard, march_defence, leading_trump, bowers, last_tricks, play)."""
    if theme and theme not in PuzzleTheme.values:
        raise NotFound("no_such_theme")
    found = selectors.puzzle_next(
        user=request.user, theme=theme, pick=random.randrange(selectors.NEAREST)
    )
    if found is None:
        raise NotFound("no_puzzle_left")
    return _puzzle(found)


@router.post(
    "/puzzles/{int:puzzle_id}/answer",
    auth=PLAY,
    tags=["puzzles"],
    openapi_extra=answers(PuzzleAnswer, 400, 404, 409),
)
def puzzle_answer(request, puzzle_id: Id, payload: AnswerIn):
    """Answer a puzzle (once): whether it was the best play, the answer, every option's value
    (points of the hand, or chances to win the match), the rest of the hand after the answer
    with every card known, the account's puzzle rating before and after, and the source
    match's id (null unless both its players let puzzles name them)."""
    if not Puzzle.objects.filter(pk=puzzle_id, match__status=MatchStatus.FINISHED).exists():
        raise NotFound("no_such_puzzle")
    puzzle, attempt = services.puzzle_answer(
        user=request.user, puzzle_id=puzzle_id, action=payload.action
    )
    match = selectors.puzzle_source(puzzle=puzzle)
    return {
        "id": puzzle.pk,
        "correct": attempt.correct,
        "answer": puzzle.answer,
        "values": {a: v for a, v in puzzle.options},
        "graded": puzzle.graded,
        "line": puzzle.line,
        "rating": {"before": attempt.before, "after": attempt.after},
        # The source, only if both its players let puzzles name them (their settings).
        "match_id": puzzle.match_id if selectors.puzzle_names_allowed(match=match) else None,
    }
