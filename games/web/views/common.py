"""What the views of several pages share: the client's key for the per-address limits, a safe
target to go back to, the 429 page, going to a match, and the match or a 404.
"""

from __future__ import annotations

from datetime import timedelta

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from ...db import selectors
from ...errors import NotFound
from ...models import Match
from ...presentation import refusals
from ...services import throttle


def client_key(request: HttpRequest) -> str:
    """What every per-address limit counts this client by: ``throttle.address_key`` of the
    peer's address."""
    # Behind a proxy, the ASGI server must put the client's address in REMOTE_ADDR, trusting
    # X-Forwarded-For from the proxy alone (docs/OPERATING.md: --forwarded-allow-ips=<proxy>).
    return throttle.address_key(request.META.get("REMOTE_ADDR", "") or "unknown")


def login_key(request: HttpRequest) -> str | None:
    """The same for django-axes' log-in locks (``AXES_CLIENT_IP_CALLABLE``), which stores it
    as an address: None without one (a forced log-in's request), as axes itself reads it."""
    return client_key(request) if request.META.get("REMOTE_ADDR") else None


def safe_target(request: HttpRequest, target: str, default: str) -> str:
    """``target`` if it is a page of this site, else ``default`` (no open redirects)."""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def wait_page(request: HttpRequest, message: str, seconds: int) -> HttpResponse:
    """429: what is paused, and the time to try again."""
    retry_at = timezone.localtime(timezone.now() + timedelta(seconds=seconds))
    context = {"message": message, "retry_at": retry_at, "wait": refusals.wait_words(seconds)}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def go_to(request: HttpRequest, match: Match) -> HttpResponse:
    """Take the page to ``match``: htmx follows HX-Redirect, a plain form the redirect."""
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("match_detail", args=[match.pk])
        return response
    return redirect("match_detail", match_id=match.pk)


def player_or_404(username: str):
    player = selectors.user_by_name(username)
    if player is None:
        raise Http404(_("There is no player of that name."))
    return player


def match_or_404(match_id: int, user) -> Match:
    """The match ``user`` may see, read with its players as its board needs them; 404 if there
    is none. One closed to them raises ``NotAllowed("not_open_to_watch")`` on
    (``selectors.match_for_viewer``): the match views answer it with their own page."""
    try:
        return selectors.match_for_viewer(match_id=match_id, user=user)
    except NotFound:
        raise Http404(_("There is no such match.")) from None
