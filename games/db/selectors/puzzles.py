"""Reads of puzzles: the next one for a player, the day's puzzle, a player's answers."""

from __future__ import annotations

import datetime
import hashlib

from django.db.models import F, Func, Q
from django.utils import timezone

from ... import rating
from ...models import (
    Match,
    MatchStatus,
    PlayerSettings,
    Puzzle,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleStreak,
)

NEAREST = 10  # the next puzzle is one of the ten rated nearest the player


def _playable():
    """Puzzles of matches that still count (a voided match's are not shown), not retired."""
    return _counted().filter(retired_at=None)


def _counted():
    return Puzzle.objects.filter(match__status=MatchStatus.FINISHED)


def own(user) -> Q:
    """Puzzles of ``user``'s own decisions: the seat they sat in, in their own matches."""
    return Q(seat=0, match__player0=user) | Q(seat=1, match__player1=user)


def puzzles_for(user, *, retired: bool = False):
    """The puzzles ``user`` may be shown: everyone's, and their own private ones (a private
    puzzle is its player's only); ``retired``: the retired ones too (only by id)."""
    found = _counted() if retired else _playable()
    if not user.is_authenticated:
        return found.filter(private=False)
    return found.filter(Q(private=False) | own(user))


def puzzle_visible(*, user, puzzle_id: int) -> Puzzle | None:
    """The puzzle if ``user`` may see it, retired or not (None: no such puzzle, for them):
    the page says which."""
    return puzzles_for(user, retired=True).filter(pk=puzzle_id).first()


def puzzle_rating_of(*, user) -> PuzzleRating | None:
    if not user.is_authenticated:
        return None
    return PuzzleRating.objects.filter(user=user).first()


def puzzle_next(
    *, user, theme: str = "", skip: tuple[int, ...] = (), pick: int = 0, mine_first: bool = False
) -> Puzzle | None:
    """A puzzle ``user`` has not tried (nor one of ``skip``: a guest's, from the session),
    of ``theme`` if given, among the ``NEAREST`` rated nearest the player's puzzle rating;
    ``pick`` chooses which of them (the caller's random number). ``mine_first``: one of the
    player's own decisions while any is left (their weak spots' puzzles), then everyone's."""
    found = puzzles_for(user).exclude(pk__in=skip)
    if user.is_authenticated:
        on_the_streak = PuzzleStreak.objects.filter(user=user, puzzle__isnull=False)
        on_the_streak = on_the_streak.values("puzzle_id")
        found = found.exclude(tries__user=user).exclude(pk__in=on_the_streak)
    if theme:
        found = found.filter(theme=theme)
    if mine_first and user.is_authenticated and found.filter(own(user)).exists():
        found = found.filter(own(user))
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
    public = _playable().filter(private=False)
    ids = list(public.filter(created_at__lt=start).order_by("pk").values_list("pk", flat=True))
    if not ids:
        return public.order_by("created_at", "pk").first()
    digest = hashlib.blake2b(f"daily-puzzle:{today.isoformat()}".encode(), digest_size=8)
    return Puzzle.objects.get(pk=ids[int.from_bytes(digest.digest(), "big") % len(ids)])


def puzzle_attempt(*, user, puzzle: Puzzle) -> PuzzleAttempt | None:
    if not user.is_authenticated:
        return None
    return PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()


def puzzle_rating_history(*, user) -> list[tuple[int, datetime.datetime]]:
    """The player's puzzle rating after each answer, and when, oldest first (the profile's
    chart)."""
    rows = PuzzleAttempt.objects.filter(user=user, rated=True).order_by("created_at", "pk")
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
