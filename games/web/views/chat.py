"""Table talk: say a quick message or a line at a match, mute the opponent there, report a
line. Thin: the services say who may; the line reaches every page (the sender's too) over
its socket, so an htmx post is answered with nothing but a refusal's words."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ... import services
from ...db import selectors
from ...models import CHAT_LENGTH, ChatRoom, is_guest
from ...presentation import refusals
from ...presentation.chat import PHRASE_WORDS, chat_items
from ...services import throttle
from .common import safe_target


def _answer(request: HttpRequest, match_id: int, said: str = "", error=None) -> HttpResponse:
    """htmx: the chat's status line (a refusal in words, or what was done); a plain form:
    back to the match page, with the words as a message."""
    words = refusals.words(error) if error is not None else said
    if request.htmx:
        status = refusals.status(error) if isinstance(error, services.GameError) else 200
        if isinstance(error, throttle.Throttled):
            status = 429
        context = {"words": words, "error": error is not None}
        return HttpResponse(render_to_string("partials/chat_status.html", context), status=status)
    if error is not None:
        messages.error(request, words)
    elif words:
        messages.success(request, words)
    return redirect(safe_target(request, request.POST.get("back", ""), f"/matches/{match_id}/"))


@login_required
@require_POST
def chat_say(request: HttpRequest, match_id: int) -> HttpResponse:
    """A quick message (``phrase``) or a line of free chat (``text``), in the room ``room``."""
    try:
        services.chat_say(
            user=request.user, match_id=match_id, phrase=request.POST.get("phrase", ""),
            text=request.POST.get("text", ""), room=request.POST.get("room") or None,
        )  # fmt: skip
    except (services.GameError, throttle.Throttled) as error:
        return _answer(request, match_id, error=error)
    return _answer(request, match_id)


@login_required
@require_POST
def chat_mute(request: HttpRequest, match_id: int) -> HttpResponse:
    """Mute the opponent for this match (``muted=0``: hear them again)."""
    muted = request.POST.get("muted", "1") != "0"
    try:
        services.chat_mute(user=request.user, match_id=match_id, muted=muted)
    except services.GameError as error:
        return _answer(request, match_id, error=error)
    said = _("Muted for this match.") if muted else _("You hear them again.")
    response = _answer(request, match_id, said)
    if request.htmx:
        response["HX-Refresh"] = "true"  # the page again, with or without their lines
    return response


@login_required
@require_POST
def chat_report(request: HttpRequest, line_id: int) -> HttpResponse:
    """Report a line of chat to the moderators."""
    match_id = int(request.POST.get("match", 0) or 0)
    try:
        services.chat_report(reporter=request.user, line_id=line_id)
    except services.GameError as error:
        return _answer(request, match_id, error=error)
    return _answer(request, match_id, _("Thank you: a moderator will look at your report."))


def chat_context(request: HttpRequest, match) -> dict:
    """The match page's chat (``match``: its ``PublicMatch``): the room its viewer talks in
    (None: no chat, against the computer or for a guest watching), the lines they read, and
    their choices."""
    user = request.user
    if not user.is_authenticated:
        return {"chat_room": None}
    seat = match.seat_of(user)
    opponent = match.names[seat ^ 1] if seat is not None else ""
    if seat is not None:
        alone = match.computer or match.player_ids[seat ^ 1] is None
        room = None if alone else ChatRoom.PLAYERS
    else:
        room = None if is_guest(user) else ChatRoom.SPECTATORS
    lines = selectors.chat_lines(match, user)
    return {
        "chat_room": room,
        "chat_lines": chat_items(lines, user),
        "chat_after": lines[-1].pk if lines else 0,
        "chat_phrases": [(code, PHRASE_WORDS[code]) for code in services.PHRASES],
        "chat_free": selectors.reads_free_chat(user),
        "chat_length": CHAT_LENGTH,
        "chat_opponent": opponent,
        "chat_muted": bool(opponent) and selectors.chat_muted(match, user),
        "chat_sound": selectors.chat_sound_on(user=user),
    }
