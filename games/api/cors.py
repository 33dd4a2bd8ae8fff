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

The schema publishes each path's preflight (``add_preflights``, called as ninja's schema is
made): its answers, with the settings' methods and headers, as this middleware gives them.
"""

from __future__ import annotations

import logging

from corsheaders.middleware import CorsMiddleware
from corsheaders.signals import check_request_enabled
from django.conf import settings
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from ..models import PlayerSettings
from ..services.players import API_ORIGINS_KEY
from . import schemas
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
            passed = HttpResponse(status=204)
            del passed["Content-Type"]  # no body, so no type (Django's default says HTML)
            return passed
        detail = _(
            "This web page may not call the API: its origin must first be listed on a "
            "player's settings page"
        )
        return JsonResponse(
            {"code": "origin_not_allowed", "detail": detail, "errors": []}, status=403
        )


PREFLIGHT = """A browser's question before a web page of another site calls this path with a token
(CORS): the API answers it with no body (204) if some player lists the page's origin on their
settings page, with the methods and the request headers the API accepts; the answer itself is
shared with the page only if the token's own player lists it. No cookie is read, so none is
allowed. A preflight carries no token."""


def preflight_components() -> dict:
    """The preflight's parameters and answers, named once for every path's OPTIONS."""
    allowed = {
        "Access-Control-Allow-Origin": ("the request's Origin, as it passed", {}),
        "Access-Control-Allow-Methods": (
            "the methods the API takes",
            {"const": ", ".join(settings.CORS_ALLOW_METHODS)},
        ),
        "Access-Control-Allow-Headers": (
            "the request headers it reads",
            {"const": ", ".join(settings.CORS_ALLOW_HEADERS)},
        ),
        "Access-Control-Max-Age": (
            "seconds the browser may keep this answer",
            {"const": str(settings.CORS_PREFLIGHT_MAX_AGE)},
        ),
    }
    asked = {
        "Origin": (True, "the web page's origin, e.g. ``https://example.com``"),
        "Access-Control-Request-Method": (True, "the method the page means to send"),
        "Access-Control-Request-Headers": (False, "the headers it means to send"),
    }
    return {
        "parameters": {
            _name(header): {
                "name": header,
                "in": "header",
                "required": required,
                "description": about,
                "schema": {"type": "string"},
            }
            for header, (required, about) in asked.items()
        },
        "responses": {
            "PreflightPassed": {
                "description": "The origin may call the API: no body",
                "headers": {
                    header: {"description": about, "schema": {"type": "string", **value}}
                    for header, (about, value) in allowed.items()
                },
            },
            "OriginNotAllowed": schemas.json_answer(
                schemas.Error,
                "No player lists the page's origin (``origin_not_allowed``): no CORS header",
            ),
            # An OPTIONS without Access-Control-Request-Method is no preflight: the API's own.
            "NotAPreflight": schemas.json_answer(
                schemas.Error,
                "Not a preflight: no ``Access-Control-Request-Method`` (``method_not_allowed``)",
            ),
            "NoSuchPath": schemas.json_answer(
                schemas.Error,
                "Not a preflight, and a path no endpoint takes, e.g. ``/matches/abc`` "
                "(``not_found``)",
            ),
        },
    }


# Every path's the same, so that the reference shows them once.
ANSWERS = {
    "204": "PreflightPassed",
    "403": "OriginNotAllowed",
    "404": "NoSuchPath",
    "405": "NotAPreflight",
}


def _name(header: str) -> str:
    return header.replace("-", "")


def add_preflights(schema: dict) -> dict:
    """``schema`` (the API's OpenAPI document) with the preflight (OPTIONS) of each path it
    lists, as ``ApiCors`` answers it; the path's own parameters too (OpenAPI asks every
    operation for its path's)."""
    found = preflight_components()
    components = schema.setdefault("components", {})
    for kind, named in found.items():
        components.setdefault(kind, {}).update(named)
    headers = [{"$ref": f"#/components/parameters/{name}"} for name in found["parameters"]]
    for path, operations in schema.get("paths", {}).items():
        if not path.startswith(API) or "options" in operations:
            continue
        first = next(iter(operations.values()))
        in_path = [p for p in first.get("parameters", []) if p.get("in") == "path"]
        operations["options"] = {
            "operationId": f"{first['operationId']}_preflight",
            "summary": "CORS preflight",
            "description": PREFLIGHT,
            "parameters": [*in_path, *headers],
            "responses": {
                status: {"$ref": f"#/components/responses/{name}"}
                for status, name in ANSWERS.items()
            },
        }
    return schema
