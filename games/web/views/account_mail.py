"""The account page's mail: the address (changed with the password, confirmed by a link),
the link sent again, which mails the player wants; and, without a log-in, the pages of the
mails' links: the confirmation's, and the one-click unsubscription (RFC 8058)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from ... import services
from ...presentation import refusals
from ...services import mail_addresses
from ..forms_mail import KIND_WORDS, MailAddressForm, MailKindsForm
from .account import account_render
from .common import client_key

SECTION = "#mail"


@login_required
@require_POST
def mail_address_change(request: HttpRequest) -> HttpResponse:
    """A new address (or none), with the password: its link goes to it, the old one is told."""
    form = MailAddressForm(request.POST)
    if not form.is_valid():
        return account_render(request, status=400, mail_form=form)
    address = form.cleaned_data["email"]
    try:
        services.mail_address_set(
            user=request.user, address=address, password=form.cleaned_data["password"],
            address_ip=client_key(request),
        )  # fmt: skip
    except services.GameError as error:
        form.add_error("password", refusals.words(error))
        return account_render(request, status=refusals.status(error), mail_form=form)
    if not address:
        messages.success(request, _("Your address is removed: we email you nothing."))
    elif address.lower() == request.user.email.lower():
        messages.success(request, _("Saved."))
    else:
        said = _(
            "We emailed a link to %(address)s: open it to confirm the address. Until then it "
            "gets nothing else from us."
        )
        messages.success(request, said % {"address": address})
    return redirect(reverse("account") + SECTION)


@login_required
@require_POST
def mail_confirm_again(request: HttpRequest) -> HttpResponse:
    try:
        address = services.mail_confirm_again(user=request.user)
    except services.GameError as error:
        words = refusals.words(error)
        return account_render(request, status=refusals.status(error), mail_refused=words)
    messages.success(request, _("We emailed the link again to %(address)s.") % {"address": address})
    return redirect(reverse("account") + SECTION)


@login_required
@require_POST
def mail_kinds_set(request: HttpRequest) -> HttpResponse:
    form = MailKindsForm(request.POST)
    if not form.is_valid():
        return account_render(request, status=400, mail_kinds_form=form)
    data = form.cleaned_data
    wanted = {kind: data[kind] for kind in KIND_WORDS}
    services.mail_kinds_set(user=request.user, wanted=wanted, turn_each=data["turn_each"])
    messages.success(request, _("Saved."))
    return redirect(reverse("account") + SECTION)


def _refused(request: HttpRequest, error: services.GameError) -> HttpResponse:
    context = {"title": _("Emails"), "message": refusals.words(error)}
    return render(request, "error.html", context, status=refusals.status(error))


@require_http_methods(["GET", "POST"])
def mail_confirm(request: HttpRequest, key: str) -> HttpResponse:
    """The link mailed to a new address: a page with a button (a mail scanner that opens the
    link confirms nothing), whose POST confirms it, once."""
    try:
        if request.method == "POST":
            user = services.mail_address_confirm(key=key, address_ip=client_key(request))
            context = {"address": user.email, "done": True}
        else:
            context = {"address": mail_addresses.mail_link_address(key=key), "key": key}
    except services.GameError as error:
        return _refused(request, error)
    response = render(request, "mail_confirm.html", context)
    response["Cache-Control"] = "no-store"
    return response


@csrf_exempt  # the signed token is the proof; a mail program posts without a page (RFC 8058)
@require_http_methods(["GET", "POST"])
def mail_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A mail's one-click unsubscription: a POST (a mail program's own, RFC 8058, or the
    page's button) stops that kind of mail at once, no log-in needed; a GET only shows the
    button (mail scanners open links). "Email me again" turns it back on."""
    try:
        player, kind = mail_addresses.unsubscribe_target(token)
    except services.GameError as error:
        return _refused(request, error)
    context = {"player": player, "kind": kind, "kind_words": KIND_WORDS[kind], "token": token}
    if request.method == "POST":
        again = request.POST.get("again") == "yes"
        services.mail_kind_set(user=player, kind=kind, wanted=again)
        context["state"] = "on" if again else "off"
    else:
        context["state"] = "asked"
    return render(request, "mail_unsubscribe.html", context)


@require_http_methods(["GET", "POST"])
def turn_mail_stop(request: HttpRequest, token: str) -> HttpResponse:
    """The stop link of the turn mails sent before unsubscription links expired: it no
    longer works, and says where to turn the mails off."""
    context = {
        "title": _("Emails"),
        "message": _(
            "This link is out of date. Stop these emails on your account page, or with "
            "the link in a newer email."
        ),
    }
    return render(request, "error.html", context, status=410)
