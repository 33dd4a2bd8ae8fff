"""The lobby: open a match, play the computer, find an opponent, and challenges."""

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
from ...models import Computer, DeclineReason, is_guest
from ...presentation import refusals
from ..forms import ComputerMatchForm, FindOpponentForm, MatchCreateForm
from .common import base_url, go_to, player_or_404, safe_target
from .players import profile_page


def _lobby_context(
    request: HttpRequest,
    form: MatchCreateForm | None = None,
    computer_form: ComputerMatchForm | None = None,
) -> dict:
    context = selectors.lobby_lists(user=request.user)
    guest = is_guest(request.user)
    context.update(
        {
            # A guest plays casual matches only: its form starts so (a rated one is refused).
            "form": form or MatchCreateForm(initial={"rated": False} if guest else None),
            "computer_form": computer_form or ComputerMatchForm(prefix="computer"),
            "find_form": FindOpponentForm(prefix="find"),
            "strengths": Computer.choices,
            "base_url": base_url(request),
            # A form refused: its section is open, so the player sees why.
            "more_open": bool(form or computer_form),
        }
    )
    return context


@login_required
@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby.html", _lobby_context(request))


@login_required
@require_POST
def match_create(request: HttpRequest) -> HttpResponse:
    form = MatchCreateForm(request.POST)
    if not form.is_valid():
        return render(request, "lobby.html", _lobby_context(request, form), status=400)
    try:
        match = services.match_create(user=request.user, **form.cleaned_data)
    except services.GameError as error:
        form.add_error(None, refusals.words(error))
        context = _lobby_context(request, form)
        return render(request, "lobby.html", context, status=refusals.status(error))
    return redirect("match_detail", match_id=match.pk)


@login_required
@require_POST
def match_create_computer(request: HttpRequest) -> HttpResponse:
    form = ComputerMatchForm(request.POST, prefix="computer")
    if not form.is_valid():
        context = _lobby_context(request, computer_form=form)
        return render(request, "lobby.html", context, status=400)
    try:
        match = services.match_create_computer(user=request.user, **form.cleaned_data)
    except services.GameError as error:
        form.add_error(None, refusals.words(error))
        context = _lobby_context(request, computer_form=form)
        return render(request, "lobby.html", context, status=refusals.status(error))
    return redirect("match_detail", match_id=match.pk)


@login_required
@require_POST
def match_find(request: HttpRequest) -> HttpResponse:
    """The quick pairing: join the oldest compatible open match, or open one."""
    form = FindOpponentForm(request.POST, prefix="find")
    if not form.is_valid():
        return render(request, "lobby.html", _lobby_context(request), status=400)
    match = services.match_find(user=request.user, **form.cleaned_data)
    return go_to(request, match)  # from the end of a match too ("New opponent", with htmx)


@login_required
@require_POST
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    form = MatchCreateForm(request.POST, prefix="challenge")
    if not form.is_valid():
        return profile_page(request, player, form, status=400)
    try:
        services.challenge_create(user=request.user, challenged=player, **form.cleaned_data)
    except services.GameError as error:
        messages.error(request, refusals.words(error))
        return profile_page(request, player, form, status=refusals.status(error))
    messages.success(
        request,
        _("Challenge sent to %(player)s: you will go to the match when they accept.")
        % {"player": player.username},
    )
    # From the list of the players one follows, back to it.
    profile = reverse("profile", args=[player.username])
    return redirect(safe_target(request, request.POST.get("next", ""), profile))


def _challenge_refused(request: HttpRequest, error: services.GameError) -> HttpResponse:
    context = {"title": _("Challenge"), "message": refusals.words(error)}
    return render(request, "error.html", context, status=refusals.status(error))


@login_required
@require_POST
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        match = services.challenge_accept(user=request.user, challenge_id=challenge_id)
    except services.GameError as error:
        return _challenge_refused(request, error)
    return go_to(request, match)


@login_required
@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Decline a challenge, with the reason chosen if any (or withdraw one's own); back to
    the page it was answered on."""
    reason = request.POST.get("reason") or DeclineReason.GENERIC
    try:
        services.challenge_decline(user=request.user, challenge_id=challenge_id, reason=reason)
    except services.GameError as error:
        return _challenge_refused(request, error)
    return redirect(safe_target(request, request.POST.get("next", ""), reverse("lobby")))
