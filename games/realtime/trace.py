"""Every websocket under an id (its upgrade request's ``X-Request-ID`` from nginx, else one made
here), so that the tasks its frames queue keep it; with ``LOG_FORMAT=json``, a line when it
connects (its kind), when it closes (the code, and who closed it) and, from the consumers, for
each frame refused (``frame_refused``), never a frame's content; and an exception no consumer
handled recorded for the health page (``services.operations``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from channels.layers import get_channel_layer
from django.conf import settings

from ..services.operations import server_error_record
from ..tracing import REQUEST_ID, request_id_from
from .tables import in_database

log = logging.getLogger("games.sockets")

# The kind of socket, by the start of its path (the routing's addresses).
KINDS = (
    ("/ws/matches/", "match"),
    ("/ws/lobby/", "lobby"),
    ("/ws/me/", "me"),
    ("/ws/health/", "health"),
    ("/api/v1/ws/", "stream"),
)


def kind_of(path: str) -> str:
    return next((kind for start, kind in KINDS if path.startswith(start)), "other")


def header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def socket_event(message: str, *, level: int = logging.INFO, **fields) -> None:
    """A JSON line about a socket (only with ``LOG_FORMAT=json``: in text, none)."""
    if settings.LOG_FORMAT == "json":
        log.log(level, message, extra={"event": "socket", **fields})


def frame_refused(scope, code: str) -> None:
    """A frame the consumer refused (unreadable, or a move refused), by its refusal's code."""
    socket_event("frame refused", path=scope.get("path", ""), refused=code)


def traced(app):
    """The websocket application, each connection under its id and its events logged."""

    async def application(scope, receive, send):
        request_id = request_id_from(header(scope, b"x-request-id"))
        token = REQUEST_ID.set(request_id)
        path = scope.get("path", "")
        kind = kind_of(path)
        began = time.monotonic()

        async def sending(message):
            kind_sent = message.get("type")
            if kind_sent == "websocket.accept":
                socket_event("socket connected", kind=kind, path=path)
            elif kind_sent == "websocket.close":
                code = message.get("code", 1000)
                socket_event("socket closed by the server", kind=kind, path=path, code=code)
            await send(message)

        async def receiving():
            message = await receive()
            if message.get("type") == "websocket.disconnect":
                socket_event(
                    "socket disconnected",
                    kind=kind,
                    path=path,
                    code=message.get("code"),
                    seconds=round(time.monotonic() - began, 1),
                )
            return message

        try:
            return await app(scope, receiving, sending)
        except Exception as error:
            await in_database(server_error_record)(kind="socket", path=path, error=error)
            raise
        finally:
            REQUEST_ID.reset(token)

    return application


async def layer_round_trip(timeout: float) -> None:
    """A message sent to a fresh channel of the channel layer and received back, within
    ``timeout`` seconds: raises if the layer (Redis) does not answer (``/healthz``)."""
    layer = get_channel_layer()

    async def trip() -> None:
        channel = await layer.new_channel("health.")
        try:
            await layer.send(channel, {"type": "health.ping"})
            await layer.receive(channel)
        finally:
            # A receive cancelled while waiting lets the channel go (both layers clean up
            # then: the Redis one unsubscribes from it); one that got its message does not.
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 0.01)

    await asyncio.wait_for(trip(), timeout)
