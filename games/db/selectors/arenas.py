"""Arenas as pages show them: those announced and running, one arena's standings (with the
streak's flame and the performance that breaks ties), a player's matches in it, and the
arenas a player took part in."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from ...arena import on_fire, performance
from ...models import Arena, ArenaPlayer, Match, MatchStatus
from .fairplay import marked_players

LISTED_FINISHED = 10
MY_MATCHES_SHOWN = 20
SOON = timedelta(hours=24)


@dataclass(frozen=True)
class Standing:
    rank: int
    player: object
    score: int
    fire: bool  # the next win scores double
    wins: int
    losses: int
    performance: int
    paused: bool


def arenas_listed() -> dict:
    """Running arenas, those announced (the soonest first), and the latest finished."""
    arenas = Arena.objects.select_related("created_by")
    return {
        "running": list(arenas.filter(status=Arena.Status.RUNNING)),
        "upcoming": list(arenas.filter(status=Arena.Status.SCHEDULED)[:20]),
        "finished": list(
            arenas.filter(status=Arena.Status.FINISHED).order_by("-starts_at")[:LISTED_FINISHED]
        ),
    }


def arenas_soon() -> list[Arena]:
    """Arenas running, and those starting within a day: the lobby's and home page's news."""
    return list(
        Arena.objects.filter(
            Q(status=Arena.Status.RUNNING)
            | Q(status=Arena.Status.SCHEDULED, starts_at__lte=timezone.now() + SOON)
        )[:5]
    )


def arena_by_id(arena_id: int) -> Arena | None:
    return Arena.objects.select_related("created_by").filter(pk=arena_id).first()


def arena_standings(*, arena: Arena) -> list[Standing]:
    """Score first, then performance (removed players are not ranked)."""
    entries = ArenaPlayer.objects.filter(arena=arena, removed=False).select_related("user")
    rows = [
        (entry, performance(entry.opponents_rating, entry.wins + entry.losses, entry.wins))
        for entry in entries
    ]
    rows.sort(key=lambda r: (-r[0].score, -r[1], r[0].user.username.casefold()))
    return [
        Standing(
            rank=i,
            player=entry.user,
            score=entry.score,
            fire=on_fire(entry.streak),
            wins=entry.wins,
            losses=entry.losses,
            performance=perf,
            paused=entry.paused,
        )  # fmt: skip
        for i, (entry, perf) in enumerate(rows, start=1)
    ]


def live_in_play() -> QuerySet[Match]:
    """Matches in play on a live clock (of an arena, the lobby or the computer): each keeps
    its players out of every arena's pairing. A correspondence match, a move a day, does
    not."""
    return Match.objects.filter(status=MatchStatus.ACTIVE, days_per_move__isnull=True)


def _podium(arena: Arena, standings: list[Standing]) -> list[Standing]:
    """A finished arena's first three, leaving out players marked for fair play."""
    if arena.status != Arena.Status.FINISHED:
        return []
    marked = set(marked_players().filter(player__in=[s.player.pk for s in standings])
                 .values_list("player", flat=True))  # fmt: skip
    kept = [s for s in standings if s.player.pk not in marked][:3]
    return [replace(s, rank=i) for i, s in enumerate(kept, start=1)]


def arena_live(*, arena: Arena, user) -> dict:
    """What the arena's page shows and its pushes renew: the arena, the standings, the
    viewer's entry and matches in it, the match they are to go to, if one just began, and
    the one that keeps them from the pairing (``holding``: in play elsewhere)."""
    entry = ArenaPlayer.objects.filter(arena=arena, user=user).first() if user else None
    mine = (
        list(
            Match.objects.filter(Q(player0=user) | Q(player1=user), arena=arena)
            .select_related("player0", "player1", "winner")
            .order_by("-started_at")[:MY_MATCHES_SHOWN]
        )
        if entry
        else []
    )
    # The latest started first: a match in play, if any, is the first.
    playing = next((m for m in mine if m.status == MatchStatus.ACTIVE), None)
    holding = None
    if entry and playing is None and arena.status == Arena.Status.RUNNING:
        holding = (
            live_in_play()
            .filter(Q(player0=user) | Q(player1=user))
            .exclude(arena=arena)
            .select_related("player0", "player1")
            .order_by("-started_at")
            .first()
        )
    standings = arena_standings(arena=arena)
    return {
        "arena": arena,
        "standings": standings,
        "podium": _podium(arena, standings),
        "entry": entry,
        "my_matches": mine,
        "playing": playing,
        "holding": holding,
        "now": timezone.now(),
    }


def arenas_of(*, user) -> list[ArenaPlayer]:
    """The arenas ``user`` played in, the latest first, with their score."""
    return list(
        ArenaPlayer.objects.filter(user=user, removed=False)
        .exclude(arena__status=Arena.Status.CANCELLED)
        .select_related("arena")
        .order_by("-arena__starts_at")[:20]
    )


# The banner says an arena the player joined has started for this long, until they are paired.
STARTED_SHOWN = timedelta(minutes=5)


def arenas_started_for(*, user) -> list[Arena]:
    """Arenas ``user`` joined (and did not pause) that started in the last few minutes and
    have not paired them yet: the banner's news on any page."""
    if user is None or not user.is_authenticated:
        return []
    now = timezone.now()
    joined = ArenaPlayer.objects.filter(user=user, paused=False, removed=False).values("arena")
    paired = Match.objects.filter(Q(player0=user) | Q(player1=user), arena__isnull=False)
    return list(
        Arena.objects.filter(
            pk__in=joined, status=Arena.Status.RUNNING, starts_at__gte=now - STARTED_SHOWN
        ).exclude(pk__in=paired.values("arena"))[:3]
    )
