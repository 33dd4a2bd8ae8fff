"""Every request under an id: nginx's ``X-Request-ID`` when well formed, else one made here,
held while the request is served (so the tasks it queues keep it: ``games.tasks.Backend``) and
sent back in the answer's ``X-Request-ID``. With ``LOG_FORMAT=json``, one line a request; and
every 5xx answer is recorded for the health page (``services.operations``).

Paths are logged and recorded without their query string, and with the secret parts of some
addresses (a mail's link, a password reset's) replaced by their names.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.utils.functional import empty

from ..services.operations import server_error_record
from ..tracing import REQUEST_ID, request_id_from

log = logging.getLogger("games.requests")

# The addresses' parts that are a secret (urls.py: mail links, password resets).
SECRET_PARTS = ("key", "token", "uidb64")


def path_logged(request) -> str:
    """The request's path, without its query string and with any secret part replaced."""
    path = request.path
    match = getattr(request, "resolver_match", None)
    if match is not None:
        for name in SECRET_PARTS:
            value = match.kwargs.get(name)
            if value:
                path = path.replace(str(value), f"<{name}>")
    return path


def user_id_of(request) -> int | None:
    """The logged-in user's id, if the request already read it (no query made for a log)."""
    user = request.__dict__.get("user")
    wrapped = getattr(user, "_wrapped", user)
    if wrapped is None or wrapped is empty or not getattr(wrapped, "is_authenticated", False):
        return None
    return wrapped.pk


class RequestTrace:
    """First of the middleware: everything after it runs under the request's id."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.json = settings.LOG_FORMAT == "json"

    def __call__(self, request):
        request_id = request_id_from(request.headers.get("X-Request-ID"))
        token = REQUEST_ID.set(request_id)
        began = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            if response.status_code >= 500:
                error = getattr(request, "unhandled", None)
                server_error_record(
                    kind="request",
                    status=response.status_code,
                    method=request.method,
                    path=path_logged(request),
                    error=error,
                )
            if self.json:
                status = response.status_code
                log.log(
                    logging.ERROR if status >= 500 else logging.INFO,
                    "%s %s %s",
                    request.method,
                    path_logged(request),
                    status,
                    extra={
                        "event": "request",
                        "method": request.method,
                        "path": path_logged(request),
                        "status": status,
                        "duration_ms": round((time.perf_counter() - began) * 1000, 1),
                        "user_id": user_id_of(request),
                    },
                )
            return response
        finally:
            REQUEST_ID.reset(token)

    def process_exception(self, request, exception):
        """An exception the view did not handle: kept for the error's record (Django answers
        it with the 500 page)."""
        request.unhandled = exception
