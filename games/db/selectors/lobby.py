"""The lobby's lists: open matches, matches to watch, the player's own, and challenges."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from ...models import Challenge, Match, MatchStatus
from .arenas import arenas_soon, arenas_started_for
from .follows import followed_seeks
from .limits import rated_today_capped_opponents
from .matches import my_active_matches, my_open_matches, my_turn_matches, open_matches

LOBBY_OPEN_MATCHES = 50


def lobby_lists(*, user) -> dict:
    return {
        **lobby_open(exclude_user=user),
        **lobby_mine(user=user),
        "arenas_soon": arenas_soon(),
    }


def lobby_mine(*, user) -> dict:
    """The lobby's lists of the player's own matches: those waiting for their move, those in
    play, and their open ones."""
    return {
        # The least time left first (each match has its own days a move).
        "my_turn": sorted(my_turn_matches(user=user)[:MY_TURN_SHOWN], key=lambda m: m.deadline),
        "my_open": list(my_open_matches(user=user)),
        "my_active": my_active_matches(user=user),
    }


MY_TURN_SHOWN = 20


def lobby_open(*, exclude_user=None) -> dict:
    """The lobby's lists every player shares: matches waiting for an opponent, and matches in
    play that others may watch. For one player (``exclude_user``): without their own open
    matches, and with whom a match would be casual for them."""
    return {
        "open_matches": list(open_matches(exclude_user=exclude_user)[:LOBBY_OPEN_MATCHES]),
        "casual_with": rated_today_capped_opponents(user=exclude_user) if exclude_user else set(),
        "watch_matches": watch_matches(exclude_user=exclude_user),
    }


LOBBY_WATCH_MATCHES = 20


def watch_matches(*, exclude_user=None) -> list[dict]:
    """Matches in play that allow spectators, the latest started first: players, score, deck.
    For one player (``exclude_user``): without their own (theirs to play, not to watch)."""
    matches = Match.objects.filter(status=MatchStatus.ACTIVE, spectators_allowed=True)
    if exclude_user is not None:
        matches = matches.exclude(Q(player0=exclude_user) | Q(player1=exclude_user))
    matches = matches.select_related("player0", "player1").order_by("-started_at", "-pk")[
        :LOBBY_WATCH_MATCHES
    ]
    return [
        {"match": match, "scores": match.snapshot["scores"] if match.snapshot else [0, 0]}
        for match in matches
    ]


# A challenger hears for this long that their challenge was declined or lapsed.
CHALLENGE_ANSWER_SHOWN = timedelta(minutes=1)


def pending_challenges(*, user) -> dict:
    """The challenges waiting for this player's answer, those they are waiting on, their own
    that were just declined or lapsed, and the matches the players they follow just opened."""
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
        "seeks": followed_seeks(user=user),
        "arenas_started": arenas_started_for(user=user),
    }
