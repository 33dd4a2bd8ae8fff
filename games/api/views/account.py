"""The account, ratings and history."""

from __future__ import annotations

from django.http import Http404
from ninja import Router

from ...db import selectors
from .. import shapes
from .common import READ

router = Router()


@router.get("/account", auth=READ, tags=["account"])
def account(request):
    """The token's player: name, bot or not, rating, record, and the token's scopes."""
    user = request.user
    return {
        **shapes.player(user),
        "rating": _rating(user),
        "record": selectors.record(user=user),
        "scopes": request.api_token.scope_list,
    }


def _rating(user) -> dict:
    rating = selectors.rating_of(user=user)
    return {
        "value": rating.value, "rated_matches": rating.rated_matches,
        "display": rating.display, "history": selectors.rating_history(user=user),
    }  # fmt: skip


@router.get("/account/history", auth=READ, tags=["account"])
def history(request, page: int = 1, opponent: str = "", result: str = "", kind: str = ""):
    """The player's ended matches, newest first, 20 a page."""
    page = min(max(1, page), 100_000)
    rows, more = selectors.match_history(
        user=request.user, page=page, opponent=opponent.replace("\x00", "")[:150],
        result=result, kind=kind,
    )  # fmt: skip
    return {
        "matches": [
            {**shapes.match_public(row["match"]), "won": row["won"], "rating_change": row["change"]}
            for row in rows
        ],
        "next_page": page + 1 if more else None,
    }


@router.get("/users/{username}", auth=READ, tags=["account"])
def user(request, username: str):
    """Another player's public record: rating and results."""
    found = selectors.user_by_name(username)
    if found is None:
        raise Http404
    return {
        **shapes.player(found),
        "rating": _rating(found),
        "record": selectors.record(user=found),
    }


@router.get("/leaderboard", auth=READ, tags=["account"])
def leaderboard(request, bots: bool = False):
    """The leaderboard of people, or (``bots``) the bot accounts' own."""
    return {
        "players": [
            {
                **shapes.player(row.user),
                "rating": row.value,
                "display": row.display,
                "rated_matches": row.rated_matches,
                "won": row.won,
                "lost": row.lost,
            }
            for row in selectors.leaderboard(bots=bots)
        ]  # fmt: skip
    }
