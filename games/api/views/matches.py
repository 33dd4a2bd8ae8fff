"""Matches: a match as anyone or its player sees it, opening one, moves, and a match's other
actions.
"""

from __future__ import annotations

from ninja import Router

from ... import services
from ...presentation import refusals
from ...public import shapes
from ...web.forms import ComputerMatchForm, MatchCreateForm
from ...web.moves import move_submit
from .. import errors
from ..schemas import MatchAndView, MatchWatched, answers
from .common import (
    PLAY,
    READ,
    ComputerIn,
    Id,
    MatchIn,
    MoveIn,
    answer,
    checked,
    form_data,
    match_or_refused,
)

router = Router()


@router.get(
    "/matches/{int:match_id}",
    auth=READ,
    tags=["matches"],
    openapi_extra=answers(MatchWatched, 403, 404),
)
def match_public(request, match_id: Id):
    """A match as anyone who may watch it sees it: the spectator's view (no hand, no stock,
    no seed until it is over)."""
    match = match_or_refused(request, match_id)
    state = match.state
    return {
        "match": shapes.match_public(shapes.public(match), state),
        "view": shapes.match_view(state, None),
    }


@router.get(
    "/matches/{int:match_id}/view",
    auth=READ,
    tags=["matches"],
    openapi_extra=answers(MatchAndView, 403, 404),
)
def match_view(request, match_id: Id):
    """The caller's own view of a match they play: their hand and what they may do
    (``view.legal_actions``) at ``match.version``."""
    match = match_or_refused(request, match_id)
    if match.seat_of(request.user) is None:
        raise services.NotAllowed("not_playing")
    return answer(match, request.user)


@router.post(
    "/matches", auth=PLAY, tags=["matches"], openapi_extra=answers(MatchAndView, 400, 403, 409)
)
def match_create(request, payload: MatchIn):
    """Open a match that waits for an opponent (as the lobby's form)."""
    options = checked(MatchCreateForm(form_data(payload)))
    return answer(services.match_create(user=request.user, **options), request.user)


@router.post(
    "/matches/computer",
    auth=PLAY,
    tags=["matches"],
    openapi_extra=answers(MatchAndView, 400, 403, 409),
)
def match_create_computer(request, payload: ComputerIn):
    """Play the computer (easy, medium or hard): the match starts at once, casual."""
    options = checked(ComputerMatchForm(form_data(payload)))
    return answer(services.match_create_computer(user=request.user, **options), request.user)


@router.post(
    "/matches/{int:match_id}/move",
    auth=PLAY,
    tags=["matches"],
    openapi_extra=answers(MatchAndView, 400, 403, 404, 409),
)
def move(request, match_id: Id, payload: MoveIn):
    """Make a move: ``{"action": "play:JH", "version": 12}``, the version being the match's
    as the move was chosen (a stale one is refused with ``stale``, 409, and ``state``: the
    caller's view as ``GET matches/<id>/view`` answers it)."""
    try:
        moved = move_submit(
            user=request.user, match_id=match_id, data=payload.dict(), way="api_post"
        )
    except services.Conflict as refused:
        if refused.code != "stale":
            raise
        # With the table as it is now (GET matches/<id>/view's answer): no second request.
        state = answer(match_or_refused(request, match_id), request.user)
        return errors.refused(refused, refusals.status(refused), state=state)
    return answer(moved.match, request.user)


def _match_action(service, name: str, doc: str, path: str = ""):
    def view(request, match_id: Id):
        return answer(service(user=request.user, match_id=match_id), request.user)

    view.__name__ = name
    view.__doc__ = doc
    router.post(
        f"/matches/{{int:match_id}}/{path or name}",
        auth=PLAY,
        tags=["matches"],
        openapi_extra=answers(MatchAndView, 400, 403, 404, 409),
    )(view)


_match_action(services.match_join, "join", "Take the free seat of an open match.")
_match_action(services.match_resign, "resign", "Give the match up.")
_match_action(services.match_claim, "claim", "Claim a match the opponent left (no clock).")
_match_action(services.match_abort, "abort", "Call a match off before both have acted.")

# A finished match played again, as its end screen's buttons: each answers the new match if
# one started, else the finished match, whose ``match.rematch`` says where the offer stands.
_match_action(
    services.rematch_offer, "rematch",
    """Offer to play a finished match again, with the same options and the first deal to
    the other player. Against the computer the new match starts at once (the answer); against
    a person the offer stands for two minutes (``match.rematch.until``) and both players'
    account streams hear it (``rematchOffer``); if the opponent had offered already, this
    accepts it. Refused: 403 ``not_playing``, ``match_blocked``, ``rematch_you_blocked``;
    409 ``rematch_only_finished``, ``rematch_offered`` (yours stands), ``rematch_declined``;
    429 past ``REMATCH_OFFERS_PER_10_MINUTES``.""",
)  # fmt: skip
_match_action(
    services.rematch_accept, "rematch_accept",
    """Accept the opponent's rematch offer: the new match (both players' account streams
    hear its ``matchStart``). Refused: 403 ``not_playing``, ``match_blocked``,
    ``rematch_you_blocked``; 409 ``no_rematch_offer`` (none, or it is yours),
    ``rematch_lapsed``.""",
    path="rematch/accept",
)  # fmt: skip
_match_action(
    services.rematch_decline, "rematch_decline",
    """Decline the opponent's rematch offer, or withdraw your own: the finished match, its
    ``match.rematch.state`` ``declined`` (or null: withdrawn). Refused: 403 ``not_playing``;
    409 ``no_rematch_to_answer``.""",
    path="rematch/decline",
)  # fmt: skip
