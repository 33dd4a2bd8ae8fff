"""Challenges: waiting ones, making, accepting and declining them."""

from __future__ import annotations

from django.http import Http404
from ninja import Router

from ... import services
from ...db import selectors
from ...web.forms import MatchCreateForm
from ..feeds import challenge
from .common import PLAY, READ, ChallengeIn, Id, answer, checked, form_data

router = Router()


@router.get("/challenges", auth=READ, tags=["challenges"])
def challenges(request):
    """Challenges waiting for the player's answer, and theirs waiting for others'."""
    pending = selectors.pending_challenges(user=request.user)
    return {
        "incoming": [challenge(c) for c in pending["challenges_to_me"]],
        "outgoing": [challenge(c) for c in pending["challenges_from_me"]],
    }


@router.post("/challenges", auth=PLAY, tags=["challenges"])
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


@router.post("/challenges/{int:challenge_id}/accept", auth=PLAY, tags=["challenges"])
def challenge_accept(request, challenge_id: Id):
    """Accept a challenge: the match starts."""
    match = services.challenge_accept(user=request.user, challenge_id=challenge_id)
    return answer(match, request.user)


@router.post("/challenges/{int:challenge_id}/decline", auth=PLAY, tags=["challenges"])
def challenge_decline(request, challenge_id: Id):
    """Decline a challenge, or withdraw one's own."""
    row = services.challenge_decline(user=request.user, challenge_id=challenge_id)
    return {"id": row.pk, "status": row.status}
