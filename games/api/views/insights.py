"""A player's insights: the same figures as their insights page, as JSON."""

from __future__ import annotations

from django.http import Http404
from ninja import Router

from ...db import selectors
from ...errors import NotAllowed
from ...public.insights import insights_json
from ...web.forms_insights import insights_filters
from ..errors import form_errors
from ..schemas import Insights, answers
from .common import READ, FormRefused

router = Router()


@router.get(
    "/users/{username}/insights",
    auth=READ,
    tags=["account"],
    openapi_extra=answers(Insights, 403, 404),
)
def insights(
    request,
    username: str,
    period: str = "all",
    rated: str = "all",
    opponent: str = "all",
    deck: str = "",
    target: str = "",
):
    """A player's insights (the token's player's own, or another's who lets others see them):
    points a hand as maker and defender, dealing or not; each bid by the trumps held and how
    it ended; euchres and marches; accuracy over time; seconds a decision; each beside the
    players rated within 100. ``period``: 30, 90, 365 (days) or all; ``rated``: all, rated,
    casual; ``opponent``: all, people, computer; ``deck``: 24, 25, 32; ``target``: 5, 7, 10,
    11. A figure from too few hands (``minimum``) has the value null."""
    player = selectors.user_by_name(username)
    if player is None:
        raise Http404
    if not selectors.insights_visible(viewer=request.user, player=player):
        raise NotAllowed("insights_private")
    query = {"period": period, "rated": rated, "opponent": opponent, "deck": deck, "target": target}
    filters, form = insights_filters(query)
    if filters is None:
        raise FormRefused(form_errors(form.errors))
    return insights_json(selectors.insights(player=player, filters=filters))
