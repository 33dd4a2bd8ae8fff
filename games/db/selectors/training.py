"""Reads of a player's training: their weak spots (flagged decisions by puzzle theme), their
results by theme, their puzzle streak."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q, Sum
from django.utils import timezone

from ...models import FlaggedDecision, PuzzleAttempt, PuzzleStreak
from .puzzles import own, puzzles_for


@dataclass(frozen=True)
class WeakSpot:
    theme: str
    count: int  # flagged decisions of the theme
    loss: float  # the points they lost, together
    own_puzzles: int  # puzzles of the player's own decisions of the theme, not tried yet


@dataclass(frozen=True)
class ThemeResult:
    theme: str
    attempts: int
    solved: int


def weak_spots(*, user) -> list[WeakSpot]:
    """The themes of ``user``'s flagged decisions, the most points lost first (then the most
    decisions, then the theme), each with its puzzles of the player's own left to try."""
    rows = (
        FlaggedDecision.objects.filter(user=user)
        .values("theme")
        .annotate(count=Count("pk"), loss=Sum("loss"))
    )
    left = dict(
        puzzles_for(user)
        .filter(own(user))
        .exclude(tries__user=user)
        .values("theme")
        .annotate(n=Count("pk"))
        .values_list("theme", "n")
    )
    spots = [
        WeakSpot(r["theme"], r["count"], round(r["loss"], 2), left.get(r["theme"], 0)) for r in rows
    ]
    return sorted(spots, key=lambda s: (-s.loss, -s.count, s.theme))


def theme_results(*, user, days: int | None = None) -> list[ThemeResult]:
    """``user``'s answers by puzzle theme (rated and in streaks), over the last ``days`` days
    if given; the most answered first."""
    found = PuzzleAttempt.objects.filter(user=user)
    if days is not None:
        found = found.filter(created_at__gte=timezone.now() - datetime.timedelta(days=days))
    rows = found.values("puzzle__theme").annotate(
        attempts=Count("pk"), solved=Count("pk", filter=Q(correct=True))
    )
    results = [ThemeResult(r["puzzle__theme"], r["attempts"], r["solved"]) for r in rows]
    return sorted(results, key=lambda r: (-r.attempts, r.theme))


def streak_of(*, user) -> PuzzleStreak | None:
    if not user.is_authenticated:
        return None
    return PuzzleStreak.objects.select_related("puzzle", "missed").filter(user=user).first()
