from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .. import services
from ..db import selectors
from ..db.public import PLAYERS, PublicMatch, view_of
from ..engine import IllegalAction, Rules
from ..i18n import languages
from ..i18n.glossary import TERMS
from ..models import COMPUTER_USERNAME, ApiToken, Computer, Match, MatchStatus, Theme, is_bot
from ..presentation import hints, refusals, review
from ..presentation import learn as learn_hand
from ..presentation.board import board_context
from ..presentation.cards import Card
from ..presentation.charts import line_chart
from ..presentation.jinja import render_board
from ..presentation.replay import replay_context
from ..services import events, throttle
from .context_processors import SESSION_LOOK, table_look
from .forms import (
    ApiTokenForm,
    ComputerMatchForm,
    FindOpponentForm,
    MatchCreateForm,
    ReportForm,
    SignupForm,
)
from .moves import Unreadable, move_submit


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html", {"rules": Rules()})


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
            throttle.hit("learn", _client_address(request), settings.MOVE_LIMIT_PER_10_SECONDS, 10)
            progress = learn_hand.play(progress, request.POST.get("action", ""))
        except throttle.Throttled as refusal:
            error, status = refusals.words(refusal), 429
        except IllegalAction as refusal:
            error, status = refusals.refusal_words(refusal), 400
        else:
            request.session[learn_hand.SESSION_KEY] = progress
            return redirect("learn")
    context = learn_hand.context(progress, _learn_names(request))
    return render(request, "learn.html", {**context, "error": error}, status=status)


@require_POST
def learn_restart(request: HttpRequest) -> HttpResponse:
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
        "clubs_order": [Card(c) for c in "JC JS AC KC QC TC 9C".split()],
        "trick_example": [Card(c) for c in "AS JD".split()],
        "options": options,
        "jack_of_hearts": Card("JH"),
        "glossary": [{"word": word, "meaning": meaning} for _term, word, meaning in TERMS],
    }
    return render(request, "rules.html", context)


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and operators: the process answers and its database does too; and
    how many task workers are alive (the web process serves without them, but the computer's
    turns and the clocks wait for one)."""
    try:
        workers = selectors.live_workers()
    except Exception as error:  # any database failure is reported, not raised
        return JsonResponse({"status": "error", "database": str(error)}, status=503)
    return JsonResponse({"status": "ok", "database": "ok", "workers": workers})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)


def _client_address(request: HttpRequest) -> str:
    # The peer's address. Behind a proxy, the ASGI server must put the client's there
    # (uvicorn --proxy-headers --forwarded-allow-ips=<proxy>), as django-axes reads it too.
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _safe_target(request: HttpRequest, target: str, default: str) -> str:
    """``target`` if it is a page of this site, else ``default`` (no open redirects)."""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def _wait_page(request: HttpRequest, message: str, seconds: int) -> HttpResponse:
    """429: what is paused, and the time to try again."""
    retry_at = timezone.localtime(timezone.now() + timedelta(seconds=seconds))
    context = {"message": message, "retry_at": retry_at, "wait": refusals.wait_words(seconds)}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' answer to a log-in from a locked-out address or name: 429, and when."""
    # Locks are by (name, address) and by address: either way, this address's failures.
    attempts = AccessAttempt.objects.filter(ip_address=_client_address(request))
    last = attempts.aggregate(last=Max("attempt_time"))["last"] or timezone.now()
    seconds = int((last + settings.AXES_COOLOFF_TIME - timezone.now()).total_seconds())
    message = _(
        "Too many failed log-ins with this name or from your network: "
        "log-ins are paused for a while to keep accounts safe from password guessing."
    )
    return _wait_page(request, message, max(1, seconds))


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The language switcher: remembered in a cookie for everyone, and in the settings of a
    logged-in player (so it follows them to other devices)."""
    language = languages.supported(request.POST.get("language"))
    if language is None:
        return render(
            request,
            "error.html",
            {"title": _("Unknown language"), "message": _("Choose a language from the list.")},
            status=400,
        )
    response = redirect(_safe_target(request, request.POST.get("next", ""), "/"))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
    )  # fmt: skip
    if request.user.is_authenticated:
        services.player_language_set(user=request.user, language=language)
        request.session[languages.SESSION_LANGUAGE] = language
    return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        try:
            throttle.hit("signup-ip", _client_address(request), settings.SIGNUP_LIMIT_PER_IP, 3600)
            name = str(request.POST.get("username", ""))[:150].lower()
            throttle.hit("signup-name", name, settings.SIGNUP_LIMIT_PER_USERNAME, 3600)
        except throttle.Throttled as error:
            message = _(
                "Too many sign-ups from your network or with this name: "
                "sign-ups are paused for a while to keep robots out."
            )
            return _wait_page(request, message, error.retry_after)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("Welcome, %(player)s! Create a match or join one.") % {"player": user.username},
            )
            return redirect(_safe_target(request, request.GET.get("next", ""), reverse("lobby")))
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, and then the player's other sessions' sockets close (this session's hash was
    just brought up to date, so its own sockets stay)."""

    def form_valid(self, form):
        old_key = self.request.session.session_key
        response = super().form_valid(form)  # the session gets a new key and the new hash
        # Saved now, not as the response leaves: the sockets' checks must find the new hash.
        self.request.session.save()
        renamed = (old_key, self.request.session.session_key)
        events.sessions_check_on_commit(form.user.pk, renamed=renamed)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, and then every socket of the player's old sessions closes."""

    def form_valid(self, form):
        response = super().form_valid(form)
        events.sessions_check_on_commit(form.user.pk)
        return response


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _lobby_context(
    request: HttpRequest,
    form: MatchCreateForm | None = None,
    computer_form: ComputerMatchForm | None = None,
) -> dict:
    context = selectors.lobby_lists(user=request.user)
    context.update(
        {
            "form": form or MatchCreateForm(),
            "computer_form": computer_form or ComputerMatchForm(prefix="computer"),
            "find_form": FindOpponentForm(prefix="find"),
            "strengths": Computer.choices,
            "base_url": _base_url(request),
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
    return _go(request, match)  # from the end of a match too ("New opponent", with htmx)


def _go(request: HttpRequest, match: Match) -> HttpResponse:
    """Take the page to ``match``: htmx follows HX-Redirect, a plain form the redirect."""
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("match_detail", args=[match.pk])
        return response
    return redirect("match_detail", match_id=match.pk)


@login_required
@require_POST
def rematch_offer(request: HttpRequest, match_id: int) -> HttpResponse:
    """Play again: a new match at once (the computer, or the opponent had offered too), or the
    offer, on the board."""
    try:
        match = services.rematch_offer(user=request.user, match_id=match_id)
    except services.GameError as error:
        match = _match_or_404(match_id)
        return _render_board(request, match, refusals.words(error), refusals.status(error))
    if match.pk != match_id:
        return _go(request, match)
    if request.htmx:
        return _render_board(request, match)
    return redirect("match_detail", match_id=match_id)


@login_required
@require_POST
def rematch_accept(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = services.rematch_accept(user=request.user, match_id=match_id)
    except services.GameError as error:
        match = _match_or_404(match_id)
        return _render_board(request, match, refusals.words(error), refusals.status(error))
    return _go(request, match)


def _match_or_404(match_id: int) -> Match:
    match = Match.objects.select_related(*PLAYERS).filter(pk=match_id).first()
    if match is None:
        raise Http404(_("There is no such match"))
    return match


def _render_board(request, match: Match, error: str = "", status: int = 200) -> HttpResponse:
    if match.closed_to(request.user):  # whatever was asked: the page, a move, a join...
        return _closed_to_watchers(request)
    context = _board_context(request, match, error)
    if request.htmx:
        return HttpResponse(render_board(context, request), status=status)
    return _match_page(request, context, status)


def _match_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The match page around its board (``context``: the board's), with its side panel's
    settings."""
    context.update(sound_on=selectors.sound_on(user=request.user), themes=Theme.choices)
    context["board"] = render_board(context, request)
    return render(request, "match.html", context, status=status)


def _board_context(request: HttpRequest, match: Match, error: str = "") -> dict:
    """The board of ``match`` for this request's user, with who is at the table."""
    public = PublicMatch.of(match)
    seat = public.seat_of(request.user)
    here = selectors.presence(match_ids=[match.pk])[match.pk]
    casual = (
        match.status == MatchStatus.OPEN
        and match.rated
        and seat is None
        and request.user.is_authenticated
        and selectors.rated_today_capped(user=request.user, other=match.player0)
    )
    return board_context(
        public, view_of(match.state, seat), request.user, present=here.players,
        spectators=here.watching, casual_for_you=casual, error=error,
        base_url=_base_url(request),
    )  # fmt: skip


def _closed_to_watchers(request: HttpRequest) -> HttpResponse:
    """403 for someone who does not play in a match in play whose players let nobody watch."""
    context = {
        "title": _("Not open to watch"),
        "message": _(
            "The players of this match chose not to let others watch it. "
            "Its result will be here once it is over."
        ),
    }
    return render(request, "error.html", context, status=403)


@login_required
@require_POST
def sound_set(request: HttpRequest) -> HttpResponse:
    """The match page's sound switch ("on" or "off"), remembered in the player's settings."""
    choice = request.POST.get("sound")
    if choice not in ("on", "off"):
        return render(
            request,
            "error.html",
            {"title": _("Unknown choice"), "message": _("The sound is either on or off.")},
            status=400,
        )
    services.player_sound_set(user=request.user, sound=choice == "on")
    if request.htmx:
        return render(request, "partials/alert_settings.html", {"sound_on": choice == "on"})
    return redirect(_safe_target(request, request.POST.get("next", ""), "/"))


@login_required
@require_POST
def look_set(request: HttpRequest) -> HttpResponse:
    """The table's look: a theme ("auto", "light", "dark") or the four-colour deck ("on",
    "off"), remembered in the player's settings and in this session (every page reads it)."""
    theme = request.POST.get("theme")
    four = request.POST.get("four_colour")
    if (theme is None) == (four is None) or (
        theme not in (None, *Theme.values) or four not in (None, "on", "off")
    ):
        return render(
            request,
            "error.html",
            {"title": _("Unknown choice"), "message": _("Choose one of the offered options.")},
            status=400,
        )
    four_colour = None if four is None else four == "on"
    services.player_look_set(user=request.user, theme=theme, four_colour=four_colour)
    look = {**table_look(request)["look"]}
    look.update(
        {k: v for k, v in (("theme", theme), ("four_colour", four_colour)) if v is not None}
    )
    request.session[SESSION_LOOK] = look
    if request.htmx:
        return render(
            request, "partials/look_settings.html", {"look": look, "themes": Theme.choices}
        )
    return redirect(_safe_target(request, request.POST.get("next", ""), "/"))


@login_required
@require_safe
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_404(match_id)
    return _render_board(request, match)


@login_required
@require_safe
def match_board(request: HttpRequest, match_id: int) -> HttpResponse:
    """The board partial; 204 (nothing to swap) while the match is still at ``?version=``."""
    match = _match_or_404(match_id)
    if match.closed_to(request.user):
        return _closed_to_watchers(request)
    if request.GET.get("version") == str(match.version):
        return HttpResponse(status=204)
    return HttpResponse(render_board(_board_context(request, match), request))


def _act(request: HttpRequest, match_id: int, call) -> HttpResponse:
    try:
        match = call()
    except services.GameError as error:
        match = _match_or_404(match_id)
        return _render_board(request, match, refusals.words(error), refusals.status(error))
    if request.htmx:
        return _render_board(request, match)  # the service's match, players included
    return redirect("match_detail", match_id=match_id)


@login_required
@require_POST
def match_act(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        return _act(request, match_id, lambda: move_submit(
            user=request.user, match_id=match_id, data=request.POST
        ))  # fmt: skip
    except throttle.Throttled as error:
        response = _render_board(request, _match_or_404(match_id), refusals.words(error), 429)
        response["Retry-After"] = str(error.retry_after)
        return response
    except Unreadable:
        match = _match_or_404(match_id)
        return _render_board(
            request, match, _("That move could not be read: reload the page and try again"), 400
        )


@login_required
@require_POST
def match_hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """The Hint button: the hard computer's choice for the player's turn, and why (casual
    matches against the computer only; refused in words elsewhere)."""
    try:
        match, found = hints.hint_for(user=request.user, match_id=match_id)
    except (services.GameError, throttle.Throttled) as error:
        code = 429 if isinstance(error, throttle.Throttled) else refusals.status(error)
        context = {"match_id": match_id, "hint_error": refusals.words(error)}
        if request.htmx:
            return render(request, "partials/hint.html", context, status=code)
        return render(
            request,
            "error.html",
            {"title": _("No hint"), "message": context["hint_error"]},
            status=code,
        )
    what, why = hints.hint_words(found)
    context = {"match_id": match_id, "hint_action": what, "hint_why": why}
    if request.htmx:
        return render(request, "partials/hint.html", context)
    page = _board_context(request, match)
    page.update(context)
    return _match_page(request, page)


def _match_action(service):
    """A POST view on one match that calls ``service(user=, match_id=)`` and answers with the
    board (or the refusal in words): join, abort, resign, claim."""

    @login_required
    @require_POST
    def view(request: HttpRequest, match_id: int) -> HttpResponse:
        return _act(request, match_id, lambda: service(user=request.user, match_id=match_id))

    view.__name__ = view.__qualname__ = service.__name__
    return view


match_join = _match_action(services.match_join)
match_abort = _match_action(services.match_abort)
match_resign = _match_action(services.match_resign)
match_claim = _match_action(services.match_claim)
rematch_decline = _match_action(services.rematch_decline)


@login_required
@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.user_by_name(username)
    if player is None:
        raise Http404(_("There is no player of that name"))
    return _profile_page(request, player)


def _profile_page(request, player, form: MatchCreateForm | None = None, status: int = 200):
    context = {
        "player": player,
        "record": selectors.record(user=player),
        "rating": selectors.rating_of(user=player),
        "chart": line_chart(selectors.rating_history(user=player)),
        # Anyone else but the computer may be challenged (it is always in the lobby).
        "can_challenge": player.pk != request.user.pk
        and player.is_active
        and not player.username.startswith(COMPUTER_USERNAME.format("")),
        "challenge_form": form or MatchCreateForm(prefix="challenge"),
        "challenge_open": form is not None,
    }
    return render(request, "profile.html", context, status=status)


@login_required
@require_POST
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.user_by_name(username)
    if player is None:
        raise Http404(_("There is no player of that name"))
    form = MatchCreateForm(request.POST, prefix="challenge")
    if not form.is_valid():
        return _profile_page(request, player, form, status=400)
    try:
        services.challenge_create(user=request.user, challenged=player, **form.cleaned_data)
    except services.GameError as error:
        messages.error(request, refusals.words(error))
        return _profile_page(request, player, form, status=refusals.status(error))
    messages.success(
        request,
        _("Challenge sent to %(player)s: you will go to the match when they accept.")
        % {"player": player.username},
    )
    return redirect("profile", username=player.username)


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
    return _go(request, match)


@login_required
@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Decline a challenge (or withdraw one's own); back to the page it was answered on."""
    try:
        services.challenge_decline(user=request.user, challenge_id=challenge_id)
    except services.GameError as error:
        return _challenge_refused(request, error)
    return redirect(_safe_target(request, request.POST.get("next", ""), reverse("lobby")))


def say_logged_out(sender, request, user, **kwargs) -> None:
    """Django's ``user_logged_out`` signal: the page the player lands on says so."""
    if request is not None:
        messages.info(request, _("You are logged out."), fail_silently=True)


@login_required
@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    bots = request.GET.get("bots") == "1"
    context = {
        "rows": selectors.leaderboard(bots=bots),
        "minimum": selectors.LEADERBOARD_MIN_MATCHES,
        "bots": bots,
    }
    return render(request, "leaderboard.html", context)


@login_required
@require_safe
def history(request: HttpRequest) -> HttpResponse:
    """My finished matches, filtered; htmx asks for further pages ("load more")."""
    try:
        # Past the last page a page is simply empty; beyond this it would overflow the query.
        page = min(max(1, int(request.GET.get("page", "1"))), 100_000)
    except ValueError:
        page = 1
    filters = {
        # No user name holds a NUL, and PostgreSQL refuses one in a query: drop it.
        "opponent": request.GET.get("opponent", "").replace("\x00", "").strip()[:150],
        "result": request.GET.get("result", ""),
        "kind": request.GET.get("kind", ""),
    }
    rows, more = selectors.match_history(user=request.user, page=page, **filters)
    query = urlencode({k: v for k, v in filters.items() if v})
    context = {
        "rows": rows,
        "more": more,
        "next_page": page + 1,
        "filters": filters,
        "query": query,
    }
    if request.htmx and page > 1:
        return render(request, "history.html#rows", context)
    return render(request, "history.html", context)


@login_required
@require_safe
def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every action of a finished match, one step at a time, every card face up."""
    match = _match_or_404(match_id)
    if match.status != MatchStatus.FINISHED:
        return render(
            request,
            "replay.html",
            {"match": match, "closed": _("The replay opens when the match is over.")},
            status=403,
        )
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    context = replay_context(match, selectors.match_moves(match=match), step)
    if request.GET.get("analysis") == "1":  # the "Analysis" toggle is on
        context["analysis"] = review.analysis_context(match, context["step"], context["names"])
        context["keep"] = "&analysis=1"
    if request.htmx:
        return render(request, "replay.html#replay", context)
    return render(request, "replay.html", context)


@login_required
@require_POST
def match_report(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player reports the opponent; a moderator sees it in the admin's queue."""
    form = ReportForm(request.POST)
    back = _safe_target(request, request.POST.get("back", ""), f"/matches/{match_id}/")
    if not form.is_valid():
        messages.error(request, _("Choose a reason from the list to send a report."))
        return redirect(back)
    try:
        services.report_create(reporter=request.user, match_id=match_id, **form.cleaned_data)
    except services.GameError as error:
        context = {"title": _("Your report was not sent"), "message": refusals.words(error)}
        return render(request, "error.html", context, status=refusals.status(error))
    messages.success(request, _("Thank you: a moderator will look at your report."))
    return redirect(back)


def _settings_page(request, form: ApiTokenForm | None = None, new_token: str = "",
                   status: int = 200) -> HttpResponse:  # fmt: skip
    context = {
        "form": form or ApiTokenForm(),
        "tokens": ApiToken.objects.filter(user=request.user, revoked_at__isnull=True),
        "new_token": new_token,
        "is_bot": is_bot(request.user),
        "has_matches": selectors.has_matches(user=request.user),
        "bot_challenges": selectors.bots_may_challenge(request.user),
        "base_url": _base_url(request),
    }
    return render(request, "settings.html", context, status=status)


@login_required
@require_safe
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's settings: API tokens, a bot account, challenges from bots."""
    return _settings_page(request)


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    """A new token, shown on the page this once (only its hash is kept)."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, form, status=400)
    try:
        _row, token = services.api_token_create(user=request.user, **form.cleaned_data)
    except services.GameError as error:
        form.add_error(None, refusals.words(error))
        return _settings_page(request, form, status=refusals.status(error))
    response = _settings_page(request, new_token=token)
    response["Cache-Control"] = "no-store"  # the token is on this page: keep it out of caches
    return response


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        services.api_token_revoke(user=request.user, token_id=token_id)
    except services.GameError as error:
        messages.error(request, refusals.words(error))
    else:
        messages.success(request, _("The token is revoked: it no longer works."))
    return redirect("settings")


@login_required
@require_POST
def bot_set(request: HttpRequest) -> HttpResponse:
    """Make this account a bot account (for good): asked to confirm with a ticked box."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: a bot account cannot be undone."))
        return redirect("settings")
    try:
        services.player_bot_set(user=request.user)
    except services.GameError as error:
        messages.error(request, refusals.words(error))
    else:
        messages.success(request, _("This is a bot account now: it plays through the API."))
    return redirect("settings")


@login_required
@require_POST
def bot_challenges_set(request: HttpRequest) -> HttpResponse:
    services.player_bot_challenges_set(
        user=request.user, allowed=request.POST.get("allowed") == "yes"
    )
    messages.success(request, _("Saved."))
    return redirect("settings")
