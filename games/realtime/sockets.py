"""What every socket of the site shares: the close codes (defined here once, for the pages'
sockets and the API's), Channels' dispatch without its per-message database step, a logged-in
player's group and session, and the error frame.

Refusals accept the socket and then close it with a code the page can read (a socket closed
before it is accepted reaches the browser as a failed handshake, 1006, and the page would retry
for ever): 4401 not logged in or the session ended, 4403 not allowed to watch, 4404 no such
match, 4429 too many sockets open.
"""

from __future__ import annotations

import contextlib

from channels.consumer import get_handler_name
from django.template.loader import render_to_string

from ..services.events import user_group
from . import sessions
from .tables import in_database

NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4403
NO_SUCH_MATCH = 4404
TOO_MANY = 4429


class SessionEnded(Exception):
    """The session this socket was opened with is over: nothing more is done for it."""


class Dispatch:
    """Channels' ``dispatch``, less its first step: closing stale database connections, which
    costs every message (each push, each frame) a trip to a worker thread and back. These
    consumers reach the database only through ``in_database`` (``database_sync_to_async``),
    which closes them itself, in the sockets' database threads. tests/web/test_dispatch.py
    fails if Channels' own ``dispatch`` comes to do more than that first step."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class PlayerSockets:
    """What every socket of a logged-in player does: it is in the player's group, and it
    closes (4401) as soon as its session ends (games.realtime.sessions)."""

    async def join_player_group(self) -> None:
        with contextlib.suppress(Exception):  # the layer is down: the frames still check
            await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)

    async def leave_player_group(self) -> None:
        with contextlib.suppress(Exception):
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)

    def check_session(self) -> None:
        """Raise SessionEnded unless this socket's session is still this player's (in a
        database thread: it reads the session and the player afresh)."""
        if not sessions.session_is_users(self.session_key, self.user.pk):
            raise SessionEnded

    async def session_check(self, event: dict) -> None:
        renamed = event.get("renamed")
        if renamed and renamed[0] == self.session_key:
            self.session_key = renamed[1]
        try:
            await in_database(self.check_session)()
        except SessionEnded:
            await self.close(code=NOT_LOGGED_IN)

    async def session_ended(self, event: dict) -> None:
        if event["session_key"] == self.session_key:
            await self.close(code=NOT_LOGGED_IN)

    async def user_changed(self, event: dict) -> None:
        """The player's challenges changed: the page's own socket (``/ws/me/``) shows them."""


def error_frame(message: str) -> str:
    return render_to_string("partials/error_frame.html", {"error": message})


def base_url(scope) -> str:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}" if host else ""
