"""Table talk: say a quick message or a line at a match or in an arena, mute the opponent at
a match, report a line. Thin: the services say who may; the line reaches every page (the
sender's too) over its socket, so an htmx post is answered with nothing but a refusal's
words."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ... import services
from ...db import selectors
from ...models import CHAT_LENGTH, ChatRoom, is_deleted, is_guest
from ...presentation import refusals
from ...presentation.chat import PHRASE_WORDS, chat_items
from ...presentation.sentences import player_name
from ...services import throttle
from .common import safe_target


def _answer(
    request: HttpRequest, match_id: int, said: str = "", error=None, home: str = ""
) -> HttpResponse:
    """htmx: the chat's status line (a refusal in words, or what was done); a plain form:
    back to the match page (or ``home``), with the words as a message."""
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
    home = home or f"/matches/{match_id}/"
    return redirect(safe_target(request, request.POST.get("back", ""), home))


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
def chat_say_arena(request: HttpRequest, arena_id: int) -> HttpResponse:
    """A quick message (``phrase``) or a line of free chat (``text``) in the arena's chat."""
    home = reverse("arena", args=[arena_id])
    try:
        services.chat_say_arena(
            user=request.user, arena_id=arena_id, phrase=request.POST.get("phrase", ""),
            text=request.POST.get("text", ""),
        )  # fmt: skip
    except (services.GameError, throttle.Throttled) as error:
        return _answer(request, 0, error=error, home=home)
    return _answer(request, 0, home=home)


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
    arena_id = request.POST.get("arena", "")
    home = reverse("arena", args=[int(arena_id)]) if arena_id.isdigit() and not match_id else ""
    try:
        services.chat_report(reporter=request.user, line_id=line_id)
    except services.GameError as error:
        return _answer(request, match_id, error=error, home=home)
    thanks = _("Thank you: a moderator will look at your report.")
    return _answer(request, match_id, thanks, home=home)


def chat_context(request: HttpRequest, match) -> dict:
    """The match page's chat (``match``: its ``PublicMatch``): the room its viewer talks in
    (None: no chat, against the computer or for a guest watching), the lines they read, and
    their choices."""
    user = request.user
    if not user.is_authenticated:
        return {"chat_room": None}
    seat = match.seat_of(user)
    opponent = player_name(match.names[seat ^ 1]) if seat is not None else ""
    if seat is not None:
        left = is_deleted(match.names[seat ^ 1])  # a deleted account reads nothing
        alone = match.computer or match.player_ids[seat ^ 1] is None or left
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


def arena_chat_context(request: HttpRequest, arena) -> dict:
    """The arena page's chat: the lines its viewer reads (every account does), and whether
    they may say some (its players and the moderators), with their choices."""
    user = request.user
    lines = selectors.arena_chat_lines(arena.pk, user)
    return {
        "chat_arena": arena,
        "chat_room": ChatRoom.ARENA,
        "chat_say_url": reverse("chat_say_arena", args=[arena.pk]),
        "chat_may_say": selectors.may_talk_in_arena(arena.pk, user),
        "chat_lines": chat_items(lines, user),
        "chat_after": lines[-1].pk if lines else 0,
        "chat_phrases": [(code, PHRASE_WORDS[code]) for code in services.PHRASES],
        "chat_free": selectors.reads_free_chat(user),
        "chat_length": CHAT_LENGTH,
        "chat_sound": selectors.chat_sound_on(user=user),
    }
