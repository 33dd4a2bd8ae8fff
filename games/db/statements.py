"""The reads that run at every move or stream change, each compiled once per process
(``games.db.prepared``) and named here, in one registry: what the database is asked at every
move can be read in one place, and ``forget`` drops every compiled statement at once.

Each placeholder is a value none of the query's constants equals and that appears once in
its parameters (see ``Prepared``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import QuerySet

from .. import caches
from ..models import ApiToken, Match, Move
from ..public import PLAYERS
from .prepared import Prepared

STATEMENTS: dict[str, Prepared] = {}


def statement(name: str, build: Callable[..., QuerySet], *placeholders) -> Prepared:
    """Register the read ``name``, built by ``build(*placeholders)``."""
    if name in STATEMENTS:
        raise ValueError(f"a statement named {name!r} is registered already")
    STATEMENTS[name] = prepared = Prepared(build, *placeholders)
    return prepared


def forget() -> None:
    """Drop every compiled statement (they compile again at their next call): for a test that
    changes the database's settings."""
    for prepared in STATEMENTS.values():
        prepared.forget()


caches.register("prepared statements", forget)


def _match_with_players_locked(match_id) -> QuerySet:
    # The players come in the same query (the board answering the request needs them); only
    # the match row is locked, FOR NO KEY UPDATE: rows that refer to the match (a socket's
    # presence, an analysis) can be written meanwhile. With FOR UPDATE, a socket opening
    # (player locked, then its presence row refers to the match) and a rematch (match locked,
    # then the player) each waited for the other: PostgreSQL's deadlock.
    matches = Match.objects.select_for_update(of=("self",), no_key=True)
    players = ("player0", "player1", "player0__settings", "player1__settings")
    return matches.select_related(*players).filter(pk=match_id)[:1]


def _live_tokens(**where) -> QuerySet:
    live = ApiToken.objects.filter(revoked_at__isnull=True, user__is_active=True, **where)
    return live.order_by()  # one row by a unique key: no sort (the model's is by date)


# Every move: the match, locked, with its players (services.core).
MATCH_LOCKED = statement("match_locked", _match_with_players_locked, 2_147_400_001)
# A board's read of a match and its players' ratings and settings (realtime.tables: up to a
# few of these cost less CPU than one query for them all built afresh), and every edge's read
# of the match a viewer asks to see (selectors.match_for_viewer).
MATCH_WITH_PLAYERS = statement(
    "match_with_players",
    lambda pk: Match.objects.select_related(*PLAYERS).filter(pk=pk)[:1],
    2_147_400_007,
)
# An API stream's read of the moves a client missed since a version (api.feeds).
MOVES_BETWEEN = statement(
    "moves_between",
    lambda match_id, above, upto: Move.objects.filter(
        match_id=match_id, version__gt=above, version__lte=upto
    ).order_by("seq"),
    2_147_400_004, 2_147_400_005, 2_147_400_006,
)  # fmt: skip
# Every API request and every move over an API socket (api.auth): a live token.
TOKEN_BY_DIGEST = statement(
    "token_by_digest",
    lambda digest: _live_tokens(digest=digest).select_related("user", "user__settings")[:1],
    "\0digest",
)
TOKEN_BY_ID = statement("token_by_id", lambda pk: _live_tokens(pk=pk)[:1], 2_147_400_002)
