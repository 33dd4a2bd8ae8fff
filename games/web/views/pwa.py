"""The installed app: the web app manifest, the service worker (/sw.js) and the page it shows
when the network is gone (/offline/). What the worker keeps and why: games/web/pwa.py and
docs/OPERATING.md, "The installed app"."""

from __future__ import annotations

import functools
import json

from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from ...i18n import languages
from .. import pwa
from ..context_processors import DEFAULT_LOOK

WORKER = "js/sw.js"


def _language(request: HttpRequest) -> str | None:
    """The language asked for by ``?lang=`` (the page's, which a manifest's fetch carries no
    cookie to tell), else the request's; None for one the site does not speak."""
    asked = request.GET.get("lang")
    if asked is None:
        return translation.get_language()
    return languages.supported(asked)


def _unknown_language(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "error.html",
        {"title": _("Unknown language"), "message": _("Choose a language from the list.")},
        status=400,
    )


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, its words in the page's language. Its id is the same in every
    language: the site installed in Thai and opened in Somali is one app."""
    code = _language(request)
    if code is None:
        return _unknown_language(request)
    with translation.override(code):
        body = {
            "id": "/",
            "name": _("Two-hand euchre"),
            "short_name": pgettext("the app's name under its icon on a home screen", "Euchre"),
            "description": _("Two players · 24, 25 or 32 cards · first to the target wins"),
            "lang": code,
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "start_url": reverse("lobby"),
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "theme_color": pwa.THEME_COLOUR,
            "background_color": pwa.BACKGROUND_COLOUR,
            "categories": ["games"],
            "icons": pwa.icons(),
        }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Content-Language"] = code
    # The same for everyone in a language (its address says which): no need to ask at each page.
    response["Cache-Control"] = "max-age=3600"
    return response


@functools.cache
def _worker_code() -> str:
    with open(finders.find(WORKER), encoding="utf-8") as file:
        return file.read()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js at the site's root (a worker controls only the pages under its own
    address), after the line that tells it its version and files. Never cached by the
    browser: it checks at each visit whether a deploy brought another."""
    kept = pwa.kept()
    site = {
        "version": kept.version,
        "files": kept.urls,
        "offline": reverse("offline"),
        "icon": static(pwa.NOTIFICATION_ICON),
    }
    code = f"const SITE = {json.dumps(site)};\n{_worker_code()}"
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows when the network is gone, in the language asked for. It is
    kept in the browser, so it is drawn as for anyone: no name, no badge, no token, the
    default look."""
    code = _language(request)
    if code is None:
        return _unknown_language(request)
    # No csrf_token: the footer's forms get none (with the network back, the page reloads).
    context = {"user": AnonymousUser(), "guest": False, "look": DEFAULT_LOOK, "csrf_token": ""}
    with translation.override(code):
        response = render(request, "offline.html", context)
    response["Content-Language"] = code
    return response
