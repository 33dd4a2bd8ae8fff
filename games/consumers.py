"""Websocket consumers: thin. Authenticate, join the group, render the viewer's partial, send.

Client mistakes get an error frame, never a dropped socket. Close codes for refusals:
4401 not logged in, 4403 not allowed to watch, 4404 no such match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from . import selectors, services, throttle
from .board import board_context
from .i18n import language_for_scope
from .models import Match
from .realtime import LOBBY_GROUP, match_from_event, match_group, remember_server_loop, twice

log = logging.getLogger(__name__)


NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4403
NO_SUCH_MATCH = 4404


class Dispatch:
    """Channels' ``dispatch``, less its first step: closing stale database connections, which
    costs every message (each push, each frame) a trip to a worker thread and back. These
    consumers reach the database only through ``database_sync_to_async``, which closes
    them itself (on Channels' one database thread per process). tests/web/test_dispatch.py
    fails if Channels' own ``dispatch`` comes to do more than that first step."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class HealthConsumer(Dispatch, AsyncJsonWebsocketConsumer):
    """``/ws/health/``: answers once a message has made a round trip through the channel layer.

    Operators (and the browser test) use it to see that websockets and the layer (Redis in
    production) both work from where the player sits.
    """

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.send(self.channel_name, {"type": "health.echo"})

    async def health_echo(self, event: dict) -> None:
        await self.send_json({"status": "ok", "channel_layer": type(self.channel_layer).__name__})

    async def receive_json(self, content, **kwargs) -> None:
        await self.send_json({"status": "ok", "echo": content})


class Heartbeat:
    """One per server process (per event loop), so that the cost does not grow with the
    sockets: every ``REALTIME_HEARTBEAT_SECONDS`` two queries mark all of its match sockets
    present and read their matches' versions, and a socket whose board is behind catches up."""

    _by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self) -> None:
        self.sockets: set[MatchConsumer] = set()
        self.task: asyncio.Task | None = None

    @classmethod
    def of_this_loop(cls) -> Heartbeat:
        loop = asyncio.get_running_loop()
        if loop not in cls._by_loop:
            cls._by_loop[loop] = cls()
        return cls._by_loop[loop]

    def add(self, consumer: MatchConsumer) -> None:
        self.sockets.add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run())

    def discard(self, consumer: MatchConsumer) -> None:
        self.sockets.discard(consumer)

    async def run(self) -> None:
        while self.sockets:  # ends with the last socket; the next one starts it again
            await asyncio.sleep(settings.REALTIME_HEARTBEAT_SECONDS)
            sockets = list(self.sockets)
            try:
                versions = await database_sync_to_async(self._touch)(sockets)
            except Exception:  # the database is away: the next beat tries again
                log.warning("heartbeat could not reach the database", exc_info=True)
                continue
            for consumer in sockets:
                if consumer in self.sockets:
                    try:
                        await consumer.catch_up(versions.get(consumer.match_id))
                    except Exception:  # one socket's trouble must not stop the others' beat
                        log.warning("heartbeat: socket %s", consumer.channel_name, exc_info=True)

    @staticmethod
    def _touch(sockets: list[MatchConsumer]) -> dict[int, int]:
        services.connections_touch(channel_names=[c.channel_name for c in sockets])
        return selectors.match_versions(match_ids={c.match_id for c in sockets})


def _base_url(scope) -> str:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}" if host else ""


def _error_frame(message: str) -> str:
    return render_to_string("partials/error_frame.html", {"error": message})


class MatchConsumer(Dispatch, AsyncWebsocketConsumer):
    """``/ws/matches/<id>/``: the board of one match, pushed after every committed change."""

    async def connect(self) -> None:
        remember_server_loop()
        self.language = language_for_scope(self.scope)  # pushes speak the viewer's language
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        self.joined = False
        self.shown_version = 0
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        refusal = await database_sync_to_async(self._refusal)()
        if refusal:
            await self.close(code=refusal)
            return
        self.group = match_group(self.match_id)
        await self._join_group()
        await self.accept()
        self.joined = True
        await self._show(*await database_sync_to_async(self._arrive)())
        Heartbeat.of_this_loop().add(self)

    def _arrive(self) -> tuple[int, str]:
        """One trip to the database thread: the socket is recorded (the others get the news,
        with the match to render it from) and this viewer's board is rendered from that read."""
        match = services.connection_open(
            match_id=self.match_id, user=self.user, channel_name=self.channel_name
        )
        return match.version, self._render(match)

    def _refusal(self) -> int | None:
        """The close code that refuses this viewer, or None; an admitted viewer's match is
        brought up to date first (its clock, the computer's turn)."""
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return NO_SUCH_MATCH
        if match.seat_of(self.user) is None and not match.spectators_allowed:
            return NOT_ALLOWED
        services.match_touch(match=match)  # clock and computer brought up to date
        return None

    async def _join_group(self) -> None:
        try:
            await twice(self.channel_layer.group_add, self.group, self.channel_name)
        except Exception as error:  # the layer is down: the heartbeat tries again
            log.warning("channel layer unavailable for %s (%s)", self.channel_name, error)

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        Heartbeat.of_this_loop().discard(self)
        with contextlib.suppress(Exception):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await database_sync_to_async(services.connection_close)(
            match_id=self.match_id, channel_name=self.channel_name
        )

    async def catch_up(self, version: int | None) -> None:
        """The heartbeat's visit: rejoin the group (in case joining failed), and if the match
        has moved past the board shown here (a push was lost: the layer was down, say), send
        the current one."""
        await self._join_group()
        if version is not None and version > self.shown_version:
            await self.send_board()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """A move over the socket: ``{"action": "play:JH", "version": 12}``."""
        try:
            content = json.loads(text_data or "")
            action = content["action"]
            version = content["version"]
            if isinstance(version, str) and version.isascii() and version.isdigit():
                version = int(version)  # a form's value, as htmx's ws-send would give it
            if not isinstance(version, int) or isinstance(version, bool):
                raise ValueError  # not a whole number (1.5, Infinity, true...)
            if not isinstance(action, str) or len(action) > 16:
                raise ValueError
        except (ValueError, KeyError, TypeError):
            with translation.override(self.language):
                await self.send(text_data=_error_frame(_("That move could not be read")))
            return
        try:
            shown = await database_sync_to_async(self._move)(action, version)
        except (services.GameError, throttle.Throttled) as error:
            await self.send_board()  # what the table is now, then why the move was refused
            with translation.override(self.language):
                await self.send(text_data=_error_frame(error.message))
            return
        # The mover's board comes straight back (even with the channel layer down); the
        # broadcast after the commit brings it to every other socket.
        await self._show(*shown)

    def _move(self, action: str, version: int) -> tuple[int, str]:
        with translation.override(self.language):  # a refusal is worded for this player
            throttle.move(self.user)
            match = services.move_apply(
                user=self.user, match_id=self.match_id, action=action, version=version
            )
        return match.version, self._render(match)

    async def match_changed(self, event: dict) -> None:
        if event.get("presence"):
            selectors.forget_presence(self.match_id)
        if event.get("opened") == self.channel_name:
            return  # the news of this socket's own opening: its board went out with it
        if "match" not in event:
            await self.send_board()
            return
        # A move, or who is connected: the match came with the news, so the board is rendered
        # right here, without the database (and without handing the work to a thread).
        match = match_from_event(event["match"])
        if match.version == self.shown_version and not event.get("presence"):
            return  # this socket already shows this board (the mover's own)
        html = self._render(match, present=frozenset(event["present"]))
        await self._show(match.version, html)

    async def send_board(self) -> None:
        await self._show(*await database_sync_to_async(self._render_board)())

    def _render_board(self) -> tuple[int, str]:
        match = Match.objects.select_related("player0", "player1", "winner").get(pk=self.match_id)
        return match.version, self._render(match)

    async def _show(self, version: int, html: str) -> None:
        """Send a board, unless this socket already shows a later one: a push can overtake a
        board read from the database a moment earlier, and the page must not step back."""
        if version < self.shown_version:
            return
        self.shown_version = version
        await self.send(text_data=html)

    def _render(self, match: Match, present: frozenset[int] | None = None) -> str:
        with translation.override(self.language):
            context = board_context(
                match, self.user, base_url=_base_url(self.scope), present=present
            )
            return render_to_string("match.html#board", context)


class LobbyConsumer(Dispatch, AsyncWebsocketConsumer):
    """``/ws/lobby/``: the lobby's lists, pushed when a match opens, starts or ends."""

    async def connect(self) -> None:
        remember_server_loop()
        self.language = language_for_scope(self.scope)
        self.user = self.scope["user"]
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        with contextlib.suppress(Exception):
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        with translation.override(self.language):
            await self.send(text_data=_error_frame(_("The lobby takes no messages")))

    async def lobby_changed(self, event: dict) -> None:
        html = await database_sync_to_async(self._render_lists)()
        await self.send(text_data=html)

    def _render_lists(self) -> str:
        context = selectors.lobby_lists(user=self.user)
        context["base_url"] = _base_url(self.scope)
        with translation.override(self.language):
            return render_to_string("lobby.html#pushed-lists", context)
