"""Pushes handed over by a task worker under the embedded defaults (``services.events``:
the in-memory channel layer is each process's own, so the worker posts its pushes here and
this server sends them on to its sockets). Only signed posts are taken; with Redis, where
every process shares the layer, there is nothing to hand over and the address is unknown."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ...services import events


@csrf_exempt  # not a browser's form: a worker's post, signed with the site's key
@require_POST
def pushes(request: HttpRequest) -> HttpResponse:
    if settings.REDIS_URL:
        raise Http404
    try:
        handed = events.relayed_pushes(request.body.decode("utf-8", "replace"))
    except (signing.BadSignature, TypeError, ValueError):
        return HttpResponse(
            "Not a push from this site's task worker.", status=403, content_type="text/plain"
        )
    for group, event in handed:
        events.send_to_group(group, event)
    return HttpResponse(status=204)
