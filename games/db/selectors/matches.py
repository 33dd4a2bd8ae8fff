"""Reads of matches: the open and active ones, versions, a player's history, a match's moves
and its stored analysis.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from ...errors import NotAllowed, NotFound
from ...models import Challenge, Match, MatchAnalysis, MatchStatus, RatingChange, RematchState
from .. import statements


def open_matches(*, exclude_user=None) -> QuerySet[Match]:
    matches = Match.objects.filter(status=MatchStatus.OPEN).select_related("player0__settings")
    if exclude_user is not None:
        matches = matches.exclude(player0=exclude_user)
    return matches.order_by("-created_at")


KEYS = range(1, 2**63)  # the ids a match may have (larger ones are no match's, not an error)


def match_for_viewer(*, match_id: int, user) -> Match:
    """The match ``user`` may see, read with its players as its public face needs them
    (``public.PLAYERS``): refused with ``NotFound("no_such_match")`` if there is none, and with
    ``NotAllowed("not_open_to_watch")`` while its players let nobody watch it and ``user``
    does not play in it. The one check every edge makes before it shows a match (the pages,
    the board's socket, the API and its streams), each wording the refusal its own way."""
    match = statements.MATCH_WITH_PLAYERS.first(match_id) if match_id in KEYS else None
    if match is None:
        raise NotFound("no_such_match")
    if match.closed_to(user):
        raise NotAllowed("not_open_to_watch")
    return match


def my_open_matches(*, user) -> QuerySet[Match]:
    return Match.objects.filter(status=MatchStatus.OPEN, player0=user).order_by("-created_at")


def my_active_matches(*, user) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(player0=user) | Q(player1=user), status=MatchStatus.ACTIVE)
        .select_related("player0", "player1")
        .order_by("-started_at")
    )


def my_turn_matches(*, user) -> QuerySet[Match]:
    """The player's correspondence matches waiting for their move, the one with least time
    left first. (A live match's turn is the player's at the table, and changes at every
    move: the header's count would flicker with it.)"""
    mine = Q(player0=user, snapshot__turn=0) | Q(player1=user, snapshot__turn=1)
    return (
        Match.objects.filter(mine, status=MatchStatus.ACTIVE, days_per_move__isnull=False)
        .select_related("player0", "player1")
        .order_by("turn_started_at", "pk")
    )


def my_rematch_offers(*, user) -> QuerySet[Match]:
    """The player's finished matches with a rematch offer standing (theirs or the
    opponent's), with the players the offer's event names."""
    return (
        Match.objects.filter(Q(player0=user) | Q(player1=user), rematch_state=RematchState.OFFERED)
        .select_related("player0", "player1")
        .order_by("pk")
    )


def match_versions(*, match_ids: set[int]) -> dict[int, int]:
    """Each match's version now, by id (cheaper than the matches)."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


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
    if "\x00" in opponent:  # no name holds one, and PostgreSQL refuses it in a query
        matches = matches.none()
    elif opponent:
        matches = matches.filter(
            Q(player0__username__iexact=opponent) | Q(player1__username__iexact=opponent)
        )
    if result == "won":
        matches = matches.filter(winner=user, status=MatchStatus.FINISHED)
    elif result == "lost":
        matches = matches.exclude(winner=user).filter(status=MatchStatus.FINISHED)
    if kind in ("rated", "casual"):
        matches = matches.filter(rated=kind == "rated")
    mine = RatingChange.objects.filter(player=user, refund=False)  # the match's own change
    every = RatingChange.objects.select_related("player")  # for their public face (the API's)
    matches = (
        matches.select_related("player0__settings", "player1__settings")
        .prefetch_related(
            Prefetch("rating_changes", queryset=mine, to_attr="my_changes"),
            Prefetch("rating_changes", queryset=every),
        )
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


def match_moves(*, match: Match) -> list[tuple[int, str]]:
    """A match's moves in order, as (seat, action)."""
    return list(match.moves.order_by("seq").values_list("seat", "action"))


def match_move_rows(*, match: Match) -> list[tuple[int, int, str, int]]:
    """A match's moves in order, as (seq, seat, action, version): its record's (export)."""
    return list(match.moves.order_by("seq").values_list("seq", "seat", "action", "version"))


def match_analysis(*, match: Match) -> dict | None:
    """The stored analysis of a finished match; None while it is being worked out, and always
    None for a match that is not finished (the analysis names every card of both hands)."""
    if match.status != MatchStatus.FINISHED:
        return None
    return MatchAnalysis.objects.filter(match=match).values_list("result", flat=True).first()


def has_matches(*, user) -> bool:
    """Whether ``user`` has ever played, joined or opened a match (a bot account is made only
    of a fresh one: services.player_bot_set)."""
    return Match.objects.filter(Q(player0=user) | Q(player1=user) | Q(created_by=user)).exists()
