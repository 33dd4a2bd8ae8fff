"""Arenas: the list (running, announced, finished) with the form to announce one, an arena's
page (time left, live standings, the player's matches, the podium, its chat), joining and
pausing, and the end of an arena match waiting for the next pairing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db import selectors
from ...presentation import refusals
from ..forms import ArenaForm
from .chat import arena_chat_context


def _arenas_page(request: HttpRequest, form: ArenaForm | None = None, status: int = 200):
    context = {
        **selectors.arenas_listed(),
        "may_create": services.may_create_arenas(request.user),
        "form": form or ArenaForm(),
        "form_open": form is not None,
    }
    return render(request, "arenas.html", context, status=status)


@login_required
@require_safe
def arenas(request: HttpRequest) -> HttpResponse:
    return _arenas_page(request)


@login_required
@require_POST
def arena_create(request: HttpRequest) -> HttpResponse:
    form = ArenaForm(request.POST)
    if not form.is_valid():
        return _arenas_page(request, form, status=400)
    data = form.cleaned_data
    try:
        arena = services.arena_create(user=request.user, **data)
    except services.GameError as error:
        messages.error(request, refusals.words(error))
        return _arenas_page(request, form, status=refusals.status(error))
    messages.success(request, _("Your arena is announced."))
    return redirect("arena", arena_id=arena.pk)


def _arena_or_404(arena_id: int):
    arena = selectors.arena_by_id(arena_id)
    if arena is None:
        raise Http404(_("There is no such arena."))
    return arena


@login_required
@require_safe
def arena(request: HttpRequest, arena_id: int) -> HttpResponse:
    """The arena's page; htmx asks for its live part again every few seconds (the page's own
    socket pushes it at once when it changes)."""
    arena = _arena_or_404(arena_id)
    live = selectors.arena_live(arena=arena, user=request.user)
    if request.htmx:
        return render(request, "arena.html#live", live)
    return render(request, "arena.html", {**live, **arena_chat_context(request, arena)})


def _act(request: HttpRequest, arena_id: int, act) -> HttpResponse:
    """Join or pause, then back to the arena; refused, its page again with the words why."""
    arena = _arena_or_404(arena_id)
    try:
        act()
    except services.GameError as error:
        messages.error(request, refusals.words(error))
        context = {
            **selectors.arena_live(arena=arena, user=request.user),
            **arena_chat_context(request, arena),
        }
        return render(request, "arena.html", context, status=refusals.status(error))
    return redirect("arena", arena_id=arena_id)


@login_required
@require_POST
def arena_join(request: HttpRequest, arena_id: int) -> HttpResponse:
    notify = request.POST.get("notify") == "on" if "notify" in request.POST else None
    return _act(
        request,
        arena_id,
        lambda: services.arena_join(user=request.user, arena_id=arena_id, notify=notify),
    )


@login_required
@require_POST
def arena_pause(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(
        request, arena_id, lambda: services.arena_pause(user=request.user, arena_id=arena_id)
    )


@login_required
@require_safe
def arena_next(request: HttpRequest, arena_id: int) -> HttpResponse:
    """At the end of an arena match: the next match, once the pairing has started it (the
    page goes there), or the wait: asked for only while the page's socket, which pushes it,
    is closed (static/js/challenges.js)."""
    live = selectors.arena_live(arena=_arena_or_404(arena_id), user=request.user)
    after = request.GET.get("after", "")
    return render(request, "arena.html#next", {**live, "after": after if after.isdigit() else ""})
