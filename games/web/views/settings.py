"""A player's settings: language, sound, the table's look, the mail of correspondence
matches (on or off: the address is the account page's), API tokens (and the web pages that
may use them) and bot options."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db import selectors
from ...i18n import languages
from ...models import ApiToken, PlayerSettings, Theme, is_bot, is_guest
from ...presentation import refusals
from ...services.players import player_api_origins_set
from ..context_processors import SESSION_LOOK, table_look
from ..forms import ApiOriginsForm, ApiTokenForm, ChatSettingsForm, TablePaceForm, TurnMailForm
from ..forms_fairplay import AppealForm
from .common import base_url, safe_target
from .push import push_context


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
    response = redirect(safe_target(request, request.POST.get("next", ""), "/"))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
    )  # fmt: skip
    if request.user.is_authenticated:
        services.player_language_set(user=request.user, language=language)
        request.session[languages.SESSION_LANGUAGE] = language
    return response


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
    return redirect(safe_target(request, request.POST.get("next", ""), "/"))


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
    return redirect(safe_target(request, request.POST.get("next", ""), "/"))


def _settings_page(request, form: ApiTokenForm | None = None, new_token: str = "",
                   status: int = 200, origins_form: ApiOriginsForm | None = None,
                   mail_form: TurnMailForm | None = None,
                   pace_form: TablePaceForm | None = None,
                   chat_form: ChatSettingsForm | None = None,
                   appeal_form: AppealForm | None = None,
                   ) -> HttpResponse:  # fmt: skip
    if pace_form is None:
        pace, forced_card = selectors.table_pace(user=request.user)
        pace_form = TablePaceForm(initial={"pace": pace, "forced_card": forced_card})
    if chat_form is None:
        chat_form = ChatSettingsForm(
            initial={
                "free_chat": selectors.reads_free_chat(request.user),
                "chat_sound": selectors.chat_sound_on(user=request.user),
            },
            guest=is_guest(request.user),
        )
    if mail_form is None:
        wanted = selectors.turn_mail_wanted(user=request.user)
        mail_form = TurnMailForm(initial={"allowed": wanted})
    if origins_form is None:
        origins = PlayerSettings.objects.filter(user=request.user).values_list("api_origins")
        origins_form = ApiOriginsForm(initial={"origins": (origins.first() or ("",))[0]})
    context = {
        "form": form or ApiTokenForm(),
        "origins_form": origins_form,
        "mail_form": mail_form,
        "mail_confirmed": request.user.email,
        "pace_form": pace_form,
        "chat_form": chat_form,
        "tokens": ApiToken.objects.filter(user=request.user, revoked_at__isnull=True),
        "new_token": new_token,
        "is_bot": is_bot(request.user),
        "has_matches": selectors.has_matches(user=request.user),
        "bot_challenges": selectors.bots_may_challenge(request.user),
        "puzzle_names": selectors.puzzle_names_mine(user=request.user),
        "insights_public": selectors.insights_public_mine(user=request.user),
        "base_url": base_url(request),
        "sound_on": selectors.sound_on(user=request.user),
        "themes": Theme.choices,
        **push_context(request),  # the notifications' section (views.push)
        **_fair_play_context(request, appeal_form),  # a marked player's mark and appeal
    }
    return render(request, "settings.html", context, status=status)


def _fair_play_context(request, appeal_form: AppealForm | None) -> dict:
    """A marked player's mark, their appeal and its answer (read now that it is shown);
    nothing for anyone else (a flag is never shown)."""
    standing = selectors.fair_play_standing(user=request.user)
    if standing is None:
        return {}
    appeal = standing["appeal"]
    if appeal is not None and appeal.outcome and appeal.answer_read_at is None:
        services.appeal_answer_read(user=request.user)
    return {"fair_play": standing, "appeal_form": appeal_form or AppealForm()}


@login_required
@require_POST
def appeal_submit(request: HttpRequest) -> HttpResponse:
    """A marked player's appeal (once per mark): the moderators answer it in their queue."""
    form = AppealForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, appeal_form=form, status=400)
    try:
        services.appeal_make(user=request.user, text=form.cleaned_data["text"])
    except services.GameError as error:
        messages.error(request, refusals.words(error))  # (the form may be gone: appealed)
        return _settings_page(request, appeal_form=form, status=refusals.status(error))
    messages.success(request, _("Your appeal has been sent: the moderators will answer it here."))
    return redirect(reverse("settings") + "#fair-play")


# A token just made waits here for the page the POST redirects to, which shows it once.
NEW_TOKEN = "new_api_token"  # noqa: S105 - a session key, not a secret


@login_required
@require_safe
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's settings: language, the table's look, alerts, API tokens, a bot account,
    challenges from bots."""
    new_token = request.session.pop(NEW_TOKEN, "")
    response = _settings_page(request, new_token=new_token)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token is on this page: keep it out of caches
    return response


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    """A new token, shown on the page the POST redirects to, that once (only its hash is
    kept): reloading that page makes no second token."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, form, status=400)
    try:
        _row, token = services.api_token_create(user=request.user, **form.cleaned_data)
    except services.GameError as error:
        form.add_error(None, refusals.words(error))
        return _settings_page(request, form, status=refusals.status(error))
    request.session[NEW_TOKEN] = token
    return redirect("settings")


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
def api_origins_set(request: HttpRequest) -> HttpResponse:
    """The web pages (origins) whose scripts may call the API with this player's tokens: the
    API answers their requests with CORS headers."""
    form = ApiOriginsForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, origins_form=form, status=400)
    player_api_origins_set(user=request.user, origins=form.cleaned_data["origins"])
    messages.success(request, _("Saved."))
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
def puzzle_names_set(request: HttpRequest) -> HttpResponse:
    services.player_puzzle_names_set(
        user=request.user, allowed=request.POST.get("allowed") == "yes"
    )
    messages.success(request, _("Saved."))
    return redirect("settings")


@login_required
@require_POST
def bot_challenges_set(request: HttpRequest) -> HttpResponse:
    services.player_bot_challenges_set(
        user=request.user, allowed=request.POST.get("allowed") == "yes"
    )
    messages.success(request, _("Saved."))
    return redirect("settings")


@login_required
@require_POST
def turn_mail_set(request: HttpRequest) -> HttpResponse:
    form = TurnMailForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, mail_form=form, status=400)
    services.player_turn_mail_set(user=request.user, allowed=form.cleaned_data["allowed"])
    messages.success(request, _("Saved."))
    return redirect("settings")


@login_required
@require_POST
def table_pace_set(request: HttpRequest) -> HttpResponse:
    """The table's pace (quick or relaxed) and whether a forced card is played for the player:
    the match page reads them when it opens, the server for the next hand's first turn."""
    form = TablePaceForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, pace_form=form, status=400)
    services.player_table_pace_set(
        user=request.user, pace=form.cleaned_data["pace"],
        forced_card=form.cleaned_data["forced_card"],
    )  # fmt: skip
    messages.success(request, _("Saved."))
    return redirect("settings")


@login_required
@require_POST
def chat_settings_set(request: HttpRequest) -> HttpResponse:
    """Free chat on or off (off for a new account; a guest cannot turn it on) and a sound when
    a message arrives: the match page reads them when it opens."""
    form = ChatSettingsForm(request.POST, guest=is_guest(request.user))
    if not form.is_valid():
        return _settings_page(request, chat_form=form, status=400)
    try:
        services.chat_settings_set(user=request.user, **form.cleaned_data)
    except services.GameError as error:
        form.add_error(None, refusals.words(error))
        return _settings_page(request, chat_form=form, status=refusals.status(error))
    messages.success(request, _("Saved."))
    return redirect("settings")
