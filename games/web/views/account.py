"""The account page (settings/account/): what guards a player's account and what leaves with
them, a section each (its mail address, second factors, sessions, their data and leaving).
Each section's default context comes from ``web.account_sections``; its views are in a
module of its own beside this one."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ...models import is_guest
from ..account_sections import leaving, mail, second_factor, sessions

SECTIONS = (mail, second_factor, sessions, leaving)


def account_render(request: HttpRequest, status: int = 200, **given) -> HttpResponse:
    """The account page, each section with its defaults unless ``given`` replaces them (a
    section's bound form after a refused post)."""
    context = {}
    for section in () if is_guest(request.user) else SECTIONS:
        context.update(section.context(request))
    context.update(given)
    response = render(request, "account.html", context, status=status)
    response["Cache-Control"] = "no-store"  # codes and addresses: kept out of caches
    return response


@login_required
@require_safe
def account_page(request: HttpRequest) -> HttpResponse:
    return account_render(request)
