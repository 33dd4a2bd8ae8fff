"""The pages for a refused or failed request (400, 403, 404, 500), set as the site's handlers.

Django's own handlers carry ``requires_csrf_token``, which runs the CSRF check's first step and
so reads the request's body: a body Django cannot parse (a form not in UTF-8, a multipart post
without a boundary) made the 400 page fail the way the request did, then the 500 page too, and
the request ended in an exception outside Django, with no response and no ``request_finished``:
the database connection it held was never given back. These take the CSRF token without
reading the body (the footer's forms need it), and never raise: if the page itself cannot be
drawn, the answer is the same status in plain words.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


def _page(request: HttpRequest, template: str, status: int, context: dict | None = None):
    try:
        get_token(request)
        return render(request, template, context or {}, status=status)
    except Exception:  # the error page itself failed: still an answer, with words
        log.exception("the %s page could not be drawn", status)
        words = {
            400: _("That request could not be read"),
            403: _("Not allowed"),
            404: _("Not found"),
        }.get(status, _("Something went wrong on our side"))
        return HttpResponse(words, status=status, content_type="text/plain; charset=utf-8")


def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    return _page(request, "400.html", 400)


def permission_denied(request: HttpRequest, exception=None) -> HttpResponse:
    return _page(request, "403.html", 403)


def page_not_found(request: HttpRequest, exception=None) -> HttpResponse:
    # As Django's: the exception's message, if it is words, else its kind (the page then says
    # its own words).
    shown = exception.__class__.__name__ if exception is not None else "Http404"
    message = exception.args[0] if exception is not None and exception.args else None
    if isinstance(message, str):
        shown = message
    return _page(request, "404.html", 404, {"exception": shown, "request_path": request.path})


def server_error(request: HttpRequest) -> HttpResponse:
    return _page(request, "500.html", 500)
