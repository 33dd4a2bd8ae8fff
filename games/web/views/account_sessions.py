"""The account page's sessions: ending one (this device's is a log-out) or all the others.
Each is a POST from the confirmation the section shows (``?end=``); its sockets close at once."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ... import services
from ...presentation import refusals
from ..account_sections import sessions
from .account import account_render
from .common import client_key

SECTION = "#sessions"


@login_required
@require_POST
def session_end(request: HttpRequest, session_id: int) -> HttpResponse:
    try:
        ended = services.account_session_end(
            user=request.user, session_id=session_id, address=client_key(request)
        )
    except services.GameError as error:
        words = refusals.words(error)
        return account_render(request, status=refusals.status(error), sessions_refused=words)
    if ended == request.session.session_key:
        logout(request)  # this device's: the page after says "You are logged out."
        return redirect("login")
    messages.success(request, _("The session has ended: that device is logged out."))
    return redirect(reverse("account") + SECTION)


@login_required
@require_POST
def sessions_end_others(request: HttpRequest) -> HttpResponse:
    # As many as the list showed (a session a password change ended has a row until it
    # expires: it goes too, uncounted).
    count = sum(not session["current"] for session in sessions.listed(request))
    services.account_sessions_end_others(
        user=request.user, keep_key=request.session.session_key, address=client_key(request)
    )
    if count:
        said = ngettext(
            "%(count)d other session has ended: it is logged out.",
            "%(count)d other sessions have ended: they are logged out.",
            count,
        )
        messages.success(request, said % {"count": count})
    else:
        messages.info(request, _("There was no other session to end."))
    return redirect(reverse("account") + SECTION)
