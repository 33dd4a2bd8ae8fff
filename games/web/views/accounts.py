"""Accounts: sign-up, playing as a guest ("Play now") and keeping a guest's games, the
locked-out page, the log-in (its second step, a code, in ``account_second_factor``),
password changes and resets that close the sockets of the sessions they end, and the word
after a log-out.
"""

from __future__ import annotations

import time

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ... import services
from ...db import selectors
from ...models import Computer, is_guest
from ...presentation import refusals
from ...services import events, throttle
from ..forms import LoginForm, SignupForm
from ..middleware import SESSION_GUEST
from . import account_second_factor
from .common import client_key, login_key, safe_target, wait_page


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' answer to a log-in from a locked-out address or name: 429, and when."""
    # Locks are by (name, address) and by address: either way, this address's failures.
    attempts = AccessAttempt.objects.filter(ip_address=login_key(request))
    last = attempts.aggregate(last=Max("attempt_time"))["last"] or timezone.now()
    seconds = int((last + settings.AXES_COOLOFF_TIME - timezone.now()).total_seconds())
    message = _(
        "Too many failed log-ins with this name or from your network: "
        "log-ins are paused for a while to keep accounts safe from password guessing."
    )
    return wait_page(request, message, max(1, seconds))


def _signups_throttled(request: HttpRequest) -> HttpResponse | None:
    """Count one more sign-up (or guest keeping its games) from this address and at this name:
    the page that says to wait, past the limits."""
    try:
        throttle.hit("signup-ip", client_key(request), settings.SIGNUP_LIMIT_PER_IP, 3600)
        name = str(request.POST.get("username", ""))[:150].lower()
        throttle.hit("signup-name", name, settings.SIGNUP_LIMIT_PER_USERNAME, 3600)
    except throttle.Throttled as error:
        message = _(
            "Too many sign-ups from your network or with this name: "
            "sign-ups are paused for a while to keep robots out."
        )
        return wait_page(request, message, error.retry_after)
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        # A guest signing up keeps its games: the same user becomes the account.
        return keep_games(request) if is_guest(request.user) else redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        refused = _signups_throttled(request)
        if refused is not None:
            return refused
        if form.is_valid():
            user = services.player_signup(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("Welcome, %(player)s! Create a match or join one.") % {"player": user.username},
            )
            return redirect(safe_target(request, request.GET.get("next", ""), reverse("lobby")))
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """ "Play now" without an account: a new guest, logged in in this session only, goes to
    the lobby, or straight into a match against the computer of the ``strength`` posted."""
    if not request.user.is_authenticated:
        try:
            limit = settings.GUESTS_PER_IP_PER_HOUR
            throttle.hit("guest-ip", client_key(request), limit, 3600)
        except throttle.Throttled as error:
            message = _(
                "Too many guests from your network: playing as a guest is paused for a while "
                "to keep robots out. Sign up or log in to play now."
            )
            return wait_page(request, message, error.retry_after)
        try:
            user = services.guest_create()
        except services.GameError as error:
            context = {"title": _("Play now"), "message": refusals.words(error)}
            return render(request, "error.html", context, status=refusals.status(error))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        request.session[SESSION_GUEST] = time.time()
        messages.info(
            request,
            _(
                "You are playing as %(player)s. To keep your matches, choose a name and a "
                "password with “Keep my games”."
            )
            % {"player": user.username},
        )
    strength = request.POST.get("strength", "")
    if strength not in Computer.values:
        return redirect("lobby")
    try:
        match = services.match_create_computer(user=request.user, strength=strength)
    except services.GameError as error:  # two matches against the computer in play already
        messages.error(request, refusals.words(error))
        return redirect("lobby")
    return redirect("match_detail", match_id=match.pk)


@login_required
@require_http_methods(["GET", "POST"])
def keep_games(request: HttpRequest) -> HttpResponse:
    """A guest keeps its games: a name and a password turn this same user into an account,
    its matches, ratings and settings with it (sign-up's form and limits)."""
    if not is_guest(request.user):
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        refused = _signups_throttled(request)
        if refused is not None:
            return refused
        if form.is_valid():
            data = form.cleaned_data
            try:
                user = services.guest_keep(
                    user=request.user, username=data["username"],
                    password=data["password1"], email=data.get("email") or "",
                )  # fmt: skip
            except services.GameError as error:
                form.add_error(None, refusals.words(error))
                status = refusals.status(error)
                return render(request, "registration/keep.html", {"form": form}, status=status)
            old_key = request.session.session_key
            update_session_auth_hash(request, user)  # this session stays logged in as it
            request.session.pop(SESSION_GUEST, None)
            # Saved now, as a password change does: the sockets' checks must find the new hash.
            request.session.save()
            events.sessions_check_on_commit(user.pk, renamed=(old_key, request.session.session_key))
            messages.success(
                request,
                _("Your games are kept: welcome, %(player)s!") % {"player": user.username},
            )
            return redirect(safe_target(request, request.GET.get("next", ""), reverse("history")))
        return render(request, "registration/keep.html", {"form": form}, status=400)
    return render(request, "registration/keep.html", {"form": form})


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
        _tokens_revoked(self.request, form.user)
        return response


class LoginView(auth_views.LoginView):
    """Django's log-in page, with our form. A session whose player a moderator suspended
    ends at once, and a reload of any of their pages lands here: it says so, with the
    moderators' reason (in the session's language), rather than asking for a log-in."""

    authentication_form = LoginForm

    def form_valid(self, form):
        user = form.get_user()
        if services.has_second_factor(user):  # logged in only after the code (second step)
            return account_second_factor.login_pending(self.request, user, self.get_success_url())
        return super().form_valid(form)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user_id = self.request.session.get(SESSION_KEY)
        if not self.request.user.is_authenticated and str(user_id or "").isdigit():
            suspended = selectors.suspended_account(user_id=int(user_id))
            if suspended is not None:
                context["suspended_reason"] = selectors.suspension_reason(user=suspended) or "—"
        return context


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, and then every socket of the player's old sessions closes."""

    def form_valid(self, form):
        response = super().form_valid(form)
        events.sessions_check_on_commit(form.user.pk)
        _tokens_revoked(self.request, form.user)
        return response


def _tokens_revoked(request, user) -> None:
    """A new password ends the API tokens too (one made with a stolen password must not
    outlive it); the next page says so."""
    if services.api_tokens_revoke_all(user=user):
        messages.warning(
            request,
            _(
                "Your API tokens were revoked with the old password: make new ones on your "
                "settings page."
            ),
            fail_silently=True,
        )


def say_logged_out(sender, request, user, **kwargs) -> None:
    """Django's ``user_logged_out`` signal: the page the player lands on says so."""
    if request is not None:
        messages.info(request, _("You are logged out."), fail_silently=True)
