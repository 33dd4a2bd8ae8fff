"""The API's one refusal shape, ``{"code", "detail", "errors": [{"field", "message"}]}``, and
the middleware that gives it to every answer under ``/api/`` that is not the API's own: a path
no endpoint serves, a method an address does not take (ninja's 405), a body too large
(Django's 400), and a failure of the site's own (500), all in JSON with a code, never the
site's HTML pages."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from ..presentation import refusals
from ..services import GameError

API = "/api/"


def error(code: str, detail: str, status: int, *, errors: Iterable[dict] = (), **extra):
    """A refusal: ``errors`` (what could not be read) is always there, empty if nothing."""
    body = {"code": code, "detail": str(detail), "errors": list(errors), **extra}
    response = JsonResponse(body, status=status)
    retry_after = extra.get("retry_after")
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def refused(error_: GameError, status: int, **extra) -> JsonResponse:
    """A service's refusal in the player's words; a 429 says when to try again."""
    if status == 429:
        extra.setdefault("retry_after", refusals.retry_after(error_))
    return error(error_.code, refusals.words(error_), status, **extra)


def form_errors(form_errors_: dict) -> list[dict]:
    """A Django form's errors, one ``{field, message}`` for each message."""
    return [
        {"field": field, "message": str(message)}
        for field, messages in form_errors_.items()
        for message in messages
    ]


def schema_errors(found: list[dict]) -> list[dict]:
    """Pydantic's (ninja's) errors, ``{type, loc, msg}``: the field is the place in the body,
    query or path, dotted (``loc`` less where it was, and for the body ninja's name for it)."""
    errors = []
    for each in found:
        loc = list(each.get("loc", ()))
        place = [str(part) for part in loc[2 if loc[:1] == ["body"] else 1 :]]
        errors.append({"field": ".".join(place) or "body", "message": str(each.get("msg", ""))})
    return errors


def unreadable_body() -> JsonResponse:
    return error(
        "invalid",
        _("The request could not be read: see the errors"),
        400,
        errors=[{"field": "body", "message": _("Send a JSON object")}],
    )


class JsonErrors:
    """Under ``/api/``, an answer of 400 or more that is not JSON becomes the API's refusal
    with the same status (and Allow header), worded in the request's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 400 or not request.path_info.startswith(API):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        return _as_json(request, response)


def _as_json(request: HttpRequest, response: HttpResponse) -> JsonResponse:
    status = response.status_code
    if status == 405:
        allowed = response.get("Allow", "")
        detail = _("This address does not take %(method)s requests (only %(allowed)s).") % {
            "method": request.method,
            "allowed": allowed,
        }
        answer = error("method_not_allowed", detail, 405)
        answer["Allow"] = allowed
        return answer
    if status == 404:
        return error("not_found", _("There is nothing here"), 404)
    if status >= 500:
        detail = _("Something went wrong on our side")
        return error("server_error", detail, status)
    return error("invalid", _("The request could not be read"), status)
