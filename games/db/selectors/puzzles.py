"""Reads of puzzles: the next one for a player, the day's puzzle, a player's answers."""

from __future__ import annotations

import datetime
import hashlib

from django.db.models import F, Func
from django.utils import timezone

from ... import rating
from ...models import Match, MatchStatus, PlayerSettings, Puzzle, PuzzleAttempt, PuzzleRating

NEAREST = 10  # the next puzzle is one of the ten rated nearest the player


def _playable():
    """Puzzles of matches that still count (a voided match's are not shown)."""
    return Puzzle.objects.filter(match__status=MatchStatus.FINISHED)


def puzzle_rating_of(*, user) -> PuzzleRating | None:
    if not user.is_authenticated:
        return None
    return PuzzleRating.objects.filter(user=user).first()


def puzzle_next(
    *, user, theme: str = "", skip: tuple[int, ...] = (), pick: int = 0
) -> Puzzle | None:
    """A puzzle ``user`` has not tried (nor one of ``skip``: a guest's, from the session),
    of ``theme`` if given, among the ``NEAREST`` rated nearest the player's puzzle rating;
    ``pick`` chooses which of them (the caller's random number)."""
    found = _playable().exclude(pk__in=skip)
    if user.is_authenticated:
        found = found.exclude(tries__user=user)
    if theme:
        found = found.filter(theme=theme)
    mine = puzzle_rating_of(user=user)
    value = mine.value if mine else rating.INITIAL
    distance = Func(F("rating") - value, function="ABS")
    nearest = list(found.annotate(distance=distance).order_by("distance", "pk")[:NEAREST])
    return nearest[pick % len(nearest)] if nearest else None


def puzzle_daily(*, today: datetime.date | None = None) -> Puzzle | None:
    """The day's puzzle: the same for everyone all day, one of those that existed when the
    day began (the site's time zone), chosen by the date. On a site whose first puzzles were
    found today, the first of them: puzzles found later in the day change nothing."""
    today = today or timezone.localdate()
    start = timezone.make_aware(datetime.datetime.combine(today, datetime.time()))
    ids = list(_playable().filter(created_at__lt=start).order_by("pk").values_list("pk", flat=True))
    if not ids:
        return _playable().order_by("created_at", "pk").first()
    digest = hashlib.blake2b(f"daily-puzzle:{today.isoformat()}".encode(), digest_size=8)
    return Puzzle.objects.get(pk=ids[int.from_bytes(digest.digest(), "big") % len(ids)])


def puzzle_attempt(*, user, puzzle: Puzzle) -> PuzzleAttempt | None:
    if not user.is_authenticated:
        return None
    return PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()


def puzzle_rating_history(*, user) -> list[tuple[int, datetime.datetime]]:
    """The player's puzzle rating after each answer, and when, oldest first (the profile's
    chart)."""
    rows = PuzzleAttempt.objects.filter(user=user).order_by("created_at", "pk")
    return list(rows.values_list("after", "created_at"))


def puzzle_source(*, puzzle: Puzzle) -> Match:
    return Match.objects.select_related("player0", "player1").get(pk=puzzle.match_id)


def puzzle_names_allowed(*, match: Match) -> bool:
    """Whether both players of a puzzle's match let it name them (their settings)."""
    players = {match.player0_id, match.player1_id}
    allowed = PlayerSettings.objects.filter(user_id__in=players, puzzle_names=True).count()
    return allowed == len(players)


def puzzle_names_mine(*, user) -> bool:
    return PlayerSettings.objects.filter(user=user, puzzle_names=True).exists()
