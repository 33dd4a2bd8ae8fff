"""Puzzles: mined from each analysed match by the task worker, answered by players.

A puzzle is a decision where one option was clearly best (``games.bots.puzzles``). Each answer
is a rated game between the player and the puzzle (``games.rating``'s Elo: solving it is a
win for the player, missing it a win for the puzzle); a player answers each puzzle once.
A visitor who is not logged in may answer too: checked, stored nowhere, and told nothing (the
web asks them to log in), so an answer is never read before the one that counts is given.
A puzzle that a newer analysis or a full count of the opponent's hands no longer finds is
retired (``puzzles_confirm``): shown nowhere again, answered no more, its answers and the
ratings they moved kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from .. import rating
from ..bots import puzzles as mining
from ..bots.analysis import Decision
from ..engine import Rules
from ..errors import Conflict, NotFound
from ..models import (
    Match,
    MatchStatus,
    Puzzle,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleStreak,
    is_bot,
    is_computer,
)


def people(match: Match) -> tuple[bool, bool]:
    """Whether each seat is a person's (not the computer's, not a bot account's): whose
    flagged decisions are kept and may become their private puzzles."""

    def person(player) -> bool:
        return player is not None and not is_computer(player) and not is_bot(player)

    return person(match.player0), person(match.player1) and not match.computer


def puzzles_found(
    *, match: Match, moves: list[tuple[int, str]], decisions: list[Decision]
) -> list[mining.Found]:
    """The puzzles an analysed match holds (pure work, a confirming count included: up to a
    second), to be found before a transaction and stored by ``puzzles_mine``."""
    rules: Rules = match.rules
    return mining.mine(int(match.seed), rules, moves, decisions, people(match))


def puzzles_mine(
    *,
    match: Match,
    moves: list[tuple[int, str]],
    decisions: list[Decision],
    found: list[mining.Found] | None = None,
) -> int:
    """Store the puzzles of an analysed match (``found``, else found here), a person's own
    flagged decisions among them as their private puzzles; returns how many it has now (not
    retired). Mined again (a newer analysis), a stored puzzle found again takes the new values
    and keeps its answers, and one no longer found is retired (``_settle``); a retired one is
    not made again."""
    if found is None:
        found = puzzles_found(match=match, moves=moves, decisions=decisions)
    by_index = {f.index: f for f in found}
    with transaction.atomic():
        stored = {p.index: p for p in Puzzle.objects.select_for_update().filter(match=match)}
        Puzzle.objects.bulk_create(
            [_new(match, f) for index, f in by_index.items() if index not in stored],
            ignore_conflicts=True,  # another worker's, meanwhile
        )
        for index, puzzle in stored.items():
            if puzzle.retired_at is None:
                _settle(puzzle, by_index.get(index))
    return Puzzle.objects.filter(match=match, retired_at=None).count()


def _new(match: Match, f: mining.Found) -> Puzzle:
    return Puzzle(match=match, index=f.index, seat=f.seat, answer=f.answer, **_values(f))


def _values(f: mining.Found) -> dict:
    """What a puzzle stores of its mining that may change when it is checked again."""
    return {
        "theme": f.theme,
        "graded": f.graded,
        "margin": f.margin,
        "options": [list(o) for o in f.options],
        "line": [list(m) for m in f.line],
        "reason": list(f.reason),
        "private": f.private,
    }


def _settle(puzzle: Puzzle, found: mining.Found | None) -> str:
    """A stored puzzle (locked) against what mining it again found at its move: "retired"
    when that is no puzzle, or one with another answer, or only a private one where it was
    everyone's (it failed the bar it was shown by); else "updated" to the new values (its
    answer and its answers unchanged), or "unchanged"."""
    if found is None or found.answer != puzzle.answer or (found.private and not puzzle.private):
        _retire(puzzle)
        return "retired"
    values = _values(found)
    if all(getattr(puzzle, name) == value for name, value in values.items()):
        return "unchanged"
    Puzzle.objects.filter(pk=puzzle.pk).update(**values)
    return "updated"


def _retire(puzzle: Puzzle) -> None:
    """Retire a puzzle: a streak that has it on the table moves on to the next."""
    Puzzle.objects.filter(pk=puzzle.pk).update(retired_at=timezone.now())
    for streak in PuzzleStreak.objects.select_for_update().filter(puzzle=puzzle):
        streak.puzzle = streak_next(streak.user, streak)
        streak.save(update_fields=["puzzle"])


@dataclass(frozen=True)
class Confirmed:
    """What ``puzzles_confirm`` did, puzzle by puzzle."""

    checked: int = 0  # counted in full: each of these is one of the next three
    retired: int = 0
    updated: int = 0  # confirmed, with the full count's values
    unchanged: int = 0  # confirmed, its values already the full count's
    left: int = 0  # too many opponent hands to count in full: left as they were


def puzzles_confirm() -> Confirmed:
    """Check every stored puzzle (not retired, of a match that counts) again with a full count
    of the opponent's hands where they are few enough (``games.bots.puzzles.recheck``):
    retire those it does not confirm, store the full count's values in those it does. The
    count (a quarter of a second a puzzle) runs outside any transaction; run again, it changes
    nothing."""
    counts = dict.fromkeys(("checked", "retired", "updated", "unchanged", "left"), 0)
    kept = Puzzle.objects.filter(retired_at=None, match__status=MatchStatus.FINISHED)
    matches = Match.objects.filter(pk__in=kept.values("match_id")).select_related(
        "player0", "player1"
    )
    for match in matches.order_by("pk").iterator():
        moves = list(match.moves.order_by("seq").values_list("seat", "action"))
        persons = people(match)
        for pk, index in kept.filter(match=match).order_by("index").values_list("pk", "index"):
            exact, found = mining.recheck(int(match.seed), match.rules, moves, index, persons)
            if not exact:
                counts["left"] += 1
                continue
            with transaction.atomic():
                puzzle = Puzzle.objects.select_for_update().filter(pk=pk, retired_at=None).first()
                if puzzle is None:
                    continue  # retired meanwhile (a newer analysis)
                counts[_settle(puzzle, found)] += 1
                counts["checked"] += 1
    return Confirmed(**counts)


def streak_candidates(user):
    """Puzzles a streak may show ``user``: of matches that still count, not retired, not
    another player's private ones, not tried before (in a streak or not)."""
    own = Q(seat=0, match__player0=user) | Q(seat=1, match__player1=user)
    return (
        Puzzle.objects.filter(match__status=MatchStatus.FINISHED, retired_at=None)
        .filter(Q(private=False) | own)
        .exclude(tries__user=user)
    )


def streak_next(user, streak: PuzzleStreak) -> Puzzle | None:
    """The easiest puzzle rated above the last one solved (the rating, then the id): each is
    at least as hard as the one before."""
    found = streak_candidates(user)
    if streak.floor_rating is not None:
        rating, pk = streak.floor_rating, streak.floor_id
        found = found.filter(Q(rating__gt=rating) | Q(rating=rating, pk__gt=pk))
    return found.order_by("rating", "pk").first()


def puzzle_answer(*, user, puzzle_id: int, action: str) -> tuple[Puzzle, PuzzleAttempt | None]:
    """``user``'s answer to a puzzle: the attempt (whether it is the answer) with both ratings
    moved, or None for a visitor not logged in (nothing stored, nothing told). Refuses a
    puzzle that does not exist or is retired, an action that is not one of its options, and a
    second answer to the same puzzle."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise NotFound("no_such_puzzle")
    if puzzle.retired_at is not None:
        raise NotFound("puzzle_retired")
    if action not in {a for a, _value in puzzle.options}:
        raise Conflict("not_an_option")
    if not user.is_authenticated:
        return puzzle, None
    if PuzzleStreak.objects.filter(user=user, puzzle=puzzle).exists():
        raise Conflict("in_your_streak")  # answered there, unrated, or it would be skipped
    correct = action == puzzle.answer
    try:
        with transaction.atomic():
            puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
            if puzzle.retired_at is not None:
                raise NotFound("puzzle_retired")  # meanwhile
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
