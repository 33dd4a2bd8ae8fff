"""Fair play on the player's side: a moderator's warning shown once, on the next page the
player opens (and the notice that their appeal was answered), and the appeal sent from the
settings page (views.settings.appeal_submit). Nothing of a flag or its signals is ever
shown here."""

from __future__ import annotations

from django.contrib import messages
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import services
from ..db import selectors

# Pages that show no notice (not the site's HTML pages, or not the player's).
QUIET_PREFIXES = ("/api/", "/admin/", "/static/", "/healthz", "/metrics")


def notice_wanted(request) -> bool:
    """A page the player reads: a GET of an HTML page, not htmx's fragment, not a script's
    fetch (which accepts anything but HTML: the notice would be lost in it)."""
    if request.method != "GET" or request.headers.get("HX-Request"):
        return False
    if request.path.startswith(QUIET_PREFIXES):
        return False
    accept = request.headers.get("Accept", "")
    return not accept or "text/html" in accept


class FairPlayNotices:
    """After the messages' middleware: a warning not read yet becomes this page's message
    (then it is read: it is shown once); an appeal's answer not read yet is announced on
    each page until the settings page shows it. One query a page for a logged-in player."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and notice_wanted(request):
            warned, answered = selectors.fair_play_notices(user=user)
            if warned and services.warning_take(user=user) is not None:
                messages.warning(request, warning_words())
            if answered and request.path != reverse("settings"):
                messages.info(request, answered_words())
        return self.get_response(request)


def answered_words() -> str:
    return _("The moderators have answered your appeal: read their answer in your settings.")


def warning_words() -> str:
    return _(
        "A moderator has looked at your recent rated matches and warns you: play them on "
        "your own, without help from a program, and play each one to win. If it goes on, "
        "your account will be marked and rated play closed to it."
    )
