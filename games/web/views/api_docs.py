"""The API's reference page in the site's frame (the Swagger page it replaced failed the
accessibility audit): drawn from the same OpenAPI schema as /api/v1/openapi.json."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ...api.views import api
from ...presentation import api_docs


@cache
def _reference() -> dict:
    return api_docs.reference(api.get_openapi_schema())


@require_safe
def api_reference(request: HttpRequest) -> HttpResponse:
    return render(request, "api_docs.html", {"api": _reference()})
