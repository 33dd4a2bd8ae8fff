"""CORS for the API's token requests (``/api/v1/`` only), from the web pages players allow on
their settings page (``PlayerSettings.api_origins``): a browser client of their own.

A preflight carries no token, so it passes an origin that any player allows; the request
itself is answered with ``Access-Control-Allow-Origin`` only if the token's own player allows
its origin, else the browser keeps the answer from the page. No cookie is read by the API, so
none is allowed (no ``Access-Control-Allow-Credentials``). Every player's origins are read
at once, kept in the cache (shared by the processes) and dropped when a player changes theirs
(``services.players.player_api_origins_set``).
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from ..models import PlayerSettings
from ..services.players import API_ORIGINS_KEY
from .auth import token_player

log = logging.getLogger(__name__)

API = "/api/v1/"
ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE"
ALLOW_HEADERS = "Authorization, Content-Type"
# How long a browser may keep a preflight's answer; and the cached origins, should a change
# fail to drop them (the cache was down).
MAX_AGE = 600
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


class ApiCors:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API):
            return self.get_response(request)
        origin = request.headers.get("Origin")
        # Read before the endpoint: a stream hands its database connection back in there.
        allowed = origins_allowed() if origin else {}
        asks = request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers
        if origin and asks:  # a preflight
            response = self.preflight(origin, allowed)
        else:
            response = self.get_response(request)
            players = allowed.get(origin, ())
            if players and self.player(request) in players:
                response["Access-Control-Allow-Origin"] = origin
                response["Access-Control-Expose-Headers"] = "Retry-After"
        patch_vary_headers(response, ("Origin",))
        return response

    def preflight(self, origin: str, allowed: dict[str, frozenset[int]]) -> HttpResponse:
        if origin not in allowed:
            detail = _(
                "This web page may not call the API: its origin must first be listed on a "
                "player's settings page"
            )
            return JsonResponse({"code": "origin_not_allowed", "detail": detail}, status=403)
        response = HttpResponse(status=204)
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Methods"] = ALLOW_METHODS
        response["Access-Control-Allow-Headers"] = ALLOW_HEADERS
        response["Access-Control-Max-Age"] = str(MAX_AGE)
        return response

    @staticmethod
    def player(request: HttpRequest) -> int | None:
        """The token's player: as the endpoint found it, or (refused before it could, e.g.
        over the token's rate) read from the header."""
        row = getattr(request, "api_token", None)
        if row is not None:
            return row.user_id
        return token_player(request.headers.get("Authorization", ""))
