"""A feed's events on the wire: newline-delimited JSON over a streaming http response, or
JSON frames over a websocket. Both join the feed's groups first and then catch up by version
(nothing said between the first read and the joining is lost), check the token and catch up
again at each heartbeat (a push lost while the layer was away), and end as soon as the token
is revoked: its revocation is pushed to them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import AsyncIterator
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from .. import services
from ..i18n.languages import language_for_scope
from ..presentation import refusals
from ..realtime.consumers import Dispatch, in_database
from ..services import throttle
from ..services.events import twice
from ..web.moves import Unreadable, frame_of, move_submit
from .auth import Unauthorized, authenticate, live_token, token_from_header
from .feeds import AccountFeed, Closed, Feed, MatchFeed, remember_move

log = logging.getLogger(__name__)

NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4403
NO_SUCH_MATCH = 4404
TOO_MANY = 4429


def line(event: dict) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


def closed_event(code: str) -> dict:
    """The last event of a stream that the server ends, in the player's words."""
    return {"type": "closed", "code": code, "detail": refusals.words(services.GameError(code))}


def _catch_up_seconds() -> float:
    return settings.REALTIME_CATCH_UP_SECONDS


async def ndjson(feed: Feed, first: list[dict], language: str) -> AsyncIterator[bytes]:
    """The http stream: ``first`` (read by the view, which refused the request if it had to),
    then every event until the client goes or the token is revoked. A blank line is sent at
    each heartbeat so that proxies and clients know the stream is alive."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    groups = feed.groups()
    receiving: asyncio.Future | None = None
    try:
        for group in groups:
            with contextlib.suppress(Exception):  # the layer is down: heartbeats catch up
                await twice(layer.group_add, group, channel)
        await _presence(feed.arrive, channel)
        for event in first:
            yield line(event)
        loop = asyncio.get_running_loop()
        beat = loop.time()
        message: dict | None = {"type": "catch.up"}  # joined: whatever came since the read
        while True:
            if loop.time() - beat >= settings.REALTIME_HEARTBEAT_SECONDS:
                beat = loop.time()
                await _presence(feed.still_here)  # busy or idle, the stream is here
                if message is None:
                    yield b"\n"
            if message is None or feed.wants(message):
                try:
                    events = await in_database(_on)(feed, message, language)
                except Closed as closed:
                    with translation.override(language):
                        yield line(closed_event(closed.code))
                    return
                for event in events:
                    yield line(event)
            if receiving is None:
                receiving = asyncio.ensure_future(layer.receive(channel))
            done, _pending = await asyncio.wait({receiving}, timeout=_catch_up_seconds())
            message = None
            if receiving in done:
                try:
                    message = receiving.result()
                except Exception:  # the layer is away: catch up by version meanwhile
                    log.warning("api stream: layer receive failed", exc_info=True)
                    await asyncio.sleep(_catch_up_seconds())
                receiving = None
    finally:
        if receiving is not None:
            receiving.cancel()
        for group in groups:
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)
        await _presence(feed.leave)


async def _presence(step, *args) -> None:
    """One step of a stream's presence (``Feed.arrive``, ``still_here``, ``leave``). One that
    fails is logged and the stream serves on: the player shows as away, or the row expires
    (``PRESENCE_TIMEOUT``), and the next beat tries again."""
    try:
        await in_database(step)(*args)
    except Exception:
        log.warning("api stream: presence not recorded", exc_info=True)


def _on(feed: Feed, message: dict | None, language: str) -> list[dict]:
    with translation.override(language):
        return feed.on(None if message and message["type"] == "catch.up" else message)


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers") or []:
        if key == name:
            return value.decode("latin-1")
    return ""


class StreamConsumer(Dispatch, AsyncWebsocketConsumer):
    """``/api/v1/ws/account`` and ``/api/v1/ws/matches/<id>?since=<version>``: a feed's events
    as JSON frames. Authenticated by the ``Authorization: Bearer`` header (no cookie, so no
    origin check); refusals accept the socket, send an error frame and close with 4401 (no
    valid token), 4403 (a scope missing, not open to watch), 4404 (no such match) or 4429. On
    a match's socket a player may also send moves, ``{"action": "play:JH", "version": 12}``,
    through the same pipeline as the site's (a refused one gets an error frame)."""

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        self.feed: Feed | None = None
        self.lock = asyncio.Lock()
        self.beat: asyncio.Task | None = None
        self.last_event = 0.0  # when the socket last handled an event (the loop's clock)
        await self.accept()
        try:
            self.feed, first = await in_database(self._open)()
        except throttle.Throttled as error:
            await self._refuse("too_many", refusals.words(error), TOO_MANY)
            return
        except services.GameError as error:
            with translation.override(self.language):
                words = refusals.words(error)
            code = {401: NOT_LOGGED_IN, 404: NO_SUCH_MATCH}.get(_status(error), NOT_ALLOWED)
            await self._refuse(error.code, words, code)
            return
        for group in self.feed.groups():
            with contextlib.suppress(Exception):
                await twice(self.channel_layer.group_add, group, self.channel_name)
        await _presence(self.feed.arrive, self.channel_name)
        await self._send_events(first)
        await self._handle({"type": "catch.up"})
        self.beat = asyncio.create_task(self._heartbeat())

    def _open(self) -> tuple[Feed, list[dict]]:
        kwargs = self.scope["url_route"]["kwargs"]
        token = token_from_header(_header(self.scope, b"authorization"))
        with translation.override(self.language):
            row = authenticate(token, "read")
            if "match_id" in kwargs:
                feed: Feed = MatchFeed(token=row, match_id=kwargs["match_id"], since=self._since())
            else:
                feed = AccountFeed(token=row)
            return feed, feed.start()

    def _since(self) -> int | None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        value = (query.get("since") or [""])[0]
        return int(value) if value.isdigit() else None

    async def _refuse(self, code: str, words: str, close_code: int) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "detail": words}))
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        if self.beat is not None:
            self.beat.cancel()
        if self.feed is None:
            return
        for group in self.feed.groups():
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(group, self.channel_name)
        await _presence(self.feed.leave)

    async def dispatch(self, message: dict) -> None:
        if message["type"].startswith("websocket."):
            await super().dispatch(message)  # Dispatch's: no trip to close old connections
        elif self.feed is not None:  # the feed's groups: whatever they say, the feed decides
            await self._handle(message)

    async def _heartbeat(self) -> None:
        """Check the token and catch up when nothing came for a while (as the http stream
        does): sockets opened together do not all read the database at the same moment."""
        loop = asyncio.get_running_loop()
        every = _catch_up_seconds()
        await asyncio.sleep(every * random.uniform(0.5, 1.0))
        touched = loop.time()
        while True:
            if loop.time() - touched >= settings.REALTIME_HEARTBEAT_SECONDS:
                touched = loop.time()
                await _presence(self.feed.still_here)
            idle = loop.time() - self.last_event
            if idle < every:
                await asyncio.sleep(every - idle)
                continue
            try:
                await self._handle(None)
            except Exception:  # one beat's trouble must not end the next ones
                log.warning("api socket heartbeat", exc_info=True)
            await asyncio.sleep(every)

    async def _handle(self, message: dict | None) -> None:
        if message is not None and not self.feed.wants(message):
            return
        self.last_event = asyncio.get_running_loop().time()
        async with self.lock:  # a push, a beat and a move's answer: one at a time, in order
            try:
                events = await in_database(_on)(self.feed, message, self.language)
            except Closed as closed:
                with translation.override(self.language):
                    await self.send(text_data=json.dumps(closed_event(closed.code)))
                await self.close(code=NOT_LOGGED_IN if closed.code == "token_revoked" else 4403)
                return
            await self._send_events(events)

    async def _send_events(self, events: list[dict]) -> None:
        for event in events:
            await self.send(text_data=json.dumps(event, separators=(",", ":")))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        if not isinstance(self.feed, MatchFeed):
            await self._error("no_messages", _("This connection takes no messages"))
            return
        try:
            data = frame_of(text_data)
        except Unreadable:
            await self._error("unreadable", _("That move could not be read"))
            return
        async with self.lock:  # the mover's own state goes out in order with the others
            events, error = await in_database(self._move)(data)
            await self._send_events(events)
        if error is not None:
            await self.send(text_data=json.dumps(error))

    def _move(self, data: dict) -> tuple[list[dict], dict | None]:
        """Apply the move (the token checked again first) and read the mover's new state, in
        one trip to the database thread: the events to send, and the refusal if any (then the
        events are whatever else is new)."""
        error = None
        with translation.override(self.language):
            try:
                authenticate_again(self.feed.token_id, "play")
                user = self.feed.user
                match = move_submit(user=user, match_id=self.feed.match_id, data=data, api=True)
                remember_move(match, user=user, action=str(data["action"]))
            except Unreadable:
                error = {"code": "unreadable", "detail": _("That move could not be read")}
            except throttle.Throttled as refused:
                error = {"code": "too_many", "detail": refusals.words(refused),
                         "retry_after": refused.retry_after}  # fmt: skip
            except services.GameError as refused:
                error = {"code": refused.code, "detail": refusals.words(refused)}
            try:
                # Read once for this process's streams of the match (the opponent's shares it).
                at_least = None if error else match.version
                events = self.feed.changed(at_least=at_least)
            except Closed:
                events = []  # the next beat or push closes the socket
        return events, None if error is None else {"type": "error", **error}

    async def _error(self, code: str, words: str, **extra) -> None:
        with translation.override(self.language):
            frame = {"type": "error", "code": code, "detail": str(words), **extra}
        await self.send(text_data=json.dumps(frame))


def authenticate_again(token_id: int, scope: str) -> None:
    """A socket's token, checked again for one of its moves (revoked or suspended: refused):
    the token's row alone, compiled once, as it runs for every move (the socket knows its
    player)."""
    row = live_token(token_id)
    if row is None:
        raise Unauthorized("unauthorized")
    if not row.allows(scope):
        raise services.NotAllowed("scope_missing", scope=scope)


def _status(error: services.GameError) -> int:
    return 401 if isinstance(error, Unauthorized) else refusals.status(error)
