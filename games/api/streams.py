"""A feed's events on the wire: newline-delimited JSON over a streaming http response, or JSON
frames over a websocket; both run a ``Stream``. A match's stream subscribes to the match's
room in this process (``games.realtime.room``), as the pages' sockets do, and takes each
change from it; both kinds hear their token's revocation and their player's session checks
on the channel layer, and the process's heartbeat checks the token and keeps a player's
presence (``games.realtime.tables``). A stream sends its first events at once (``Feed.start``)
and ends with a ``closed`` event: its token revoked, or its match over (``close_code``: the
websocket's close code for each). An arena's stream hears its arena's group: its changes and,
in turn, its chat's."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import AsyncIterator

from channels.layers import get_channel_layer
from django.utils import translation

from .. import metrics, services
from ..presentation import refusals
from ..realtime.room import Gone, Mailbox
from ..realtime.sockets import NOT_ALLOWED, NOT_LOGGED_IN
from ..realtime.tables import Member, in_database, rooms
from ..services.events import twice
from .auth import Unauthorized, live_token
from .feeds import Closed, Feed, MatchFeed

log = logging.getLogger(__name__)


def line(event: dict) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


def closed_event(code: str, said_as: str | None = None) -> dict:
    """The last event of a stream that the server ends, in the player's words (those of the
    refusal ``said_as``, if not ``code``'s own: an arena's ``over``)."""
    words = refusals.words(services.GameError(said_as or code))
    return {"type": "closed", "code": code, "detail": words}


NORMAL_CLOSURE = 1000  # RFC 6455: the purpose the connection was for is fulfilled


def close_code(code: str) -> int:
    """The websocket's close code after the ``closed`` event ``code``."""
    return {"over": NORMAL_CLOSURE, "token_revoked": NOT_LOGGED_IN}.get(code, NOT_ALLOWED)


class Stream(Member):
    """One open stream of a feed: what its room, the channel layer and the heartbeat bring,
    one at a time, as the events to send (``events``)."""

    streams = True  # its room keeps the moves of the last versions (``tables.read_tables``)

    def __init__(self, feed: Feed, language: str, *, kind: str = "api_http"):
        self.feed = feed
        self.language = language
        self.kind = kind  # as the metrics count open streams: "api_http" or "api_websocket"
        self.counted = False
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.later: collections.deque = collections.deque()  # taken out of turn: next
        self.room = None
        self.mailbox = Mailbox(self._table)

    @property
    def presence_name(self) -> str:
        return self.feed.present

    async def open(self) -> None:
        """The stream is open (its feed arrived) and in its groups: first a catch-up (what
        was said between the feed's first read and the joining), then a match's stream
        follows the match's room."""
        metrics.socket_opened(self.kind)
        self.counted = True
        self.inbox.put_nowait(("beat", False))
        if self.feed.chats:
            self.inbox.put_nowait(("chat", (None, False)))  # and the lines said meanwhile
        if isinstance(self.feed, MatchFeed):
            self.room = await rooms().enter(self.feed.match_id)
            with contextlib.suppress(Gone):  # the next event says the match is gone
                await self.room.join(self.mailbox, self, presence=self.feed.playing)
        rooms().visit(self)

    async def close(self) -> None:
        if self.counted:
            self.counted = False
            metrics.socket_closed(self.kind)
        rooms().forget(self)
        await _presence(self.feed.leave)
        if self.room is not None:
            self.room.leave(self.mailbox, presence=self.feed.playing)

    def hear(self, message: dict) -> None:
        """The layer's news for the feed's groups (its token, its player; an arena's
        changes and its chat, which keeps its turn as a match's room's does)."""
        if message.get("type") == "arena.chat":
            self.chat_news(message["line"], message["removed"])
            return
        self.inbox.put_nowait(("layer", message))

    async def _table(self, revision: int, table) -> None:
        self.inbox.put_nowait(("table", table))

    async def beat(self, *, touch: bool) -> None:
        self.inbox.put_nowait(("beat", touch))

    def chat_news(self, line_id: int | None, removed: bool) -> None:
        """The news of the feed's chat: a match's from its room, an arena's from its group."""
        self.inbox.put_nowait(("chat", (line_id, removed)))

    async def events(self) -> AsyncIterator[tuple[list[dict], bool]]:
        """Each batch of events to send, with whether it is a quiet heartbeat (the http
        stream then sends a blank line, so proxies and clients know it is alive). Ends after
        a ``closed`` event: ``over`` once the feed has sent the state that shows its match
        over (at once if its first events did) and its rematch cannot come or is settled
        (``MatchFeed._settled``), or the one that ``Closed`` says."""
        if self.feed.finished:
            yield [self._closed("over")], False
            return
        while True:
            if not self.later:
                _cancelled_on_the_way()
            kind, item = self.later.popleft() if self.later else await self.inbox.get()
            try:
                if kind == "table":
                    events = self.feed.table_events(item)
                    if events is None:  # it missed more than the table holds
                        events = await in_database(_changed)(self.feed, self.language)
                    events += self.feed.opponent_events(item)
                    self.push_timed(self.room, item.version, "stream")
                elif kind == "chat":
                    events = await in_database(_chat)(self.feed, *item, self.language)
                else:
                    messages = [item if kind == "layer" else None, *self._news_waiting()]
                    events = await in_database(_on)(self.feed, messages, self.language)
            except Closed as closed:
                yield [self._closed(closed.code)], False
                return
            if self.feed.finished:
                yield [*events, self._closed("over")], False
                return
            yield events, kind == "beat" and bool(item) and not events

    def _news_waiting(self) -> list[dict | None]:
        """The layer's news and heartbeats already waiting behind the one being read: one
        read of the feed answers them all (a burst, an arena's round starting a hundred
        matches, told each player twice). A match's table waits its turn, in order."""
        news = []
        while not self.inbox.empty():
            kind, item = self.inbox.get_nowait()
            if kind in ("table", "chat"):
                self.later.append((kind, item))
                break
            news.append(item if kind == "layer" else None)
        return news

    def _closed(self, code: str) -> dict:
        with translation.override(self.language):
            return closed_event(code, self.feed.over if code == "over" else code)


def _cancelled_on_the_way() -> None:
    """Raises the cancel of a stream whose client went while a step was finishing, before the
    stream waits for its next event. Python 3.11's ``asyncio.wait_for`` (inside redis-py's
    sends) and asgiref's database calls return their result when a cancel lands as they
    finish, so the stream carried on to its wait and stayed open until its next heartbeat
    found the client gone. The task still counts the cancel asked of it."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _on(feed: Feed, messages: list[dict | None], language: str) -> list[dict]:
    """The events after the layer's ``messages`` (None: a heartbeat), read once: each is
    checked (a revoked token, an ended session), and the last that may bring news
    (``Feed.tells``) reads what changed: a burst ending in news for the pages alone (an
    account's ``goto``) still brings the news before it."""
    telling = [i for i, message in enumerate(messages) if feed.tells(message)]
    last = telling[-1] if telling else len(messages) - 1
    with translation.override(language):
        for i, message in enumerate(messages):
            if i != last:
                feed.check(message)
        return feed.on(messages[last])


def _chat(feed: Feed, line_id: int, removed: bool, language: str) -> list[dict]:
    """A chat's events, the quick messages in the stream's language."""
    with translation.override(language):
        return feed.chat_events(line_id, removed)


def _changed(feed: Feed, language: str) -> list[dict]:
    """A match's events read from the database (the room's table did not hold its moves)."""
    with translation.override(language):
        return feed.changed()


async def _presence(step, *args) -> None:
    """A stream's leaving (``Feed.leave``). One that fails is logged: the row expires."""
    try:
        await in_database(step)(*args)
    except Exception:
        log.warning("api stream: presence not recorded", exc_info=True)


async def ndjson(feed: Feed, first: list[dict], language: str) -> AsyncIterator[bytes]:
    """The http stream: ``first`` (read by the view, which refused the request if it had to,
    and had the feed arrive) at once, with the headers, then every event until the client
    goes or the stream ends (``Stream.events``)."""
    layer = get_channel_layer()
    stream = Stream(feed, language)
    hearing = channel = None
    try:
        # First, so the headers leave now: what is said while the stream joins its groups,
        # its catch-up brings (``Stream.open``).
        for event in first:
            yield line(event)
        channel = await layer.new_channel()
        for group in feed.groups():
            with contextlib.suppress(Exception):  # the layer is down: heartbeats catch up
                await twice(layer.group_add, group, channel)
        await stream.open()
        hearing = asyncio.ensure_future(_hear(layer, channel, stream))
        async for events, quiet in stream.events():
            if quiet:
                yield b"\n"
            for event in events:
                yield line(event)
    finally:
        if hearing is not None:
            hearing.cancel()
        for group in feed.groups() if channel else ():
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)
        await stream.close()


async def _hear(layer, channel: str, stream: Stream) -> None:
    while True:
        try:
            stream.hear(await layer.receive(channel))
        except asyncio.CancelledError:
            raise
        except Exception:  # the layer is away: the heartbeat checks the token meanwhile
            log.warning("api stream: layer receive failed", exc_info=True)
            await asyncio.sleep(1)


def authenticate_again(token_id: int, scope: str) -> None:
    """A socket's token, checked again for one of its moves (revoked or suspended: refused):
    the token's row alone, compiled once, as it runs for every move (the socket knows its
    player)."""
    row = live_token(token_id)
    if row is None:
        raise Unauthorized("unauthorized")
    if not row.allows(scope):
        raise services.NotAllowed("scope_missing", scope=scope)


def status_of(error: services.GameError) -> int:
    return 401 if isinstance(error, Unauthorized) else refusals.status(error)
