"""The errors the site answered, recorded for the operators' health page: each 5xx answer and
each exception a request, a socket or a task did not handle (``ServerError``).

Called by the edges as the error is answered (games.web.tracing, games.realtime.trace, the
worker), one insert each, outside any transaction of theirs. Recording never fails the caller:
with the database away the row is lost and the log line says so.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.utils import timezone

from ..models import ServerError
from ..tracing import REQUEST_ID, process_name

log = logging.getLogger("games.errors")

SHORT = 200  # characters kept of a path, an exception's class path and its message


def server_error_record(
    *,
    kind: str,
    status: int | None = None,
    method: str = "",
    path: str = "",
    error: BaseException | None = None,
    exception: str = "",
    message: str = "",
) -> ServerError | None:
    """Record an error answered: a request's (``kind="request"``, its ``status``, ``method``
    and ``path``: the caller gives it without its query string), a socket's or a task's, and
    the exception if there was one (``error``, or its class path and message as strings). The
    request id is the one being served. None if the database would not take it."""
    if error is not None:
        exception = f"{type(error).__module__}.{type(error).__qualname__}"
        message = str(error)
    try:
        return ServerError.objects.create(
            at=timezone.now(),
            kind=kind,
            status=status,
            method=method[:8],
            path=path[:SHORT],
            request_id=REQUEST_ID.get()[:64],
            exception=exception[:SHORT],
            message=(message.strip().splitlines() or [""])[0][:SHORT],
            process=process_name()[:100],
        )
    except DatabaseError:
        log.warning("could not record a %s error", kind, exc_info=True)
        return None
