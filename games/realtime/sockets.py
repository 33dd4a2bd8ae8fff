"""What every socket of the site shares: the close codes (defined here once, for the pages'
sockets and the API's), Channels' dispatch without its per-message database step, a logged-in
player's group and session, and the error frame.

Refusals accept the socket and then close it with a code the page can read (a socket closed
before it is accepted reaches the browser as a failed handshake, 1006, and the page would retry
for ever): 4401 not logged in or the session ended, 4403 not allowed to watch, 4404 no such
match, 4423 the player was suspended, 4429 too many sockets open; and the API's 4400, what
could not be read (no protocol it speaks offered, a version the match never had).
"""

from __future__ import annotations

import contextlib

from channels.consumer import get_handler_name
from django.template.loader import render_to_string

from .. import metrics, services
from ..services.events import user_group
from . import sessions
from .tables import Member, in_database, rooms

UNREADABLE = 4400
NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4403
NO_SUCH_MATCH = 4404
TOO_MANY = 4429


SUSPENDED = 4423


class SessionEnded(Exception):
    """The session this socket was opened with is over: nothing more is done for it, and the
    socket closes with ``close_code``."""

    close_code = NOT_LOGGED_IN


class Suspended(SessionEnded):
    """The session ended because a moderator suspended the player: the page says so (the log-in
    page gives the moderators' reason), not that the session merely ended."""

    close_code = SUSPENDED


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
            raise Suspended if sessions.is_suspended(self.user.pk) else SessionEnded

    async def session_check(self, event: dict) -> None:
        renamed = event.get("renamed")
        if renamed and renamed[0] == self.session_key:
            self.session_key = renamed[1]
        try:
            await in_database(self.check_session)()
        except SessionEnded as ended:
            if isinstance(ended, Suspended):
                await self.tell_suspended()
            await self.close(code=ended.close_code)

    async def tell_suspended(self) -> None:
        """The player was just suspended: the page's own socket (``/ws/me/``, on every page)
        says so with the moderators' reason before it closes; the others only close (4423)."""

    async def session_ended(self, event: dict) -> None:
        if event["session_key"] == self.session_key:
            await self.close(code=NOT_LOGGED_IN)

    async def user_changed(self, event: dict) -> None:
        """The player's challenges changed: the page's own socket (``/ws/me/``) shows them."""

    async def follows_changed(self, event: dict) -> None:
        """A player they follow came online: the page of the list (``/ws/me/``) shows it."""


class CountedSocket(Member):
    """A page's socket other than the match's (``/ws/me/``, ``/ws/lobby/``): recorded while
    open (``Connection``, kind "page"), so that a player's sockets are capped
    (``PAGE_SOCKETS_PER_PLAYER``: past it, closed with 4429), and kept alive by the heartbeat,
    which also has it rejoin its player's group."""

    socket_kind = "me"  # as the metrics count open sockets (``metrics.SOCKET_KINDS``)

    async def open_counted(self) -> bool:
        """The opening both share: refused (4401) without a logged-in player, recorded and
        in the player's group before it is accepted (nothing pushed from then on is missed).
        False if refused."""
        self.user = self.scope["user"]
        if not self.user.is_authenticated:
            await self.accept()  # to close with a code the page can read
            await self.close(code=NOT_LOGGED_IN)
            return False
        self.session_key = self.scope["session"].session_key
        if not await self.counted():
            return False
        await self.join_player_group()
        return True

    async def counted(self) -> bool:
        """Record the socket (before it is accepted); False past the player's cap, and then
        accepted and closed with 4429 (a code the page can read)."""
        try:
            await in_database(services.connection_open)(
                user=self.user, channel_name=self.channel_name, kind="page"
            )
        except services.TooOften:
            await self.accept()
            await self.close(code=TOO_MANY)
            return False
        self.presence_name = self.channel_name
        rooms().visit(self)
        metrics.socket_opened(self.socket_kind)
        return True

    async def uncounted(self) -> None:
        if self.presence_name:
            metrics.socket_closed(self.socket_kind)
            rooms().forget(self)
            await in_database(services.connection_close)(channel_name=self.presence_name)

    async def beat(self, *, touch: bool) -> None:
        if touch:  # in case joining failed while the layer was down
            await self.join_player_group()


def error_frame(message: str) -> str:
    return render_to_string("partials/error_frame.html", {"error": message})


def base_url(scope) -> str:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}" if host else ""
