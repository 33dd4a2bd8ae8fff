"""The API's reference page in the site's frame (the Swagger page it replaced failed the
accessibility audit): drawn from the same OpenAPI schema as /api/v1/openapi.json. And the
API's front door, /api/ and /api/v1/: a browser is sent to the reference, a program told in
JSON where the reference, the schema, the streams and the websockets are."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from ...api.views import api
from ...presentation import api_docs

SCHEMA = "/api/v1/openapi.json"


@cache
def _reference() -> dict:
    return api_docs.reference(api.get_openapi_schema())


@require_safe
@gzip_page  # ~150 KB of HTML, ~15 KB compressed (Django's gzip pads it against BREACH)
def api_reference(request: HttpRequest) -> HttpResponse:
    return render(request, "api_docs.html", {"api": _reference()})


@cache
def _addresses() -> dict:
    """The index's paths: the streams and websockets as the schema publishes them."""
    schema = api.get_openapi_schema()
    return {
        "streams": [path for path in schema["paths"] if path.startswith("/api/v1/stream/")],
        "websockets": [socket["path"] for socket in schema.get("x-websockets", [])],
    }


@require_safe
def api_index(request: HttpRequest) -> HttpResponse:
    """A browser (HTML before anything else in its Accept) goes to the reference; anyone
    else (JSON, ``*/*``, no Accept: curl, a program) gets the index."""
    if request.get_preferred_type(["application/json", "text/html"]) == "text/html":
        response = redirect("api_docs")
    else:
        found, host = _addresses(), request.get_host()
        site = f"{request.scheme}://{host}"
        socket = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        response = JsonResponse(
            {
                "reference": site + reverse("api_docs"),
                "schema": site + SCHEMA,
                "streams": [site + path for path in found["streams"]],  # {match_id}: a template
                "websockets": [socket + path for path in found["websockets"]],
            }
        )
    patch_vary_headers(response, ["Accept"])
    return response
