"""Every refusal says why in words (Django answers a wrong method, 405, with an empty body),
and a logged-in player's chosen language wins over the cookie and the browser's."""

from __future__ import annotations

import time

from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from .. import metrics, services
from ..i18n import catalogues
from ..i18n.languages import SESSION_LANGUAGE


class ExplainRefusals:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            allowed = response.get("Allow", "")
            explained = render(
                request,
                "error.html",
                {
                    "title": _("Not this way"),
                    "message": _(
                        "This address does not take %(method)s requests (only %(allowed)s)."
                    )
                    % {"method": request.method, "allowed": allowed},
                },
                status=405,
            )
            explained["Allow"] = allowed
            return explained
        return response


class FreshCatalogues:
    """Reads the catalogues again once one changed on disk (a moderator accepted a player's
    wording, in this process or another): looked at every two seconds at most."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        catalogues.reload_if_changed(time.monotonic())
        return self.get_response(request)


class PlayerLanguage:
    """After LocaleMiddleware (cookie, then Accept-Language) and authentication: the language
    saved in the player's settings, copied into the session at log-in, comes first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = request.session.get(SESSION_LANGUAGE)
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


# In a guest's session (a guest is logged in by the session that made it, and only there):
# when its last visit was recorded, as a Unix time. Its presence marks the visitor a guest for
# the pages' frame (games.web.context_processors.guest), without a query.
SESSION_GUEST = "guest_seen"
GUEST_SEEN_EVERY = 3600  # seconds: the sweep counts days, an hour's precision is plenty


class GuestSeen:
    """A guest's visits keep it from the sweep (services.guests_sweep): the last one is
    written at most once an hour."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        seen = request.session.get(SESSION_GUEST)
        if seen is not None and time.time() - seen > GUEST_SEEN_EVERY:
            if request.user.is_authenticated:
                services.guest_seen(user=request.user)
                request.session[SESSION_GUEST] = time.time()
        return self.get_response(request)


class StatusCounted:
    """Every answer, counted by its status class for the metrics (2xx ... 5xx): near the
    outside, so that what the other middleware answer is counted too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        metrics.answered(response.status_code)
        return response
