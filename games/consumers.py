"""Websocket consumers: thin. Authenticate, join the group, render the viewer's partial, send.

Client mistakes get an error frame, never a dropped socket. Close codes for refusals:
4401 not logged in, 4403 not allowed to watch, 4404 no such match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

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
from .realtime import LOBBY_GROUP, match_group, remember_server_loop

log = logging.getLogger(__name__)

NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4403
NO_SUCH_MATCH = 4404


class HealthConsumer(AsyncJsonWebsocketConsumer):
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


def _base_url(scope) -> str:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}" if host else ""


def _error_frame(message: str) -> str:
    return render_to_string("partials/error_frame.html", {"error": message})


class MatchConsumer(AsyncWebsocketConsumer):
    """``/ws/matches/<id>/``: the board of one match, pushed after every committed change."""

    # Channels reads the layer through ``self.channel_receive``, and a layer error there would
    # end the consumer and drop the player's socket. Wrapped, a Redis outage only pauses the
    # pushes: the socket stays open and the heartbeat resends the board when Redis is back.
    @property
    def channel_receive(self):
        return self._channel_receive

    @channel_receive.setter
    def channel_receive(self, receive) -> None:
        async def patient_receive():
            while True:
                try:
                    return await receive()
                except Exception as error:
                    log.warning("channel layer unavailable (%s); retrying", error)
                    self.layer_up = False
                    await asyncio.sleep(1)

        self._channel_receive = patient_receive

    async def connect(self) -> None:
        remember_server_loop()
        self.language = language_for_scope(self.scope)  # pushes speak the viewer's language
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        self.heartbeat_task = None
        self.joined = False
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        refusal = await database_sync_to_async(self._refusal)()
        if refusal:
            await self.close(code=refusal)
            return
        self.group = match_group(self.match_id)
        self.layer_up = await self._join_group()
        await self.accept()
        self.joined = True
        await database_sync_to_async(services.connection_open)(
            match_id=self.match_id, user=self.user, channel_name=self.channel_name
        )
        await self.send_board()
        self.heartbeat_task = asyncio.create_task(self.heartbeat())

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

    async def _join_group(self) -> bool:
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
            return True
        except Exception as error:  # the layer is down: the board still comes, pushes resume
            log.warning("channel layer unavailable for %s (%s)", self.channel_name, error)
            return False

    async def disconnect(self, code: int) -> None:
        if self.heartbeat_task:
            self.heartbeat_task.cancel()
        if not self.joined:
            return
        with contextlib.suppress(Exception):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await database_sync_to_async(services.connection_close)(
            match_id=self.match_id, channel_name=self.channel_name
        )

    async def heartbeat(self) -> None:
        """Keep presence fresh and rejoin the group: after a layer outage (a Redis restart
        forgets groups) the socket is re-added and sent the current board."""
        interval = settings.REALTIME_HEARTBEAT_SECONDS
        while True:
            await asyncio.sleep(interval)
            await database_sync_to_async(services.connection_touch)(channel_name=self.channel_name)
            up = await self._join_group()
            if up and not self.layer_up:
                await self.send_board()
            self.layer_up = up

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """A move over the socket: ``{"action": "play:JH", "version": 12}``."""
        try:
            content = json.loads(text_data or "")
            action = content["action"]
            version = int(content["version"])
            if not isinstance(action, str) or len(action) > 16:
                raise ValueError
        except (ValueError, KeyError, TypeError):
            with translation.override(self.language):
                await self.send(text_data=_error_frame(_("That move could not be read")))
            return
        try:
            await database_sync_to_async(self._move)(action, version)
        except (services.GameError, throttle.Throttled) as error:
            with translation.override(self.language):
                await self.send(text_data=_error_frame(error.message))
        # On success the broadcast after the commit brings the new board to every socket.

    def _move(self, action: str, version: int) -> None:
        with translation.override(self.language):  # a refusal is worded for this player
            throttle.move(self.user)
            services.move_apply(
                user=self.user, match_id=self.match_id, action=action, version=version
            )

    async def match_changed(self, event: dict) -> None:
        if event.get("presence"):
            selectors.forget_presence(self.match_id)
        await self.send_board()

    async def send_board(self) -> None:
        html = await database_sync_to_async(self._render_board)()
        await self.send(text_data=html)

    def _render_board(self) -> str:
        match = Match.objects.select_related("player0", "player1", "winner").get(pk=self.match_id)
        with translation.override(self.language):
            context = board_context(match, self.user, base_url=_base_url(self.scope))
            return render_to_string("match.html#board", context)


class LobbyConsumer(AsyncWebsocketConsumer):
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
