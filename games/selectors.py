"""Reads shaped for pages."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import Connection, Match, MatchStatus, PlayerRating


def open_matches(*, exclude_user=None) -> QuerySet[Match]:
    matches = Match.objects.filter(status=MatchStatus.OPEN).select_related("player0")
    if exclude_user is not None:
        matches = matches.exclude(player0=exclude_user)
    return matches.order_by("-created_at")


def my_open_matches(*, user) -> QuerySet[Match]:
    return Match.objects.filter(status=MatchStatus.OPEN, player0=user).order_by("-created_at")


def my_active_matches(*, user) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(player0=user) | Q(player1=user), status=MatchStatus.ACTIVE)
        .select_related("player0", "player1")
        .order_by("-started_at")
    )


def record(*, user) -> dict[str, int]:
    """Finished matches won and lost (aborted and voided ones do not count)."""
    finished = Match.objects.filter(Q(player0=user) | Q(player1=user), status=MatchStatus.FINISHED)
    won = finished.filter(winner=user).count()
    return {"played": finished.count(), "won": won, "lost": finished.count() - won}


def user_by_name(username: str):
    return get_user_model().objects.filter(username=username).first()


def rating_of(*, user) -> PlayerRating:
    """The player's rating; one who has never played a rated match has the initial one."""
    return PlayerRating.objects.filter(user=user).first() or PlayerRating(user=user)


PRESENCE_TIMEOUT = timedelta(seconds=45)


def present_user_ids(*, match_id: int) -> set[int]:
    """Users with a live socket on the match (heartbeats refresh it every few seconds)."""
    since = timezone.now() - PRESENCE_TIMEOUT
    rows = Connection.objects.filter(match_id=match_id, seen_at__gte=since)
    return set(rows.values_list("user_id", flat=True))


def lobby_lists(*, user) -> dict:
    return {
        "open_matches": open_matches(exclude_user=user)[:50],
        "my_open": my_open_matches(user=user),
        "my_active": my_active_matches(user=user),
    }
