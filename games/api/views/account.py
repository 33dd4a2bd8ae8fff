"""The account (its settings for bots too), ratings, history, and the bots online."""

from __future__ import annotations

from typing import Literal

from django.http import Http404
from ninja import Router, Schema

from ... import services
from ...db import selectors
from ...public import shapes
from ..schemas import Account, BotSettings, BotsOnline, History, Leaderboard, PublicPlayer, answers
from .common import PLAY, READ

router = Router()


@router.get("/account", auth=READ, tags=["account"], openapi_extra=answers(Account))
def account(request):
    """The token's player: name, bot or not, rating, record, and the token's scopes."""
    user = request.user
    return {
        **shapes.player(user),
        "rating": _rating(user),
        "record": selectors.record(user=user),
        "bot_challenges": selectors.bots_may_challenge(user),
        "scopes": request.api_token.scope_list,
    }


@router.post(
    "/account/bot", auth=PLAY, tags=["account"], openapi_extra=answers(BotSettings, 403, 409)
)
def bot_set(request):
    """Make this account a bot account, for good (as the settings page's button): only an
    account that has never played may (else 409 ``bot_has_matches``). A bot account plays
    only through the API and is ranked on the bots' leaderboard."""
    services.player_bot_set(user=request.user)
    return _bot_settings(request.user)


class BotChallengesIn(Schema):
    allowed: bool


@router.post(
    "/account/bot-challenges",
    auth=PLAY,
    tags=["account"],
    openapi_extra=answers(BotSettings, 400, 403),
)
def bot_challenges_set(request, payload: BotChallengesIn):
    """Whether bot accounts may challenge this player (``{"allowed": true}``; off until
    turned on), as the settings page's box "Bots may challenge me"."""
    services.player_bot_challenges_set(user=request.user, allowed=payload.allowed)
    return _bot_settings(request.user)


def _bot_settings(user) -> dict:
    return {**shapes.player(user), "bot_challenges": selectors.bots_may_challenge(user)}


def _rating(user) -> dict:
    rating = selectors.rating_of(user=user)
    return {
        "value": rating.value, "rated_matches": rating.rated_matches,
        "display": rating.display, "history": selectors.rating_history(user=user),
    }  # fmt: skip


@router.get("/account/history", auth=READ, tags=["account"], openapi_extra=answers(History))
def history(
    request,
    page: int = 1,
    opponent: str = "",
    result: Literal["", "won", "lost"] = "",
    kind: Literal["", "rated", "casual"] = "",
):
    """The player's ended matches, newest first, 20 a page: all of them, or those ``won`` or
    ``lost``, ``rated`` or ``casual``, against an ``opponent`` whose name has these letters."""
    page = min(max(1, page), 100_000)
    rows, more = selectors.match_history(
        user=request.user, page=page, opponent=opponent.replace("\x00", "")[:150],
        result=result, kind=kind,
    )  # fmt: skip
    return {
        "matches": [
            {**_match(row["match"]), "won": row["won"], "rating_change": row["change"]}
            for row in rows
        ],
        "next_page": page + 1 if more else None,
    }


def _match(match) -> dict:
    return shapes.match_public(shapes.public(match), match.state)


@router.get(
    "/users/{username}", auth=READ, tags=["account"], openapi_extra=answers(PublicPlayer, 404)
)
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


@router.get("/leaderboard", auth=READ, tags=["account"], openapi_extra=answers(Leaderboard))
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


@router.get("/bots/online", auth=READ, tags=["account"], openapi_extra=answers(BotsOnline))
def bots_online(request):
    """Bot accounts with an API stream or socket open now, best rated first (at most 200):
    their rating, and whom they take challenges from (people always; bots if they let them)."""
    return {
        "bots": [
            {
                **shapes.player(row.user),
                "rating": row.rating.value,
                "display": row.rating.display,
                "rated_matches": row.rating.rated_matches,
                "challenges_from": {"people": row.from_people, "bots": row.from_bots},
            }
            for row in selectors.bots_online()
        ]
    }
