"""Who is at a match (its sockets), the bot accounts online, and the task workers alive."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.functions import Coalesce
from django.utils import timezone

from ...models import Connection, PlayerRating, WorkerBeat
from ...rating import INITIAL

PRESENCE_TIMEOUT = timedelta(seconds=45)


@dataclass(frozen=True)
class Presence:
    """Who is at a match: its players with a live socket on it, and how many other sockets
    watch it (counted no further than a match's cap on sockets)."""

    players: frozenset[int] = frozenset()
    watching: int = 0


def presence(*, match_ids: list[int]) -> dict[int, Presence]:
    """Each match's presence, in one query for them all (a server process's rooms remember
    it for the sockets they serve: ``games.realtime.room``)."""
    since = timezone.now() - PRESENCE_TIMEOUT
    rows = Connection.objects.filter(match_id__in=match_ids, seen_at__gte=since).values_list(
        "match_id", "user_id", "match__player0_id", "match__player1_id"
    )
    players: dict[int, set[int]] = {match_id: set() for match_id in match_ids}
    watching = dict.fromkeys(match_ids, 0)
    for match_id, user_id, player0, player1 in rows:
        if user_id in (player0, player1):
            players[match_id].add(user_id)
        else:
            watching[match_id] += 1
    cap = settings.SOCKETS_PER_MATCH
    return {
        match_id: Presence(frozenset(players[match_id]), min(watching[match_id], cap))
        for match_id in match_ids
    }


@dataclass(frozen=True)
class BotOnline:
    """A bot account with an API stream open, its rating, and whom it takes challenges from:
    people always (nothing refuses them), bots if it lets them (``bot_challenges``)."""

    user: object
    rating: PlayerRating
    from_bots: bool
    from_people: bool = True


def bots_online(*, limit: int = 200) -> list[BotOnline]:
    """Bot accounts with an API stream (http or websocket) open now, best rated first."""
    since = timezone.now() - PRESENCE_TIMEOUT
    streaming = Connection.objects.filter(kind=Connection.Kind.STREAM, seen_at__gte=since)
    users = (
        get_user_model()
        .objects.filter(settings__bot=True, is_active=True, pk__in=streaming.values("user"))
        .select_related("settings", "rating")
        .order_by(Coalesce("rating__value", INITIAL).desc(), "username")[:limit]
    )
    found = []
    for user in users:
        rating = getattr(user, "rating", None) or PlayerRating(user=user)  # never rated yet
        found.append(BotOnline(user, rating, from_bots=user.settings.bot_challenges))
    return found


def live_workers() -> int:
    """Task workers that wrote their heartbeat lately."""
    since = timezone.now() - timedelta(seconds=settings.WORKER_DEAD_AFTER_SECONDS)
    return WorkerBeat.objects.filter(seen_at__gte=since).count()
