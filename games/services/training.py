"""Training on one's own mistakes: each player's flagged decisions kept by theme (their weak
spots, written with the analysis), and the puzzle streak.

A streak is a run of puzzles of rising rating until the first miss (lichess's Puzzle Streak):
each answer is checked here, never by the page, and is unrated (neither rating moves), but is
an attempt like any other, so that a puzzle seen in a streak is never shown again, there or
elsewhere. The puzzle on the table is the streak row's own: an answer to any other (a page
kept from before, gone back to) is refused and changes nothing, and a reload shows the same
puzzle, so a run can neither skip a puzzle nor try one twice.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from ..bots import puzzles as mining
from ..bots.analysis import Decision, Line, Option
from ..errors import Conflict, NotFound
from ..models import (
    FlaggedDecision,
    Match,
    MatchAnalysis,
    MatchStatus,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleStreak,
)
from ..rating import INITIAL
from .puzzles import people, puzzles_mine, streak_next


def flagged_record(*, match: Match, moves: list[tuple[int, str]], decisions: list[Decision]) -> int:
    """Keep the flagged decisions of an analysed match by player and theme (a person's only);
    those kept before are replaced (a newer analysis). Returns how many are kept."""
    persons = people(match)
    rows = [
        FlaggedDecision(
            user_id=(match.player0_id, match.player1_id)[f.seat],
            match=match,
            index=f.index,
            theme=f.theme,
            loss=f.loss,
            flag=f.flag,
        )
        for f in mining.flagged(int(match.seed), match.rules, moves, decisions)
        if persons[f.seat]
    ]
    with transaction.atomic():
        FlaggedDecision.objects.filter(match=match).delete()
        FlaggedDecision.objects.bulk_create(rows)
    return len(rows)


def decisions_from(result: dict) -> list[Decision]:
    """A stored analysis's decisions, as ``analysis.analyse`` returned them."""
    return [
        Decision(
            index=d["index"],
            hand=d["hand"],
            seat=d["seat"],
            chosen=d["chosen"],
            options=tuple(Option(**o) for o in d["options"]),
            graded=d.get("graded", "points"),
            chance=d.get("chance", 0.5),
            lines=tuple(
                Line(x["after"], tuple(map(tuple, x["moves"])), x["tricks"], x["points"])
                for x in d.get("lines") or ()
            ),
            reason=tuple(d["reason"]) if d.get("reason") else None,
            samples=d.get("samples", 0),
        )
        for d in result.get("decisions", [])
    ]


def training_backfill() -> int:
    """The weak spots and private puzzles of matches analysed before they existed (no flagged
    decision kept, no private puzzle): read from each stored analysis. Returns how many
    matches it read. Run again, it reads only those that have still none."""
    kept = FlaggedDecision.objects.values("match_id")
    done = 0
    analyses = MatchAnalysis.objects.filter(match__status=MatchStatus.FINISHED).exclude(
        match_id__in=kept
    )
    for row in analyses.select_related("match").iterator():
        match = row.match
        moves = list(match.moves.order_by("seq").values_list("seat", "action"))
        decisions = decisions_from(row.result)
        with transaction.atomic():
            flagged_record(match=match, moves=moves, decisions=decisions)
            puzzles_mine(match=match, moves=moves, decisions=decisions)
        done += 1
    return done


# The streak.


def streak_start(*, user) -> PuzzleStreak:
    """Start a run: its first puzzle, the easiest the player has not tried. Refuses while a
    run is going (its puzzle would be skipped) and when no puzzle is left."""
    with transaction.atomic():
        streak, _created = PuzzleStreak.objects.select_for_update().get_or_create(user=user)
        if streak.puzzle_id is not None:
            raise Conflict("streak_going")
        streak.current, streak.floor_rating, streak.floor_id, streak.missed = 0, None, None, None
        streak.puzzle = streak_next(user, streak)
        if streak.puzzle is None:
            raise NotFound("no_puzzle_left")
        streak.runs += 1
        streak.save()
    return streak


def streak_answer(*, user, puzzle_id: int, action: str) -> tuple[PuzzleStreak, PuzzleAttempt]:
    """Answer the run's puzzle on the table: right, the run goes on with the next (harder)
    one, or ends complete when none is left; wrong, it ends, and the best stays the longest
    run. Refuses an answer to any other puzzle (none going, or one answered already) and an
    action that is not one of the puzzle's options; refused, nothing changes."""
    try:
        with transaction.atomic():
            streak = PuzzleStreak.objects.select_for_update().filter(user=user).first()
            if streak is None or streak.puzzle_id is None:
                raise Conflict("no_streak_going")
            if streak.puzzle_id != puzzle_id:
                raise Conflict("streak_moved_on")
            puzzle = streak.puzzle
            if action not in {a for a, _value in puzzle.options}:
                raise Conflict("not_an_option")
            mine = PuzzleRating.objects.filter(user=user).values_list("value", flat=True).first()
            correct = action == puzzle.answer
            value = mine if mine is not None else INITIAL
            attempt = PuzzleAttempt.objects.create(
                user=user,
                puzzle=puzzle,
                chosen=action,
                correct=correct,
                before=value,
                after=value,
                rated=False,
            )
            if correct:
                streak.current += 1
                streak.best = max(streak.best, streak.current)
                streak.floor_rating, streak.floor_id = puzzle.rating, puzzle.pk
                streak.puzzle = streak_next(user, streak)
            else:
                streak.missed, streak.puzzle = puzzle, None
            streak.save()
    except IntegrityError:
        raise Conflict("puzzle_answered") from None  # tried before, meanwhile (another tab)
    return streak, attempt
