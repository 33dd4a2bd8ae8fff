"""Challenges: waiting ones, making, accepting and declining them."""

from __future__ import annotations

from django.http import Http404
from ninja import Router
from pydantic import BaseModel, Field

from ... import services
from ...db import selectors
from ...models import DeclineReason
from ...web.forms import MatchCreateForm
from ..feeds import challenge
from ..schemas import Challenge, ChallengeAnswered, Challenges, MatchAndView, answers
from .common import PLAY, READ, ChallengeIn, Id, answer, checked, form_data

router = Router()


@router.get("/challenges", auth=READ, tags=["challenges"], openapi_extra=answers(Challenges))
def challenges(request):
    """Challenges waiting for the player's answer, and theirs waiting for others'."""
    pending = selectors.pending_challenges(user=request.user)
    return {
        "incoming": [challenge(c) for c in pending["challenges_to_me"]],
        "outgoing": [challenge(c) for c in pending["challenges_from_me"]],
    }


@router.post(
    "/challenges",
    auth=PLAY,
    tags=["challenges"],
    openapi_extra=answers(Challenge, 400, 403, 404, 409),
)
def challenge_create(request, payload: ChallengeIn):
    """Challenge a player by name, with the options of a match."""
    challenged = selectors.user_by_name(payload.username)
    if challenged is None:
        raise Http404
    data = form_data(payload)
    data.pop("username")
    options = checked(MatchCreateForm(data))
    row = services.challenge_create(user=request.user, challenged=challenged, **options)
    return challenge(row)


@router.post(
    "/challenges/{int:challenge_id}/accept",
    auth=PLAY,
    tags=["challenges"],
    openapi_extra=answers(MatchAndView, 403, 404, 409),
)
def challenge_accept(request, challenge_id: Id):
    """Accept a challenge: the match starts."""
    match = services.challenge_accept(user=request.user, challenge_id=challenge_id)
    return answer(match, request.user)


class DeclineIn(BaseModel):  # not a ninja Schema: a body that is not an object is refused
    reason: str = Field(
        DeclineReason.GENERIC.value,
        description="Why the challenge is declined (ignored when withdrawing one's own)",
        json_schema_extra={"enum": list(DeclineReason.values)},
    )


@router.post(
    "/challenges/{int:challenge_id}/decline",
    auth=PLAY,
    tags=["challenges"],
    openapi_extra=answers(ChallengeAnswered, 400, 403, 404, 409),
)
def challenge_decline(request, challenge_id: Id, payload: DeclineIn | None = None):
    """Decline a challenge, optionally saying why (``{"reason": "too_fast"}``; ``generic``
    if not), or withdraw one's own."""
    reason = payload.reason if payload is not None else DeclineReason.GENERIC
    row = services.challenge_decline(user=request.user, challenge_id=challenge_id, reason=reason)
    return {**challenge(row), "status": row.status, "decline_reason": row.decline_reason or None}
