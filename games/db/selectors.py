"""Reads shaped for pages."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest, Least, TruncDate
from django.utils import timezone

from ..models import (
    Challenge,
    Connection,
    EndReason,
    Match,
    MatchAnalysis,
    MatchStatus,
    PlayerRating,
    PlayerSettings,
    RatingChange,
    WorkerBeat,
)


def open_matches(*, exclude_user=None) -> QuerySet[Match]:
    matches = Match.objects.filter(status=MatchStatus.OPEN).select_related("player0__settings")
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
# Every board rendered shows presence, and a move renders several: each process remembers a
# match's presence briefly. A connect or disconnect anywhere is broadcast to every process,
# which forgets it at once (forget_presence); the expiry covers servers that died silently,
# whose sockets count as present until PRESENCE_TIMEOUT anyway. Under load (500 matches, a move
# every 2 s each) 5 s of memory meant a presence query about every other move.
PRESENCE_MEMORY_SECONDS = 15.0


@dataclass(frozen=True)
class Presence:
    """Who is at a match: its players with a live socket on it, and how many other sockets
    watch it (counted no further than a match's cap on sockets)."""

    players: frozenset[int] = frozenset()
    watching: int = 0


_presence: dict[int, tuple[float, Presence]] = {}


def presence(*, match_ids: list[int]) -> dict[int, Presence]:
    """Each match's presence, in at most one query for all those this process does not
    remember (heartbeats refresh the sockets' rows every few seconds)."""
    now = time.monotonic()
    found: dict[int, Presence] = {}
    for match_id in match_ids:
        remembered = _presence.get(match_id)
        if remembered and remembered[0] > now:
            found[match_id] = remembered[1]
    missing = [match_id for match_id in match_ids if match_id not in found]
    if not missing:
        return found
    since = timezone.now() - PRESENCE_TIMEOUT
    rows = Connection.objects.filter(match_id__in=missing, seen_at__gte=since).values_list(
        "match_id", "user_id", "match__player0_id", "match__player1_id"
    )
    players: dict[int, set[int]] = {match_id: set() for match_id in missing}
    watching = dict.fromkeys(missing, 0)
    for match_id, user_id, player0, player1 in rows:
        if user_id in (player0, player1):
            players[match_id].add(user_id)
        else:
            watching[match_id] += 1
    if len(_presence) > 10_000:
        _presence.clear()
    for match_id in missing:
        here = Presence(
            frozenset(players[match_id]), min(watching[match_id], settings.SOCKETS_PER_MATCH)
        )
        _presence[match_id] = (now + PRESENCE_MEMORY_SECONDS, here)
        found[match_id] = here
    return found


def match_versions(*, match_ids: set[int]) -> dict[int, int]:
    """Each match's version now, by id (cheaper than the matches)."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def live_workers() -> int:
    """Task workers that wrote their heartbeat lately."""
    since = timezone.now() - timedelta(seconds=settings.WORKER_DEAD_AFTER_SECONDS)
    return WorkerBeat.objects.filter(seen_at__gte=since).count()


# A page that opens within this long of the player's challenge being accepted is taken to the
# match (its socket was not open to hear the push: the page was loading).
JUST_STARTED = timedelta(seconds=15)


def match_just_started(*, user) -> int | None:
    """The match a challenge of ``user``'s started moments ago and that they have not opened
    yet (no socket of theirs on it), or None."""
    since = timezone.now() - JUST_STARTED
    accepted = Challenge.objects.filter(
        challenger=user,
        status=Challenge.Status.ACCEPTED,
        answered_at__gte=since,
        match__status=MatchStatus.ACTIVE,
    ).exclude(match__connections__user=user)
    return accepted.values_list("match_id", flat=True).first()


def forget_presence(match_id: int) -> None:
    _presence.pop(match_id, None)


def _rated_today():
    """Rated matches that started in the last 24 hours and still count."""
    since = timezone.now() - timedelta(hours=24)
    statuses = (MatchStatus.ACTIVE, MatchStatus.FINISHED)
    return Match.objects.filter(rated=True, status__in=statuses, started_at__gte=since)


def rated_today_capped(*, user, other) -> bool:
    """Whether ``user`` and ``other`` have played as many rated matches with each other in the
    last 24 hours as may count (settings.RATED_MATCHES_PER_PAIR_PER_DAY): their next is casual."""
    between = Q(player0=user, player1=other) | Q(player0=other, player1=user)
    return _rated_today().filter(between).count() >= settings.RATED_MATCHES_PER_PAIR_PER_DAY


def rated_today_capped_opponents(*, user) -> set[int]:
    """The ids of the players with whom ``user``'s next match would be casual."""
    mine = _rated_today().filter(Q(player0=user) | Q(player1=user))
    counts: dict[int, int] = {}
    for pair in mine.values_list("player0_id", "player1_id"):
        other = pair[1] if pair[0] == user.pk else pair[0]
        counts[other] = counts.get(other, 0) + 1
    return {pk for pk, n in counts.items() if n >= settings.RATED_MATCHES_PER_PAIR_PER_DAY}


def suspicious_pairs() -> list[tuple[int, int, object]]:
    """(player, player, day) where two accounts finished as many rated matches with each other
    in one day as may count (or more, before the cap), most of them resigned: rating farming."""
    groups = (
        Match.objects.filter(rated=True, status=MatchStatus.FINISHED, player1__isnull=False)
        .annotate(a=Least("player0", "player1"), b=Greatest("player0", "player1"))
        .annotate(day=TruncDate("started_at"))
        .values("a", "b", "day")
        .annotate(played=Count("pk"), resigned=Count("pk", filter=Q(end_reason=EndReason.RESIGNED)))
        .filter(played__gte=settings.RATED_MATCHES_PER_PAIR_PER_DAY)
    )
    return [(g["a"], g["b"], g["day"]) for g in groups if g["resigned"] * 2 > g["played"]]


LOBBY_OPEN_MATCHES = 50


def lobby_lists(*, user) -> dict:
    return {**lobby_open(exclude_user=user), **lobby_mine(user=user)}


def lobby_mine(*, user) -> dict:
    """The lobby's lists of the player's own matches."""
    return {"my_open": list(my_open_matches(user=user)), "my_active": my_active_matches(user=user)}


def lobby_open(*, exclude_user=None) -> dict:
    """The lobby's lists every player shares: matches waiting for an opponent, and matches in
    play that others may watch. For one player (``exclude_user``): without their own open
    matches, and with whom a match would be casual for them."""
    return {
        "open_matches": list(open_matches(exclude_user=exclude_user)[:LOBBY_OPEN_MATCHES]),
        "casual_with": rated_today_capped_opponents(user=exclude_user) if exclude_user else set(),
        "watch_matches": watch_matches(),
    }


LOBBY_WATCH_MATCHES = 20


def watch_matches() -> list[dict]:
    """Matches in play that allow spectators, the latest started first: players, score, deck."""
    matches = (
        Match.objects.filter(status=MatchStatus.ACTIVE, spectators_allowed=True)
        .select_related("player0", "player1")
        .order_by("-started_at", "-pk")[:LOBBY_WATCH_MATCHES]
    )
    return [
        {"match": match, "scores": match.snapshot["scores"] if match.snapshot else [0, 0]}
        for match in matches
    ]


# A challenger hears for this long that their challenge was declined or lapsed.
CHALLENGE_ANSWER_SHOWN = timedelta(minutes=1)


def pending_challenges(*, user) -> dict:
    """The challenges waiting for this player's answer, those they are waiting on, and their
    own that were just declined or lapsed."""
    now = timezone.now()
    challenges = Challenge.objects.select_related("challenger__settings", "challenged")
    pending = challenges.filter(status=Challenge.Status.PENDING, until__gt=now)
    refused = challenges.filter(
        challenger=user,
        status__in=(Challenge.Status.DECLINED, Challenge.Status.LAPSED),
        answered_at__gte=now - CHALLENGE_ANSWER_SHOWN,
    )
    return {
        "challenges_to_me": list(pending.filter(challenged=user)[:10]),
        "challenges_from_me": list(pending.filter(challenger=user)[:10]),
        "challenges_refused": list(refused[:5]),
    }


LEADERBOARD_MIN_MATCHES = 5


def leaderboard(*, limit: int = 100, bots: bool = False) -> list[PlayerRating]:
    """Players with at least 5 rated matches, best first, each with ``won`` and ``last_played``;
    people and bot accounts (``bots``) are ranked apart."""
    mine = RatingChange.objects.filter(player=OuterRef("user"))
    wins = (
        mine.filter(match__winner=OuterRef("user"))
        .values("player")
        .annotate(n=Count("pk"))
        .values("n")
    )
    last = mine.order_by("-created_at").values("created_at")[:1]
    ranked = PlayerRating.objects.filter(rated_matches__gte=LEADERBOARD_MIN_MATCHES)
    bot_users = PlayerSettings.objects.filter(bot=True).values("user")
    ranked = ranked.filter(user__in=bot_users) if bots else ranked.exclude(user__in=bot_users)
    rows = (
        ranked.select_related("user__settings")
        .annotate(won=Coalesce(Subquery(wins), 0), last_played=Subquery(last))
        .order_by("-value", "user__username")[:limit]
    )
    for row in rows:
        row.lost = row.rated_matches - row.won
    return list(rows)


HISTORY_PAGE_SIZE = 20


def match_history(
    *, user, opponent: str = "", result: str = "", kind: str = "", page: int = 1
) -> tuple[list[dict], bool]:
    """The user's finished matches, newest first, as rows for the history page; and whether
    there is a further page."""
    # Voided and called-off matches stay in the history, marked (open ones called off before
    # anybody joined had no opponent: they are left out).
    ended = (MatchStatus.FINISHED, MatchStatus.VOIDED, MatchStatus.ABORTED)
    matches = Match.objects.filter(
        Q(player0=user) | Q(player1=user), status__in=ended, player1__isnull=False
    )
    if opponent:
        matches = matches.filter(
            Q(player0__username__iexact=opponent) | Q(player1__username__iexact=opponent)
        )
    if result == "won":
        matches = matches.filter(winner=user, status=MatchStatus.FINISHED)
    elif result == "lost":
        matches = matches.exclude(winner=user).filter(status=MatchStatus.FINISHED)
    if kind in ("rated", "casual"):
        matches = matches.filter(rated=kind == "rated")
    mine = RatingChange.objects.filter(player=user)
    matches = (
        matches.select_related("player0__settings", "player1__settings")
        .prefetch_related(Prefetch("rating_changes", queryset=mine, to_attr="my_changes"))
        .order_by("-finished_at", "-pk")
    )
    start = (page - 1) * HISTORY_PAGE_SIZE
    chunk = list(matches[start : start + HISTORY_PAGE_SIZE + 1])
    rows = []
    for match in chunk[:HISTORY_PAGE_SIZE]:
        seat = match.seat_of(user)
        scores = match.snapshot["scores"] if match.snapshot else [0, 0]
        change = match.my_changes[0].delta if match.my_changes else None
        rows.append(
            {
                "match": match,
                "opponent": match.players[seat ^ 1],
                "score": (scores[seat], scores[seat ^ 1]),
                "won": match.winner_id == user.pk,
                "change": change,
            }
        )
    return rows, len(chunk) > HISTORY_PAGE_SIZE


def rating_history(*, user) -> list[int]:
    """The user's rating after each rated match, oldest first, starting from the initial one."""
    changes = RatingChange.objects.filter(player=user).order_by("created_at", "pk")
    afters = list(changes.values_list("after", flat=True))
    first = changes.values_list("before", flat=True).first()
    return [first, *afters] if afters else []


def table_look(*, user) -> dict:
    """The player's theme and whether they play with the four-colour deck."""
    found = PlayerSettings.objects.filter(user=user).values("theme", "four_colour").first()
    return found or {"theme": "auto", "four_colour": False}


def sound_on(*, user) -> bool:
    """The player's choice of a sound on their turn (off unless they turned it on)."""
    return PlayerSettings.objects.filter(user=user, sound=True).exists()


def match_analysis(*, match: Match) -> dict | None:
    """The stored analysis of a finished match; None while it is being worked out, and always
    None for a match that is not finished (the analysis names every card of both hands)."""
    if match.status != MatchStatus.FINISHED:
        return None
    return MatchAnalysis.objects.filter(match=match).values_list("result", flat=True).first()


def is_bot(user) -> bool:
    """Whether ``user`` is a bot account. Reads the player's settings unless they came with
    the user (``select_related("...__settings")``), and remembers the answer on the user."""
    if user is None or not getattr(user, "pk", None):
        return False
    try:
        return bool(user.settings.bot)
    except ObjectDoesNotExist:
        return False


def bots_may_challenge(user) -> bool:
    return PlayerSettings.objects.filter(user=user, bot_challenges=True).exists()


def bot_ids(*, user_ids) -> set[int]:
    """Which of these users are bot accounts, in one query."""
    rows = PlayerSettings.objects.filter(user_id__in=set(user_ids), bot=True)
    return set(rows.values_list("user_id", flat=True))


def has_matches(*, user) -> bool:
    """Whether ``user`` has ever played, joined or opened a match (a bot account is made only
    of a fresh one: services.player_bot_set)."""
    return Match.objects.filter(Q(player0=user) | Q(player1=user) | Q(created_by=user)).exists()
