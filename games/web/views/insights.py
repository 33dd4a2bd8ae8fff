"""A player's insights: their figures over their finished matches beside their rating band's
(their own always; another player's only if that player allows it), and the setting."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db import selectors
from ...errors import NotAllowed
from ...presentation import insights as words
from ...presentation import refusals
from ...public.insights import MINIMUM
from ..forms_insights import insights_filters
from .common import player_or_404


@login_required
@require_safe
def insights(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    if not selectors.insights_visible(viewer=request.user, player=player):
        refused = NotAllowed("insights_private")
        context = {"title": _("These insights are private"), "message": refusals.words(refused)}
        return render(request, "error.html", context, status=403)
    filters, form = insights_filters(request.GET)
    if filters is None:
        context = {
            "title": _("These filters cannot be read"),
            "message": _("Choose the filters from the lists on the insights page."),
        }
        return render(request, "error.html", context, status=400)
    found = selectors.insights(player=player, filters=filters)
    context = {
        "player": player,
        "own": player.pk == request.user.pk,
        "form": form,
        "insights": found,
        "minimum": MINIMUM,
        **words.page(found),
    }
    return render(request, "insights.html", context)


@login_required
@require_POST
def insights_public_set(request: HttpRequest) -> HttpResponse:
    services.insights_public_set(user=request.user, allowed=request.POST.get("allowed") == "yes")
    messages.success(request, _("Saved."))
    return redirect("settings")
