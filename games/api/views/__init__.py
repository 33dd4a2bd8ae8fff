"""The endpoints of ``/api/v1/`` (django-ninja: the OpenAPI schema at ``/api/v1/openapi.json``
and a page to try them at ``/api/v1/docs``). Thin, as the site's views: the forms check what
comes in, the services do it, ``shapes`` answers from view_for; a refusal is JSON with a code
and the player's words (``games.presentation.refusals``), and a rate limit 429 with Retry-After."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from ... import services
from ...presentation import refusals
from ...services import throttle
from ...web.moves import Unreadable
from .. import errors, schemas
from ..auth import Unauthorized
from .common import FormRefused

DESCRIPTION = f"""Play two-hand euchre from a program. Make a token on your settings page and
send it as `Authorization: Bearer <token>`. Every refusal under `/api/` is JSON in one shape,
`{{"code": ..., "detail": ..., "errors": [{{"field": ..., "message": ...}}]}}` (`errors` empty
unless something could not be read; a path nothing serves is 404 `not_found`, a method an
address does not take 405 `method_not_allowed`), the detail in the player's words
(Accept-Language). Streams are newline-delimited JSON (a blank line is a heartbeat); the same
events come over the websockets `/api/v1/ws/account`, `/api/v1/ws/arenas/{{id}}` and
`/api/v1/ws/matches/{{id}}?since=<version>` (a heartbeat is a `{{"type": "heartbeat"}}` frame;
a browser, which cannot set the header, offers the subprotocols `euchre.v1` and
`euchre.token.<token>`, and from a web page the origin must be one the player lists). A web
page of another site may call the API once its origin is on the token's player's settings page
(CORS; a preflight from an origin no player lists is refused, 403 `origin_not_allowed`). A
token opens at most 10 streams at once, then one a second; an account holds at most
{settings.STREAMS_PER_ACCOUNT} streams whatever its tokens. Every 429 says when to try again
(`retry_after`, `Retry-After`), a websocket's in its error frame."""


class _ObjectsOnly(Parser):
    """A request's body is a JSON object or nothing (none, or ``null``): ninja read any other
    JSON (a number, a list, a string) as an empty object, so that a body of ``3`` made a match
    of the defaults. Refused as a body that is not JSON is (400 ``invalid``)."""

    def parse_body(self, request):
        data = super().parse_body(request)
        if data is not None and not isinstance(data, dict):
            raise ValueError("the body is not a JSON object")
        return data


class _Api(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        """Ninja's schema with the answers' shapes (``schemas``: every operation's
        ``openapi_extra`` names them) and the websockets."""
        schema = super().get_openapi_schema(*args, **kwargs)
        found = schema.setdefault("components", {}).setdefault("schemas", {})
        for name, shape in schemas.components().items():
            found.setdefault(name, shape)
        schema["x-websockets"] = schemas.websockets()
        from ..cors import add_preflights  # the OPTIONS the middleware answers, before a view

        return add_preflights(schema)

    def get_openapi_operation_id(self, operation) -> str:
        # The ids the schema has always published, from before the endpoints were split into
        # modules by resource: programs generated from it keep working.
        return f"games_api_views_{operation.view_func.__name__}"


api = _Api(
    title="Two-hand euchre API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    parser=_ObjectsOnly(),
    openapi_url="/openapi.json",
    docs_url="/docs",
)


@api.exception_handler(services.GameError)
def _refused(request, error: services.GameError):
    status = 401 if isinstance(error, Unauthorized) else refusals.status(error)
    extra = {}
    if error.code == "illegal":  # which rule: the words say it to a person, this to a program
        extra["reason"] = error.params["refusal"].code
    response = errors.refused(error, status, **extra)
    if status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(throttle.Throttled)
def _throttled(request, error: throttle.Throttled):
    return errors.error("too_many", refusals.words(error), 429, retry_after=error.retry_after)


@api.exception_handler(AuthenticationError)
def _unauthorized(request, error):
    return _refused(request, Unauthorized("unauthorized"))


@api.exception_handler(ValidationError)
def _invalid(request, error: ValidationError):
    detail = _("The request could not be read: see the errors")
    return errors.error("invalid", detail, 400, errors=errors.schema_errors(error.errors))


@api.exception_handler(HttpError)
def _unparsable(request, error: HttpError):  # what ninja refuses itself: a body not JSON
    return errors.unreadable_body()


@api.exception_handler(Unreadable)
def _unreadable(request, error):
    return errors.error("unreadable", _("That move could not be read"), 400)


@api.exception_handler(Http404)
def _not_found(request, error):
    return errors.error("not_found", _("There is nothing here"), 404)


@csrf_exempt  # as every endpoint: a program sends a token, never a cookie
def no_such_endpoint(request, *args, **kwargs) -> JsonResponse:
    """A path under ``/api/v1/`` that no endpoint serves (a match id that is not a number
    too): the API's 404 in JSON, as its schema says, not the site's page."""
    return _not_found(request, Http404())


@api.exception_handler(FormRefused)
def _form_refused(request, error: FormRefused):
    detail = _("The request could not be read: see the errors")
    return errors.error("invalid", detail, 400, errors=error.errors)


# The endpoints, by resource; registered once their modules are read.
from . import (  # noqa: E402
    account,
    arenas,
    challenges,
    chat,
    export,
    insights,
    matches,
    puzzles,
    streaming,
)

for _resource in (account, insights, matches, chat, export, challenges, arenas, puzzles, streaming):
    api.add_router("", _resource.router)
