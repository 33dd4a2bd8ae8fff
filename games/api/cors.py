"""CORS for the API's token requests (``/api/v1/`` only), by django-cors-headers, from the web
pages players allow on their settings page (``PlayerSettings.api_origins``): a browser client
of their own. Its settings (euchre_site/settings.py, ``CORS_*``) give the methods, headers and
ages; no origin is listed there, as each is allowed by a player, through its
``check_request_enabled`` hook (``player_allows``).

A preflight carries no token, so it passes an origin that any player allows (refused with
words otherwise, where the library would answer an empty 200); the request itself is answered
with ``Access-Control-Allow-Origin`` only if the token's own player allows its origin, else the
browser keeps the answer from the page. No cookie is read by the API, so none is allowed (no
``Access-Control-Allow-Credentials``). Every player's origins are read at once, kept in the
cache (shared by the processes) and dropped when a player changes theirs
(``services.players.player_api_origins_set``).
"""

from __future__ import annotations

import logging

from corsheaders.middleware import CorsMiddleware
from corsheaders.signals import check_request_enabled
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from ..models import PlayerSettings
from ..services.players import API_ORIGINS_KEY
from .auth import token_player

log = logging.getLogger(__name__)

API = "/api/v1/"
# The cached origins' life, should a change fail to drop them (the cache was down).
KEPT_FOR = 60


def origins_allowed() -> dict[str, frozenset[int]]:
    """Each origin some player allows, with the ids of the players who allow it."""
    try:
        found = cache.get(API_ORIGINS_KEY)
    except Exception as error:  # the cache (Redis) is down: read the rows
        log.warning("the API's origins read without the cache (%s)", error)
        found = None
    if found is not None:
        return found
    players: dict[str, set[int]] = {}
    rows = PlayerSettings.objects.exclude(api_origins="").values_list("user_id", "api_origins")
    for user_id, text in rows:
        for origin in text.split():
            players.setdefault(origin, set()).add(user_id)
    found = {origin: frozenset(ids) for origin, ids in players.items()}
    try:
        cache.set(API_ORIGINS_KEY, found, KEPT_FOR)
    except Exception:  # noqa: S110 - said above; the next request reads the rows again
        pass
    return found


def _preflight(request: HttpRequest) -> bool:
    return request.method == "OPTIONS" and "access-control-request-method" in request.headers


@receiver(check_request_enabled)
def player_allows(sender, request: HttpRequest, **kwargs) -> bool:
    """Whether ``request``'s origin may read the answer: for a preflight, if any player allows
    it; else if the token's player does."""
    allowed = getattr(request, "api_origins", None)
    if allowed is None:  # not the API's, or no Origin: the middleware read nothing
        return False
    players = allowed.get(request.headers.get("origin"), ())
    if not players:
        return False
    return _preflight(request) or _player(request) in players


def _player(request: HttpRequest) -> int | None:
    """The token's player: as the endpoint found it, or (refused before it could, e.g. over
    the token's rate) read from the header."""
    row = getattr(request, "api_token", None)
    if row is not None:
        return row.user_id
    return token_player(request.headers.get("Authorization", ""))


class ApiCors(CorsMiddleware):
    # Run in a thread, as the origins may be read from the database.
    async_capable = False

    def is_enabled(self, request: HttpRequest) -> bool:
        # CORS_URLS_REGEX alone: the library asks its hook too of every other path (a page, a
        # form's post), for nothing (docs/PERFORMANCE.md).
        return request.path_info.startswith(API)

    def check_preflight(self, request: HttpRequest) -> HttpResponse | None:
        # Read before the endpoint: a stream hands its database connection back in there.
        if request.path_info.startswith(API) and "origin" in request.headers:
            request.api_origins = origins_allowed()
        if super().check_preflight(request) is None:
            return None
        if player_allows(None, request):
            return HttpResponse(status=204)
        detail = _(
            "This web page may not call the API: its origin must first be listed on a "
            "player's settings page"
        )
        return JsonResponse({"code": "origin_not_allowed", "detail": detail}, status=403)
