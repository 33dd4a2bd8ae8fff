"""``/api/v1/ws/account``, ``/api/v1/ws/matches/<id>?since=<version>`` and
``/api/v1/ws/arenas/<id>``: a feed's events as JSON frames (a ``streams.Stream``). Authenticated
by the ``Authorization: Bearer`` header, or (a browser's WebSocket sets no header) by the
subprotocols ``euchre.v1`` and ``euchre.token.<token>``, the socket then speaking ``euchre.v1``
(no cookie, so no origin check); refusals accept the socket, send an error frame and close with
the codes of ``games.realtime.sockets``. On a match's socket a player may also send moves,
``{"action": "play:JH", "version": 12}``, through the same pipeline as the site's (a refused one
gets an error frame, a stale one with the match now); the new state comes back through the
match's room."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs, urlsplit

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .. import services
from ..db import selectors
from ..i18n.languages import language_for_scope
from ..presentation import refusals
from ..public import shapes
from ..realtime.sockets import (
    NO_SUCH_MATCH,
    NOT_ALLOWED,
    NOT_LOGGED_IN,
    TOO_MANY,
    UNREADABLE,
    Dispatch,
)
from ..realtime.tables import in_database
from ..realtime.trace import frame_refused
from ..services import throttle
from ..services.events import twice
from ..web.moves import Unreadable, frame_of, move_submit
from .auth import (
    SUBPROTOCOL,
    stream_admit,
    stream_full,
    token_from_header,
    token_from_subprotocols,
)
from .cors import origins_allowed
from .feeds import AccountFeed, ArenaFeed, Feed, MatchFeed
from .streams import Stream, authenticate_again, close_code, status_of

# Sent when a heartbeat (``REALTIME_HEARTBEAT_SECONDS``) finds nothing else to send, as the
# http stream sends a blank line: a client that hears nothing for three knows it is cut off.
HEARTBEAT = json.dumps({"type": "heartbeat"})


class StreamConsumer(Dispatch, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        self.stream: Stream | None = None
        self.sending: asyncio.Task | None = None
        offered = self.scope.get("subprotocols") or []
        # Chosen whatever the token: a refusal must reach a browser as an error frame.
        await self.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
        if offered and SUBPROTOCOL not in offered:  # the socket would speak no protocol
            with translation.override(self.language):
                words = str(_("Offer the subprotocol %(protocol)s") % {"protocol": SUBPROTOCOL})
            await self._refuse("protocol_missing", words, UNREADABLE)
            return
        # A header sent is the token's one carrier, as for the front's limit (deploy/nginx.conf).
        header = _header(self.scope, b"authorization")
        token = token_from_header(header) if header else token_from_subprotocols(_sent(self.scope))
        try:
            if stream_full(token):  # from memory: no database thread
                raise services.TooOften("too_many_sockets")
            feed, first = await in_database(self._open)(token)
        except throttle.Throttled as error:
            await self._refuse("too_many", refusals.words(error), TOO_MANY, error.retry_after)
            return
        except services.GameError as error:
            with translation.override(self.language):
                words = refusals.words(error)
            status = status_of(error)
            codes = {400: UNREADABLE, 401: NOT_LOGGED_IN, 404: NO_SUCH_MATCH, 429: TOO_MANY}
            wait = refusals.retry_after(error) if status == 429 else None
            await self._refuse(error.code, words, codes.get(status, NOT_ALLOWED), wait)
            return
        for group in feed.groups():
            try:
                await twice(self.channel_layer.group_add, group, self.channel_name)
            except Exception:  # the layer is down: the heartbeat checks the token meanwhile
                break
        self.stream = Stream(feed, self.language, kind="api_websocket")
        await self.stream.open()
        await self._send_events(first)
        self.sending = asyncio.create_task(self._send_all())

    def _open(self, token: str | None) -> tuple[Feed, list[dict]]:
        kwargs = self.scope["url_route"]["kwargs"]
        with translation.override(self.language):
            row = stream_admit(token)  # at the account's cap: no more reads
            _origin_checked(self.scope, row.user_id)
            if "match_id" in kwargs:
                feed: Feed = MatchFeed(token=row, match_id=kwargs["match_id"], since=self._since())
            elif "arena_id" in kwargs:
                feed = ArenaFeed(token=row, arena_id=kwargs["arena_id"])
            else:
                feed = AccountFeed(token=row)
            first = feed.start()
            feed.arrive(self.channel_name)  # past the account's cap on streams: refused
            return feed, first

    def _since(self) -> int | None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        value = (query.get("since") or [""])[0]
        return int(value) if value.isdigit() else None

    async def _refuse(
        self, code: str, words: str, close_code: int, retry_after: int | None = None
    ) -> None:
        frame = {"type": "error", "code": code, "detail": words}
        if retry_after is not None:
            frame["retry_after"] = retry_after
        await self.send(text_data=json.dumps(frame))
        await self.close(code=close_code)

    async def _send_all(self) -> None:
        async for events, quiet in self.stream.events():
            if quiet:  # nothing for a heartbeat's while: the socket says it is alive
                await self.send(text_data=HEARTBEAT)
            await self._send_events(events)
            if events and events[-1]["type"] == "closed":
                await self.close(code=close_code(events[-1]["code"]))
                return

    async def disconnect(self, code: int) -> None:
        if self.sending is not None:
            self.sending.cancel()
        if self.stream is None:
            return
        for group in self.stream.feed.groups():
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:
                break
        await self.stream.close()

    async def dispatch(self, message: dict) -> None:
        if message["type"].startswith("websocket."):
            await super().dispatch(message)  # Dispatch's: no trip to close old connections
        elif self.stream is not None:  # the feed's groups: whatever they say, the feed decides
            self.stream.hear(message)

    async def _send_events(self, events: list[dict]) -> None:
        for event in events:
            await self.send(text_data=json.dumps(event, separators=(",", ":")))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        if self.stream is None or self.stream.room is None:
            await self._error(
                {"code": "no_messages", "detail": _("This connection takes no messages")}
            )
            return
        try:
            data = frame_of(text_data)
        except Unreadable:
            await self._error({"code": "unreadable", "detail": _("That move could not be read")})
            return
        # The stream's room has the move's table as it commits (realtime.tables.hand_in).
        error = await in_database(self._move)(data)
        if error is not None:
            await self._error(error)

    def _move(self, data: dict) -> dict | None:
        """Apply the move (the token checked again first): None, or the refusal."""
        feed = self.stream.feed
        with translation.override(self.language):
            try:
                authenticate_again(feed.token_id, "play")
                move_submit(user=feed.user, match_id=feed.match_id, data=data, way="api_socket")
            except Unreadable:
                return {"code": "unreadable", "detail": _("That move could not be read")}
            except throttle.Throttled as refused:
                return {"code": "too_many", "detail": refusals.words(refused),
                        "retry_after": refused.retry_after}  # fmt: skip
            except services.GameError as refused:
                error = {"code": refused.code, "detail": refusals.words(refused)}
                if refused.code == "stale":  # with the match now, as the http 409 has it
                    error["state"] = _match_now(feed)
                return error
        return None

    async def _error(self, error: dict) -> None:
        """A frame refused: said so to the program, and logged (by its refusal's code)."""
        frame_refused(self.scope, error["code"])
        with translation.override(self.language):
            frame = {
                "type": "error",
                **{k: str(v) if k == "detail" else v for k, v in error.items()},
            }
        await self.send(text_data=json.dumps(frame))


def _origin_checked(scope, user_id: int) -> None:
    """A socket opened by a web page (a browser sends its Origin; a program sends none) is the
    token's only from an origin its player lists on the settings page, as for the API's
    requests (CORS), or from the site's own pages."""
    origin = _header(scope, b"origin")
    if not origin or urlsplit(origin).netloc == _header(scope, b"host"):
        return
    if user_id not in origins_allowed().get(origin, ()):
        raise services.NotAllowed("origin_not_listed")


def _match_now(feed: Feed) -> dict:
    """The match as its player sees it now (``GET matches/<id>/view``'s answer)."""
    match = selectors.match_for_viewer(match_id=feed.match_id, user=feed.user)
    return shapes.answer(match, feed.user)


def _sent(scope) -> list[str]:
    """The subprotocols offered, as sent: daphne's ``subprotocols`` are percent-decoded (``%2E``
    a dot), which the front's limit does not read so. A test's scope may hold no header."""
    sent = _header(scope, b"sec-websocket-protocol")
    return sent.split(",") if sent else scope.get("subprotocols") or []


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers") or []:
        if key == name:
            return value.decode("latin-1")
    return ""
