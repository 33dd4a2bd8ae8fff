from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .engine import Rules


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"rules": Rules()})


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and operators: the process answers and its database does too."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any database failure is reported, not raised
        return JsonResponse({"status": "error", "database": str(error)}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
