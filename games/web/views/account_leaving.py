"""The account page's leaving: asking for the file of one's data, downloading it, and deleting
the account (a log-out after it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db.selectors.data_export import data_export_file
from ...presentation import refusals
from ..account_sections import leaving
from .account import account_render
from .common import client_key

SECTION = "#leaving"


@login_required
@require_POST
def data_export_request(request: HttpRequest) -> HttpResponse:
    try:
        services.data_export_request(user=request.user, address=client_key(request))
    except services.GameError as error:
        words = refusals.words(error)
        return account_render(request, status=refusals.status(error), data_export_refused=words)
    messages.success(request, _("Your data is being prepared: this page shows the link soon."))
    return redirect(reverse("account") + SECTION)


@login_required
@require_safe
def data_export_download(request: HttpRequest) -> HttpResponse:
    row = data_export_file(user=request.user)
    if row is None:
        raise Http404(_("Your data is not ready, or no longer offered: ask for it again."))
    response = HttpResponse(row.content, content_type="application/json; charset=utf-8")
    name = f"euchre-data-{row.ready_at:%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def account_delete(request: HttpRequest) -> HttpResponse:
    form = leaving.delete_form(request, request.POST)
    if not form.is_valid():
        return account_render(request, status=400, leaving_form=form)
    try:
        services.account_delete(
            user=request.user,
            password=form.cleaned_data["password"],
            code=form.cleaned_data.get("code", ""),
            address=client_key(request),
        )
    except services.GameError as error:
        form.add_error(None, refusals.words(error))
        return account_render(request, status=refusals.status(error), leaving_form=form)
    logout(request)
    messages.success(request, _("Your account has been deleted. Thank you for playing."))
    return redirect("home")
