"""Websocket consumers: thin. Authenticate, join the group, render the viewer's partial, send.

Client mistakes get an error frame, never a dropped socket. Refusals accept the socket and then
close it with a code the page can read (a socket closed before it is accepted reaches the browser
as a failed handshake, 1006, and the page would retry for ever): 4401 not logged in or the
session ended, 4403 not allowed to watch, 4404 no such match, 4429 too many sockets open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.conf import settings
from django.db.models import Prefetch, prefetch_related_objects
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from .. import services
from ..db import selectors, statements
from ..db.public import PLAYERS, PublicMatch, view_of
from ..engine import State
from ..i18n.languages import language_for_scope
from ..models import Match, MatchStatus, RatingChange
from ..presentation import hints, refusals
from ..presentation.board import board_context
from ..presentation.jinja import render_board
from ..services import throttle
from ..services.events import LOBBY_GROUP, lobby_user_group, match_group, twice, user_group
from ..web.moves import Unreadable, frame_of, move_submit
from . import sessions

log = logging.getLogger(__name__)

# Channels runs a process's database calls in one thread (thread-sensitive), so each socket's
# work would wait behind every other socket's round trips to the database. None of these calls
# keeps state in its thread: they share a few threads, each with its own connection.
_DATABASE_THREADS = ThreadPoolExecutor(
    max_workers=settings.REALTIME_DATABASE_THREADS, thread_name_prefix="sockets-db"
)


def in_database(func):
    """``func`` as a coroutine run in one of the sockets' database threads."""
    return database_sync_to_async(func, thread_sensitive=False, executor=_DATABASE_THREADS)


NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4403
NO_SUCH_MATCH = 4404
TOO_MANY = 4429


class SessionEnded(Exception):
    """The session this socket was opened with is over: nothing more is done for it."""


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

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        # Not Channels' receive_json: a frame that is no JSON object would raise out of it and
        # drop the socket.
        try:
            content = frame_of(text_data)
        except Unreadable:
            with translation.override(language_for_scope(self.scope)):
                await self.send_json({"error": _("That message could not be read")})
            return
        await self.send_json({"status": "ok", "echo": content})


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other websocket address: accepted to say so in words, then closed (4404), rather
    than a handshake that fails."""

    async def connect(self) -> None:
        await self.accept()
        with translation.override(language_for_scope(self.scope)):
            await self.send(text_data=json.dumps({"error": _("There is nothing here")}))
        await self.close(code=NO_SUCH_MATCH)


class PerLoop:
    """One instance per event loop (a server process has one; each async test has its own)."""

    _by_loop: weakref.WeakKeyDictionary

    def __init_subclass__(cls) -> None:
        cls._by_loop = weakref.WeakKeyDictionary()

    @classmethod
    def of_this_loop(cls):
        loop = asyncio.get_running_loop()
        if loop not in cls._by_loop:
            cls._by_loop[loop] = cls()
        return cls._by_loop[loop]


class Heartbeat(PerLoop):
    """One per server process. Every ``REALTIME_CATCH_UP_SECONDS`` one query reads the
    versions of its sockets' matches, and a socket whose board is behind is brought up to date
    (a push was lost, or a change came from a process the in-memory layer cannot hear); every
    ``REALTIME_HEARTBEAT_SECONDS`` one more marks all its sockets as connected (presence), and
    each socket rejoins its group (in case joining failed while the layer was down)."""

    def __init__(self) -> None:
        self.sockets: set[MatchConsumer] = set()
        self.task: asyncio.Task | None = None

    def add(self, consumer: MatchConsumer) -> None:
        self.sockets.add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run())

    def discard(self, consumer: MatchConsumer) -> None:
        self.sockets.discard(consumer)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        touched = loop.time()
        while self.sockets:  # ends with the last socket; the next one starts it again
            await asyncio.sleep(settings.REALTIME_CATCH_UP_SECONDS)
            sockets = list(self.sockets)
            touch = loop.time() - touched >= settings.REALTIME_HEARTBEAT_SECONDS
            try:
                versions = await in_database(self._check)(sockets, touch)
            except Exception:  # the database is away: the next beat tries again
                log.warning("heartbeat could not reach the database", exc_info=True)
                continue
            if touch:
                touched = loop.time()
            for consumer in sockets:
                if consumer in self.sockets:
                    try:
                        await consumer.catch_up(versions.get(consumer.match_id), rejoin=touch)
                    except Exception:  # one socket's trouble must not stop the others' beat
                        log.warning("heartbeat: socket %s", consumer.channel_name, exc_info=True)

    @staticmethod
    def _check(sockets: list[MatchConsumer], touch: bool) -> dict[int, int]:
        if touch:
            services.connections_touch(channel_names=[c.channel_name for c in sockets])
        return selectors.match_versions(match_ids={c.match_id for c in sockets})


class Boards(PerLoop):
    """This process's boards of the moment: a pushed event makes the match be read once per
    process (not once per socket) and each kind of viewer's board (seat or spectator, language,
    address) rendered once, then shared by every socket of that kind. Reads wanted while one is
    under way go together in the next one: one trip to the database thread for all of them."""

    KEEP_SECONDS = 2.0  # long enough for every socket to take the event from the layer

    def __init__(self) -> None:
        self.entries: dict[tuple, tuple[asyncio.Future, dict]] = {}
        self.wanted: dict[int, list[asyncio.Future]] = {}
        self.reader: asyncio.Task | None = None
        self.moves: dict[int, set[asyncio.Future]] = {}  # moves under way here, by match

    async def board(self, consumer: MatchConsumer, key: tuple) -> tuple[int, str] | None:
        """The board ``consumer``'s viewer sees after the event ``key`` (match id first); None
        if the match is now closed to that viewer (a private match they saw open started)."""
        entry = self.entries.get(key)
        if entry is None and _is_a_moves(key) and self.moves.get(key[0]):
            # A move's event while a move of this match is under way here: its push can come
            # back before the mover's socket primed the boards (``prime``). Wait for that.
            await asyncio.wait(set(self.moves[key[0]]), timeout=1.0)
            entry = self.entries.get(key)
        if entry is None:
            entry = self.entries[key] = (self._read(key[0]), {})
            asyncio.get_running_loop().call_later(self.KEEP_SECONDS, self.entries.pop, key, None)
        read, rendered = entry
        table = await asyncio.shield(read)
        if table.match.closed_to(consumer.user):
            return None
        kind = self.kind(consumer, table)
        consumer.ratings = table.match.ratings
        if kind not in rendered:
            rendered[kind] = consumer.render(table)
        return table.match.version, rendered[kind]

    def prime(self, consumer: MatchConsumer, key: tuple, table: Table, html: str) -> None:
        """A match just changed by ``consumer`` (a move made here) and the board it was sent:
        the event that change causes needs no read of the match in this process (the
        opponent's socket, when it is here, is rendered from this), nor that board again."""
        if key in self.entries:
            return
        loop = asyncio.get_running_loop()
        read = loop.create_future()
        read.set_result(table)
        self.entries[key] = (read, {self.kind(consumer, table): html})
        loop.call_later(self.KEEP_SECONDS, self.entries.pop, key, None)

    def moving(self, match_id: int) -> asyncio.Future:
        """A move on the match is under way in this process (``moved`` when it is over)."""
        done = asyncio.get_running_loop().create_future()
        self.moves.setdefault(match_id, set()).add(done)
        return done

    def moved(self, match_id: int, done: asyncio.Future) -> None:
        waiting = self.moves.get(match_id, set())
        waiting.discard(done)
        if not waiting:
            self.moves.pop(match_id, None)
        if not done.done():
            done.set_result(None)

    @staticmethod
    def kind(consumer: MatchConsumer, table: Table) -> tuple:
        """What a board depends on besides the match: the viewer's seat, language and address."""
        return (
            table.match.seat_of(consumer.user),
            consumer.language,
            consumer.base_url,
            consumer.casual_for_you,
        )

    def _read(self, match_id: int) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.wanted.setdefault(match_id, []).append(future)
        if self.reader is None or self.reader.done():
            self.reader = asyncio.create_task(self._read_wanted())
        return future

    async def _read_wanted(self) -> None:
        while self.wanted:
            batch, self.wanted = self.wanted, {}
            try:
                read = await in_database(_read_many)(list(batch))
            except Exception as error:  # each socket that waited hears of it
                read = {match_id: error for match_id in batch}
            for match_id, futures in batch.items():
                found = read.get(match_id, Match.DoesNotExist())
                for future in futures:
                    if future.done():
                        continue
                    if isinstance(found, Exception):
                        future.set_exception(found)
                    else:
                        future.set_result(found)


class Table(NamedTuple):
    """A match as every board of it is rendered: its public face and state (read once per
    event in a process), which of its players are connected and how many others watch."""

    match: PublicMatch
    state: State | None
    present: frozenset[int]
    watching: int


# A match read alone is compiled once (games.db.prepared): up to FEW of those cost less CPU than
# one query for them all built afresh.
FEW = 3


def _read_many(match_ids: list[int]) -> dict[int, Table]:
    """The matches as their boards show them (rendered later without the database): one
    query, a second for finished matches' rating changes, presence only when this process does
    not remember it. The state is decoded here, in a database thread, not in the event loop."""
    if len(match_ids) <= FEW:  # the usual batch: one match, a few at a busy moment
        matches = [m for m in (statements.MATCH_WITH_PLAYERS.first(pk) for pk in match_ids) if m]
    else:
        matches = list(Match.objects.select_related(*PLAYERS).filter(pk__in=match_ids))
    finished = [match for match in matches if match.status == MatchStatus.FINISHED]
    if finished:
        changes = RatingChange.objects.select_related("player")
        prefetch_related_objects(finished, Prefetch("rating_changes", queryset=changes))
    here = selectors.presence(match_ids=[match.pk for match in matches])
    return {
        m.pk: Table(PublicMatch.of(m), m.state, here[m.pk].players, here[m.pk].watching)
        for m in matches
    }


def _read(match_id: int) -> Table:
    found = _read_many([match_id])
    if match_id not in found:
        raise Match.DoesNotExist
    return found[match_id]


def _event_key(match_id: int, event: dict) -> tuple:
    """Which change of the match an event tells of: its boards are read and rendered once."""
    version, presence, opened = event.get("version"), event.get("presence"), event.get("opened")
    return (match_id, version, bool(presence), opened or "")


def _is_a_moves(key: tuple) -> bool:
    """Whether the event ``key`` (``_event_key``) tells of a move: nobody arrived or left."""
    return len(key) == 4 and not key[2] and not key[3]


def _base_url(scope) -> str:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}" if host else ""


def _error_frame(message: str) -> str:
    return render_to_string("partials/error_frame.html", {"error": message})


class MatchConsumer(PlayerSockets, Dispatch, AsyncWebsocketConsumer):
    """``/ws/matches/<id>/``: the board of one match, pushed after every committed change."""

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)  # pushes speak the viewer's language
        self.base_url = _base_url(self.scope)
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        self.joined = False
        self.playing = False
        self.casual_for_you = False  # an open rated match that would not count for this viewer
        self.shown_version = 0
        await self.accept()  # refusals below close with a code the page can read
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        refusal = await in_database(self._refusal)()
        if refusal:
            await self.close(code=refusal)
            return
        self.group = match_group(self.match_id)
        self.session_key = self.scope["session"].session_key
        await self.join_player_group()
        await self._join_group()
        try:
            shown = await in_database(self._arrive)()
        except services.TooOften:  # too many sockets: the player's, or watchers of the match
            await self.close(code=TOO_MANY)
            return
        self.joined = True
        await self._show(*shown)
        Heartbeat.of_this_loop().add(self)

    def _arrive(self) -> tuple[int, str]:
        """One trip to the database thread: the socket is recorded (if a player's, the others
        get the news) and this viewer's board is rendered from the match read there."""
        match = services.connection_open(
            match_id=self.match_id, user=self.user, channel_name=self.channel_name
        )
        self.playing = match.seat_of(self.user) is not None
        if match.status == MatchStatus.OPEN and match.rated and not self.playing:
            self.casual_for_you = selectors.rated_today_capped(user=self.user, other=match.player0)
        table = _table(match)
        self.ratings = table.match.ratings
        return match.version, self.render(table)

    def _refusal(self) -> int | None:
        """The close code that refuses this viewer, or None."""
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return NO_SUCH_MATCH
        if match.closed_to(self.user):
            return NOT_ALLOWED
        return None

    async def _join_group(self) -> None:
        try:
            await twice(self.channel_layer.group_add, self.group, self.channel_name)
        except Exception as error:  # the layer is down: the heartbeat tries again
            log.warning("channel layer unavailable for %s (%s)", self.channel_name, error)

    async def disconnect(self, code: int) -> None:
        if not self.user.is_authenticated or not hasattr(self, "group"):
            return  # refused before it joined anything
        await self.leave_player_group()
        with contextlib.suppress(Exception):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if not self.joined:
            return
        Heartbeat.of_this_loop().discard(self)
        await in_database(services.connection_close)(
            match_id=self.match_id, channel_name=self.channel_name, playing=self.playing
        )

    async def catch_up(self, version: int | None, rejoin: bool = False) -> None:
        """The heartbeat's visit: rejoin the group (in case joining failed), and if the match
        has moved past the board shown here (a push was lost, or the change came from a
        process this one cannot hear), send the current one."""
        if rejoin:
            await self.join_player_group()
            await self._join_group()
        if version is not None and version > self.shown_version:
            key = (self.match_id, version)
            # A move's own board may have gone out while this one was read: not twice.
            await self._show_or_close(await Boards.of_this_loop().board(self, key), again=False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """A move over the socket: ``{"action": "play:JH", "version": 12}``, read like the
        page's form post (``moves.move_submit``)."""
        try:
            content = frame_of(text_data)
            if content.get("hint"):  # {"hint": 1}: the Hint button's question, not a move
                await self.send(text_data=await in_database(self._hint)())
                return
            boards = Boards.of_this_loop()
            moving = boards.moving(self.match_id)
            try:
                version, html, table = await in_database(self._move)(content)
                # The broadcast after the commit brings the move to every other socket: in
                # this process, from the match as this move left it (the event is a move's,
                # nobody arrived or left), not read again.
                key = _event_key(self.match_id, {"version": version})
                boards.prime(self, key, table, html)
            finally:
                boards.moved(self.match_id, moving)
        except (ValueError, Unreadable):  # not JSON, or not a move
            with translation.override(self.language):
                await self.send(text_data=_error_frame(_("That move could not be read")))
            return
        except SessionEnded:
            await self.close(code=NOT_LOGGED_IN)
            return
        except (services.GameError, throttle.Throttled) as error:
            await self._refused(error)
            return
        # The mover's board comes straight back (even with the channel layer down), unless
        # the heartbeat's catching up sent this version meanwhile.
        await self._show(version, html, again=False)

    async def _refused(self, error: Exception) -> None:
        """The table as it is now, then why the move was refused, in this viewer's language."""
        await self.send_board()
        with translation.override(self.language):
            await self.send(text_data=_error_frame(refusals.words(error)))

    def _hint(self) -> str:
        """The hint frame (``partials/hint.html``, swapped into ``#hint``); a refusal is an
        error frame."""
        self.check_session()
        with translation.override(self.language):
            try:
                _match, found = services.hint_for(user=self.user, match_id=self.match_id)
            except (services.GameError, throttle.Throttled) as error:
                return _error_frame(refusals.words(error))
            what, why = hints.hint_words(found)
            context = {"hint_action": what, "hint_why": why}
            inner = render_to_string("partials/hint.html", context)
            return f'<div id="hint" class="hint" role="status" hx-swap-oob="true">{inner}</div>'

    def _move(self, content: dict) -> tuple[int, str, Table]:
        self.check_session()  # a session ended since the last frame: nothing is done for it
        with translation.override(self.language):  # a refusal is worded for this player
            match = move_submit(user=self.user, match_id=self.match_id, data=content)
        # The seats' ratings change only when a match ends: until then, those last read here.
        table = _table(match, None if match.is_over else self.ratings)
        return match.version, self.render(table), table

    async def match_changed(self, event: dict) -> None:
        if event.get("presence"):
            selectors.forget_presence(self.match_id)
        if event.get("opened") == self.channel_name:
            return  # the news of this socket's own opening: its board went out with it
        version = event.get("version")
        if version is not None and version <= self.shown_version:
            return  # this socket already shows this board (the mover's own)
        key = _event_key(self.match_id, event)
        # A move's board that the heartbeat's catching up sent meanwhile is not sent twice;
        # news of who is connected is, at the same version.
        again = version is None or bool(event.get("presence"))
        await self._show_or_close(await Boards.of_this_loop().board(self, key), again=again)

    async def send_board(self) -> None:
        await self._show_or_close(await in_database(self._render_board)())

    async def _show_or_close(self, shown: tuple[int, str] | None, *, again: bool = True) -> None:
        if shown is None:  # a private match this socket saw open has started: not for it
            await self.close(code=NOT_ALLOWED)
            return
        await self._show(*shown, again=again)

    def _render_board(self) -> tuple[int, str] | None:
        table = _read(self.match_id)
        if table.match.closed_to(self.user):
            return None
        return table.match.version, self.render(table)

    async def _show(self, version: int, html: str, *, again: bool = True) -> None:
        """Send a board, unless this socket already shows a later one: a push can overtake a
        board read from the database a moment earlier, and the page must not step back.
        ``again``: also when it shows this version (who is connected changed; a refusal)."""
        if version < self.shown_version or (version == self.shown_version and not again):
            return
        self.shown_version = version
        await self.send(text_data=html)

    def render(self, table: Table) -> str:
        match = table.match
        view = view_of(table.state, match.seat_of(self.user))
        with translation.override(self.language):
            context = board_context(
                match, view, self.user, present=table.present, spectators=table.watching,
                casual_for_you=self.casual_for_you, base_url=self.base_url,
            )  # fmt: skip
            return render_board(context)


def _table(match: Match, ratings: tuple[str, str] | None = None) -> Table:
    """A match just read or written in this thread, as its boards show it (``ratings``: the
    seats' ratings when the caller knows them)."""
    here = selectors.presence(match_ids=[match.pk])[match.pk]
    return Table(PublicMatch.of(match, ratings), match.state, here.players, here.watching)


class LobbyLists(PerLoop):
    """The lobby's shared lists (matches waiting for an opponent, matches to watch), read once
    per event in this process and rendered once per language, for every lobby socket."""

    KEEP_SECONDS = 2.0

    def __init__(self) -> None:
        self.entries: dict[tuple, tuple[asyncio.Future, dict]] = {}

    async def open_list(self, consumer: LobbyConsumer, key: tuple) -> str:
        entry = self.entries.get(key)
        if entry is None:
            read = asyncio.ensure_future(in_database(selectors.lobby_open)())
            entry = self.entries[key] = (read, {})
            asyncio.get_running_loop().call_later(self.KEEP_SECONDS, self.entries.pop, key, None)
        read, rendered = entry
        context = await read
        if consumer.language not in rendered:
            rendered[consumer.language] = consumer.render("lobby.html#pushed-open", context)
        return rendered[consumer.language]


class LobbyConsumer(PlayerSockets, Dispatch, AsyncWebsocketConsumer):
    """``/ws/lobby/``: the lobby's lists, pushed when a match opens, starts or ends. The list
    every player shares is rendered once per process; a player's own lists come through a
    group of their own, only when their own matches changed."""

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        self.base_url = _base_url(self.scope)
        self.user = self.scope["user"]
        await self.accept()
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        self.session_key = self.scope["session"].session_key
        await self.join_player_group()
        self.groups_joined = [LOBBY_GROUP, lobby_user_group(self.user.pk)]
        for group in self.groups_joined:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_add(group, self.channel_name)
        self.own_open, self.casual_with = await in_database(self._mine_now)()

    async def disconnect(self, code: int) -> None:
        if not self.user.is_authenticated:
            return
        await self.leave_player_group()
        for group in getattr(self, "groups_joined", []):
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        with translation.override(self.language):
            await self.send(text_data=_error_frame(_("The lobby takes no messages")))

    async def lobby_mine(self, event: dict) -> None:
        await self.send(text_data=await in_database(self._render_mine)())

    async def lobby_changed(self, event: dict) -> None:
        # The player's own open match is not theirs to join, and a match with someone they
        # played today's rated matches with says it would be casual: then a list of their own.
        if self.own_open or self.casual_with:
            html = await in_database(self._render_open_for_me)()
        else:
            key = (event.get("match_id"), event.get("version"))
            html = await LobbyLists.of_this_loop().open_list(self, key)
        await self.send(text_data=html)

    def _mine_now(self) -> tuple[set[int], set[int]]:
        """The player's open matches, and the players with whom a match would be casual."""
        own = set(selectors.my_open_matches(user=self.user).values_list("pk", flat=True))
        return own, selectors.rated_today_capped_opponents(user=self.user)

    def _render_mine(self) -> str:
        context = selectors.lobby_mine(user=self.user)
        self.own_open = {match.pk for match in context["my_open"]}
        self.casual_with = selectors.rated_today_capped_opponents(user=self.user)
        return self.render("lobby.html#pushed-mine", context)

    def _render_open_for_me(self) -> str:
        return self.render("lobby.html#pushed-open", selectors.lobby_open(exclude_user=self.user))

    def render(self, template: str, context: dict) -> str:
        with translation.override(self.language):
            return render_to_string(template, {**context, "base_url": self.base_url})


class UserConsumer(PlayerSockets, Dispatch, AsyncWebsocketConsumer):
    """``/ws/me/``: every page of a logged-in player. Sends the challenges banner (challenges
    to answer, and the player's own waiting for an answer) whenever they change, and takes the
    page to a match that has just started for the player (a rematch or a challenge accepted).
    Like the player's other sockets it closes when their session ends."""

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        self.user = self.scope["user"]
        await self.accept()  # a refusal below closes with a code the page can read
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        self.session_key = self.scope["session"].session_key
        await self.join_player_group()
        # A page still loading when the player's challenge was accepted missed the push that
        # takes it to the match: it goes there now.
        await self.send(text_data=await in_database(self._render)(catch_up=True))

    async def disconnect(self, code: int) -> None:
        if self.user.is_authenticated:
            await self.leave_player_group()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        with translation.override(self.language):
            await self.send(text_data=_error_frame(_("This connection takes no messages")))

    async def user_changed(self, event: dict) -> None:
        html = await in_database(self._render)()
        if event.get("goto"):
            html += render_to_string("partials/challenges.html#goto", {"match_id": event["goto"]})
        await self.send(text_data=html)

    def _render(self, catch_up: bool = False) -> str:
        with translation.override(self.language):
            context = selectors.pending_challenges(user=self.user)
            html = render_to_string("partials/challenges.html#banner", context)
        started = selectors.match_just_started(user=self.user) if catch_up else None
        if started is not None:
            html += render_to_string("partials/challenges.html#goto", {"match_id": started})
        return html
