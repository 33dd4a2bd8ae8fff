"""The settings' notifications (Web Push): this device turned on or off, the kinds, every
device listed with its remove button. The browser's half is ``static/js/push.js``; sending is
the task worker's (``services.push``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ... import services
from ...db.selectors.push import push_devices, turn_mail_with_push
from ...models import PushKind, is_guest
from ...presentation import refusals
from ...presentation.push import device_label
from ...services import push
from ..forms_push import PushKindsForm, PushSubscribeForm

SECTION = "#push"
PARTIAL = "partials/push_settings.html"


def push_context(request: HttpRequest, kinds_form: PushKindsForm | None = None,
                 error: str = "") -> dict:  # fmt: skip
    """What the settings page's notification section shows (``partials/push_settings.html``)."""
    devices = push_devices(user=request.user)
    if kinds_form is None:
        kinds = devices[-1].kind_list if devices else list(PushKind.values)
        kinds_form = PushKindsForm(
            initial={"kinds": kinds, "mail_too": turn_mail_with_push(user=request.user)}
        )
    return {
        "push_configured": push.push_configured(),
        "push_public_key": settings.VAPID_PUBLIC_KEY,
        "push_devices": devices,
        "push_kinds_form": kinds_form,
        "push_error": error,
        "push_guest": is_guest(request.user),
    }


def _section(request: HttpRequest, status: int = 200, **context) -> HttpResponse:
    return render(request, PARTIAL, push_context(request, **context), status=status)


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """This device's subscription (posted by push.js): the section comes back with it listed,
    or with why not."""
    if not push.push_configured():  # the section says so in words
        return _section(request, status=409)
    if is_guest(request.user):
        return _section(
            request,
            status=403,
            error=_("Keep your games first: a guest's notifications would end with its visit."),
        )
    form = PushSubscribeForm(request.POST)
    if not form.is_valid():
        words = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _section(request, status=400, error=words)
    try:
        push.push_subscribe(
            user=request.user, **form.cleaned_data,
            device=device_label(request.headers.get("User-Agent", "")),
        )  # fmt: skip
    except services.GameError as error:
        return _section(request, status=refusals.status(error), error=refusals.words(error))
    return _section(request)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest, subscription_id: int | None = None) -> HttpResponse:
    """A device removed from the list (``subscription_id``), or this device turning
    notifications off (its endpoint, posted by push.js)."""
    endpoint = request.POST.get("endpoint", "")[:1000]
    if subscription_id is None and not endpoint:
        return _section(request, status=400, error=_("Which device? Nothing was removed."))
    removed = push.push_unsubscribe(
        user=request.user, subscription_id=subscription_id, endpoint=endpoint
    )
    if request.htmx or endpoint:
        return _section(request)
    if not removed:
        return render(
            request, "error.html",
            {"title": _("No such device"), "message": _("That device is not in your list.")},
            status=404,
        )  # fmt: skip
    messages.success(request, _("The device is removed: it is told of nothing more."))
    return redirect(reverse("settings") + SECTION)


@login_required
@require_POST
def push_kinds_set(request: HttpRequest) -> HttpResponse:
    """What the player's devices are told of, and the turn's mail with a push."""
    form = PushKindsForm(request.POST)
    if not form.is_valid():
        return _section(request, status=400, kinds_form=form)
    push.push_kinds_set(
        user=request.user, kinds=form.cleaned_data["kinds"], mail_too=form.cleaned_data["mail_too"]
    )
    messages.success(request, _("Saved."))
    return redirect(reverse("settings") + SECTION)
