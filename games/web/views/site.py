"""The site's own pages: home, the rule book, the guided first hand, the players' help, the
health check, and the CSRF failure page.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...db import selectors
from ...engine import IllegalAction, Rules
from ...engine.rules import STUCK_FROM_DEAL
from ...errors import Conflict
from ...i18n.glossary import TERMS
from ...presentation import learn as learn_hand
from ...presentation import puzzles as puzzle_words
from ...presentation import refusals
from ...presentation.cards import Card
from ...presentation.jinja import LEARN_BOARD, render_board
from ...realtime.trace import layer_round_trip
from ...services import throttle
from ..forms import MatchCreateForm
from .common import client_key


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    daily = selectors.puzzle_daily()
    soon = selectors.arenas_soon()
    context = {"rules": Rules(), "daily": daily, "next_arena": soon[:1]}
    if daily is not None:
        context["daily_theme"] = puzzle_words.theme_words(daily.theme)
    return render(request, "home.html", context)


def _learn_names(request: HttpRequest) -> list[str]:
    player = request.user.username if request.user.is_authenticated else _("Newcomer")
    return [player, _("Computer")]


@require_http_methods(["GET", "HEAD", "POST"])
def learn(request: HttpRequest) -> HttpResponse:
    """The guided first hand: anyone, logged in or not, plays one fixed deal against the
    computer, each step explained (games/learn.py); the moves live in the session."""
    progress = request.session.get(learn_hand.SESSION_KEY) or learn_hand.start()
    error, status = "", 200
    try:
        learn_hand.state_of(progress)
    except (IllegalAction, KeyError, TypeError, ValueError):  # an old or broken session
        progress = learn_hand.start()
    if request.method == "POST":
        try:
            # Anyone may play it, so the moves are counted per address, like a player's.
            throttle.hit("learn", client_key(request), settings.MOVE_LIMIT_PER_10_SECONDS, 10)
            version = request.POST.get("version")
            if version is not None and version != str(len(progress["moves"])):
                raise Conflict("stale")  # a second click on a table already answered
            progress = learn_hand.play(progress, request.POST.get("action", ""))
        except throttle.Throttled as refusal:
            error, status = refusals.words(refusal), 429
        except Conflict as refusal:
            error, status = refusals.words(refusal), 409
        except IllegalAction as refusal:
            error, status = refusals.refusal_words(refusal), 400
        else:
            request.session[learn_hand.SESSION_KEY] = progress
            return redirect("learn")
    context = {**learn_hand.context(progress, _learn_names(request)), "error": error}
    context["guest_play"] = not request.user.is_authenticated  # its end: "Play now" as a guest
    context["board"] = render_board(context, request, LEARN_BOARD)
    return render(request, "learn.html", context, status=status)


@require_POST
def learn_restart(request: HttpRequest) -> HttpResponse:
    # Anyone may start again, and each start is a session row: counted per address.
    try:
        throttle.hit("learn-again", client_key(request), settings.LEARN_RESTARTS_PER_HOUR, 3600)
    except throttle.Throttled as refusal:
        context = {"title": _("Learn in one hand"), "message": refusals.words(refusal)}
        return render(request, "error.html", context, status=429)
    request.session[learn_hand.SESSION_KEY] = learn_hand.start()
    return redirect("learn")


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rule book (docs/RULES.md) in the reader's language, section by section, with the
    same card examples and the match options as the lobby's form offers them."""
    options = [
        {
            "label": field.label,
            "choices": [label for _value, label in getattr(field, "choices", ())],
            "help_text": field.help_text,
        }
        for field in MatchCreateForm().fields.values()
    ]
    context = {
        "rules": Rules(),
        "stuck_from_deal": STUCK_FROM_DEAL,
        "clubs_order": [Card(c) for c in "JC JS AC KC QC TC 9C".split()],
        "trick_example": [Card(c) for c in "AS JD".split()],
        "options": options,
        "jack_of_hearts": Card("JH"),
        "glossary": [{"word": word, "meaning": meaning} for _term, word, meaning in TERMS],
    }
    return render(request, "rules.html", context)


@require_safe
def help_page(request: HttpRequest) -> HttpResponse:
    """The players' help: short answers, in the reader's language, to what players ask most
    (the precise behaviour is docs/GAMEPLAY.md's)."""
    return render(request, "help.html")


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and operators: the process answers, its database does too, the
    channel layer carries a message (a round trip on a fresh channel), and how many task
    workers are alive and how late the oldest due task is (the web process serves without
    them, but the computer's turns and the clocks wait). 503 naming what failed (the database
    or the channel layer); no message of an error, which could name a host or an account."""
    answer: dict = {"status": "ok"}
    failing = []
    try:
        answer["workers"] = selectors.live_workers()
        queues = selectors.task_queues(now=timezone.now())
        answer["task_lag_seconds"] = round(max((q.lag for q in queues), default=0.0), 3)
        answer["database"] = "ok"
    except Exception as error:  # any database failure is reported, not raised
        answer["database"] = f"error: {type(error).__name__}"
        failing.append("database")
    try:
        async_to_sync(layer_round_trip)(settings.HEALTHZ_LAYER_TIMEOUT_SECONDS)
        answer["channel_layer"] = "ok"
    except Exception as error:
        answer["channel_layer"] = f"error: {type(error).__name__}"
        failing.append("channel_layer")
    if failing:
        answer.update(status="error", failing=failing)
        return JsonResponse(answer, status=503)
    return JsonResponse(answer)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)
