"""Following players and blocking them: the list of those one follows (online now, a challenge
away), and the buttons of a profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db import selectors
from ...presentation import refusals
from ..forms import quick_challenge
from .common import player_or_404, safe_target


def following_context(user) -> dict:
    return {"rows": selectors.following(user=user), **quick_challenge()}


@login_required
@require_safe
def following(request: HttpRequest) -> HttpResponse:
    """The players I follow, those online first, each with Challenge; and those I blocked.
    htmx asks again for the list every minute (the page's socket brings arrivals at once)."""
    context = following_context(request.user)
    if request.htmx:
        return render(request, "following.html#list", context)
    context["blocked"] = selectors.blocked_players(user=request.user)
    return render(request, "following.html", context)


def _back(request: HttpRequest, player) -> HttpResponse:
    default = reverse("profile", args=[player.username])
    return redirect(safe_target(request, request.POST.get("next", ""), default))


def _refused(request: HttpRequest, error: services.GameError) -> HttpResponse:
    context = {"title": _("Players you follow"), "message": refusals.words(error)}
    return render(request, "error.html", context, status=refusals.status(error))


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    """Follow a player; again, to be told (or no longer) when they open a match."""
    player = player_or_404(username)
    notify = request.POST.get("notify") == "on"
    try:
        services.follow_create(user=request.user, followed=player, notify=notify)
    except services.GameError as error:
        return _refused(request, error)
    if "notify" not in request.POST:
        messages.success(request, _("You follow %(player)s.") % {"player": player.username})
    return _back(request, player)


@login_required
@require_POST
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    services.follow_delete(user=request.user, followed=player)
    messages.success(request, _("You no longer follow %(player)s.") % {"player": player.username})
    return _back(request, player)


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    try:
        services.block_create(user=request.user, blocked_player=player)
    except services.GameError as error:
        return _refused(request, error)
    messages.success(
        request,
        _(
            "You blocked %(player)s: they can no longer challenge you, follow you "
            "or join your matches."
        )
        % {"player": player.username},
    )
    return _back(request, player)


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    services.block_delete(user=request.user, blocked_player=player)
    messages.success(request, _("You unblocked %(player)s.") % {"player": player.username})
    return _back(request, player)
