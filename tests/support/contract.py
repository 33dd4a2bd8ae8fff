"""Every answer of ``/api/v1/`` the suite sees, checked against the published OpenAPI schema
(``games.api.schemas``): its status documented for the operation, its media type, and a JSON
body valid against that answer's shape, with no field the shape does not name (the schema
is published open, a client ignoring what it does not know; here it is held closed, so a
field added to an answer without the schema fails the test that saw it). Streams' lines and
websocket frames are checked the same way (``event``).

``watch`` wraps Django's test clients for a test (tests/conftest.py does it for every test)."""

from __future__ import annotations

import copy
import json
import re
from functools import cache

from django.test import AsyncClient, Client
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE = "urn:euchre-api"
API = "/api/v1/"
NOT_CHECKED = ("/api/v1/docs", "/api/v1/openapi.json")  # the schema itself, and its page


class Broken(AssertionError):
    """An answer the schema does not describe."""


def _closed(schema):
    """The schema with every object shape that names its fields closed to others."""
    if isinstance(schema, dict):
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        for value in schema.values():
            _closed(value)
    elif isinstance(schema, list):
        for value in schema:
            _closed(value)
    return schema


@cache
def _document() -> dict:
    from games.api.views import api

    document = copy.deepcopy(api.get_openapi_schema())
    _closed(document["components"]["schemas"])
    return document


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(_document(), default_specification=DRAFT202012)
    return Registry().with_resource(BASE, resource)


@cache
def _operations() -> list[tuple[re.Pattern, str, dict]]:
    found = []
    for path, methods in _document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        for method, operation in methods.items():
            found.append((pattern, method.upper(), operation))
    return found


def validator(schema: dict) -> Draft202012Validator:
    """A validator for ``schema``, its ``#/components/...`` references the published ones'."""
    text = json.dumps(schema).replace('"#/components/', f'"{BASE}#/components/')
    return Draft202012Validator(json.loads(text), registry=_registry())


@cache
def _shape(name: str) -> Draft202012Validator:
    return validator({"$ref": f"#/components/schemas/{name}"})


def valid(name: str, value) -> None:
    """Raise Broken unless ``value`` is valid against the component ``name``."""
    errors = sorted(_shape(name).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        where = "; ".join(f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message}" for e in errors)
        raise Broken(f"not a valid {name}: {where[:2000]}")


def operation(method: str, path: str) -> dict:
    for pattern, verb, found in _operations():
        if verb == method and pattern.match(path):
            return found
    raise Broken(f"{method} {path}: no such operation in the schema")


def answer(method: str, path: str, status: int, media: str, body: bytes | None) -> None:
    """Check one answer; ``body`` None: a stream (its lines go through ``event``)."""
    found = operation(method, path)
    responses = found.get("responses", {})
    documented = responses.get(str(status)) or responses.get(status)
    if documented is None:
        raise Broken(f"{method} {path}: {status} is not among its answers {list(responses)}")
    content = documented.get("content") or {}
    kind = media.split(";")[0].strip()
    if kind not in content:
        raise Broken(f"{method} {path} {status}: {kind} is not among {list(content)}")
    if body is None or kind != "application/json":
        return
    errors = list(validator(content[kind]["schema"]).iter_errors(json.loads(body)))
    if errors:
        where = "; ".join(f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message}" for e in errors)
        raise Broken(f"{method} {path} {status}: {where[:2000]}")


def event(path: str, value: dict) -> None:
    """Check a stream's line or a websocket's frame (``path``: the stream's or socket's)."""
    if value.get("type") == "error":
        name = "ErrorFrame"
    elif value.get("type") == "heartbeat":  # a websocket's only
        name = "HeartbeatFrame"
    else:
        name = "AccountEvent" if path.rstrip("/").endswith("/account") else "MatchEvent"
        if "/arenas/" in path:
            name = "ArenaStreamEvent"
    valid(name, value)


def checked(path: str, value: dict) -> dict:
    """``value``, once ``event`` has found it valid."""
    event(path, value)
    return value


def request_of(response) -> tuple[str, str]:
    """The method and path of a test client's response (a WSGI environ, or an ASGI scope)."""
    request = response.request
    if "PATH_INFO" in request:
        return request["REQUEST_METHOD"], request["PATH_INFO"]
    return request["method"], request["path"]


def _check(response) -> None:
    method, path = request_of(response)
    if not path.startswith(API) or path.startswith(NOT_CHECKED) or path == API:  # its index
        return
    if response.status_code in (301, 302):  # not an answer of the API's own
        return
    if response.status_code == 204 or method == "OPTIONS":  # a CORS preflight
        return
    if not any(verb == method and pattern.match(path) for pattern, verb, _ in _operations()):
        # No such operation: the API's refusal all the same (404, 405 with Allow), in JSON.
        if response.status_code not in (404, 405):
            raise Broken(f"{method} {path}: {response.status_code} for no operation")
        if response.get("Content-Type", "") != "application/json":
            raise Broken(f"{method} {path}: {response['Content-Type']}, not JSON")
        valid("Error", json.loads(response.content))
        return
    body = None if getattr(response, "streaming", False) else response.content
    media = response.get("Content-Type", "")
    answer(method, path, response.status_code, media, body)


def watch(monkeypatch) -> None:
    """Check every answer the test clients get from the API during a test."""
    plain, later = Client.request, AsyncClient.request

    def request(self, **kwargs):
        response = plain(self, **kwargs)
        _check(response)
        return response

    async def arequest(self, **kwargs):
        response = await later(self, **kwargs)
        _check(response)
        return response

    monkeypatch.setattr(Client, "request", request)
    monkeypatch.setattr(AsyncClient, "request", arequest)
