"""The account page's second factor (set up with a code from the app, recovery codes shown
once, made anew or turned off with the password and a code), and the log-in's second step: a
player with a second factor is logged in only after its code, and a logged-in staff session
is verified by one before the admin opens (``euchre_site.admin``)."""

from __future__ import annotations

import time

import django_otp
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ... import services
from ...presentation import refusals
from ...services import second_factors
from ..forms_second_factor import SecondFactorCodeForm, SecondFactorGuardForm
from .account import account_render
from .common import client_key, safe_target

SECTION = "#second-factor"
# A password given at the log-in waits this long for its code; then the log-in starts again.
PENDING_SECONDS = 300
PENDING = "second_factor_pending"


def login_pending(request: HttpRequest, user, target: str) -> HttpResponse:
    """After a right password, for a player with a second factor: not logged in yet; the
    session remembers who, how and where to, and the code's page is next."""
    request.session[PENDING] = {
        "user": user.pk, "backend": user.backend, "next": target, "since": time.time(),
    }  # fmt: skip
    return redirect("login_code")


def _pending(request: HttpRequest) -> tuple[object, dict] | None:
    """The player whose password was right a moment ago, and how they logged in."""
    pending = request.session.get(PENDING)
    if not isinstance(pending, dict) or time.time() - pending.get("since", 0) > PENDING_SECONDS:
        return None
    user = get_user_model().objects.filter(pk=pending.get("user"), is_active=True).first()
    return (user, pending) if user is not None else None


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """The log-in's second step: the code of the player whose password was right, or of the
    logged-in player whose session a page (the admin) wants verified."""
    pending = _pending(request)
    if pending is not None:
        user, how = pending
        target = how["next"]
    elif request.user.is_authenticated and second_factors.has_second_factor(request.user):
        user, how = request.user, None
        target = safe_target(request, request.GET.get("next", ""), reverse("lobby"))
        if request.user.is_verified():
            return redirect(target)
    else:
        request.session.pop(PENDING, None)
        if request.user.is_authenticated:
            return redirect(reverse("account") + SECTION)
        messages.info(request, _("Log in again: the code was not given in time."))
        return redirect("login")
    form = SecondFactorCodeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                device = second_factors.second_factor_verify(
                    user=user, code=form.cleaned_data["code"], address=client_key(request)
                )
            except services.GameError as error:
                form.add_error("code", refusals.words(error))
                status = refusals.status(error)
            else:
                if how is not None:
                    request.session.pop(PENDING, None)
                    login(request, user, backend=how["backend"])
                django_otp.login(request, device)
                _said_codes_left(request, user, device)
                return redirect(target)
        else:
            status = 400
    context = {"form": form, "player": user.username, "logging_in": how is not None}
    return render(request, "registration/login_code.html", context, status=status)


def _said_codes_left(request: HttpRequest, user, device) -> None:
    if device.name != second_factors.RECOVERY_NAME:
        return
    left = second_factors.recovery_codes_left(user=user)
    said = ngettext(
        "You used a recovery code: %(count)d is left. Make new ones on your account page.",
        "You used a recovery code: %(count)d are left. Make new ones on your account page.",
        left,
    )
    messages.warning(request, said % {"count": left})


@login_required
@require_POST
def second_factor_begin(request: HttpRequest) -> HttpResponse:
    """Start setting one up: the page shows the key, as a QR code and as text."""
    try:
        second_factors.second_factor_begin(user=request.user)
    except services.GameError as error:
        messages.error(request, refusals.words(error))
    return redirect(reverse("account") + SECTION)


@login_required
@require_POST
def second_factor_confirm(request: HttpRequest) -> HttpResponse:
    """The app's code confirms the key: the second factor is on, this session verified by
    it, and the recovery codes shown this once."""
    form = SecondFactorCodeForm(request.POST, recovery=False, ids="second-factor-confirm")
    if not form.is_valid():
        return account_render(request, status=400, second_factor_confirm_form=form)
    try:
        device, codes = second_factors.second_factor_confirm(
            user=request.user, code=form.cleaned_data["code"], address=client_key(request)
        )
    except services.GameError as error:
        form.add_error("code", refusals.words(error))
        status = refusals.status(error)
        return account_render(request, status=status, second_factor_confirm_form=form)
    django_otp.login(request, device)
    messages.success(request, _("Your second factor is on: log-ins ask for a code from now on."))
    return account_render(request, recovery_codes=codes)


@login_required
@require_POST
def recovery_codes_renew(request: HttpRequest) -> HttpResponse:
    """New recovery codes (the old ones stop working), with the password and a code."""
    form = SecondFactorGuardForm(request.POST, ids="second-factor-renew")
    refused = _guard_refused(request, form, "second_factor_renew_form")
    if refused is not None:
        return refused
    try:
        codes = second_factors.recovery_codes_renew(
            user=request.user, password=form.cleaned_data["password"],
            code=form.cleaned_data["code"], address=client_key(request),
        )  # fmt: skip
    except services.GameError as error:
        return _guard_refusal(request, form, "second_factor_renew_form", error)
    messages.success(request, _("New recovery codes are made: the old ones no longer work."))
    return account_render(request, recovery_codes=codes)


@login_required
@require_POST
def second_factor_remove(request: HttpRequest) -> HttpResponse:
    """Turn the second factor off, with the password and a code."""
    form = SecondFactorGuardForm(request.POST, ids="second-factor-off")
    refused = _guard_refused(request, form, "second_factor_off_form")
    if refused is not None:
        return refused
    try:
        second_factors.second_factor_remove(
            user=request.user, password=form.cleaned_data["password"],
            code=form.cleaned_data["code"], address=client_key(request),
        )  # fmt: skip
    except services.GameError as error:
        return _guard_refusal(request, form, "second_factor_off_form", error)
    messages.success(request, _("Your second factor is off: log-ins ask for the password alone."))
    return redirect(reverse("account") + SECTION)


def _guard_refused(request: HttpRequest, form, key: str) -> HttpResponse | None:
    return None if form.is_valid() else account_render(request, status=400, **{key: form})


def _guard_refusal(request: HttpRequest, form, key: str, error) -> HttpResponse:
    field = "password" if error.code == "second_factor_password_wrong" else "code"
    form.add_error(field, refusals.words(error))
    return account_render(request, status=refusals.status(error), **{key: form})


def verify_url(target: str) -> str:
    """The code's page, then ``target`` (the admin's page asked for)."""
    return f"{reverse('login_code')}?{urlencode({'next': target})}"
