"""One room per match in each server process: the match's latest table, changed one update at
a time, so that what every page and stream of the match shows only ever moves forward.

A room takes every update that reaches the process (a move made here, an event from the
channel layer, the heartbeat's catching up, a socket opening or closing) in order. Updates that
need the database are read by the room's one runner, one read after another, so a read never
overwrites a later one; a table handed in (a move made in this process, as it commits and
before its push goes out) is taken only if its version is newer, and is never read back.
Each change that shows gets the next *revision*; every subscriber (a page's socket, the API's
websocket or NDJSON stream) is offered the room's latest table and shows only revisions newer
than the one it shows (``Mailbox``). A room with no subscriber is dropped.

Nothing here knows Channels or the database: a room is given a ``read`` coroutine, and its
subscribers decide how a table is shown (``games.realtime.tables`` reads and renders).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # after a failed read, before the next


class Table(Protocol):
    """What a room needs of a match's table: its version and who is at it."""

    @property
    def version(self) -> int: ...

    present: frozenset[int]
    watching: int

    def with_presence(self, present: frozenset[int], watching: int) -> Table: ...


@dataclass(frozen=True)
class Read:
    """The answer to one of a room's reads: the table (None if it was not asked for, or the
    match is gone) and who is at it (None if not asked for: else its ``players`` with an open
    socket, on any process, and how many others are ``watching``, as
    ``games.db.selectors.Presence`` has them)."""

    table: Any = None
    presence: Any = None
    gone: bool = False


# read(match_id, match=..., presence=...) -> Read: the room's only way to the database.
Reader = Callable[..., Awaitable[Read]]


class Gone(Exception):
    """The match is not in the database (any more)."""


@dataclass(eq=False)
class Mailbox:
    """A subscriber's end of a room: it is offered each new revision and delivers the latest
    one it has not shown, one delivery at a time, so what it sends only ever moves forward.
    ``deliver(revision, table)`` sends it (a page's board, a stream's events)."""

    deliver: Callable[[int, Any], Awaitable[None]]
    shown: int = 0
    latest: tuple[int, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task | None = None

    def offer(self, revision: int, table) -> None:
        if revision <= self.shown or (self.latest and revision <= self.latest[0]):
            return
        self.latest = (revision, table)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        while self.latest is not None:
            async with self.lock:
                await self._deliver_latest()

    async def _deliver_latest(self, again: tuple[int, Any] | None = None) -> None:
        latest, self.latest = self.latest, None
        if again is not None and (latest is None or again[0] >= latest[0]):
            latest = again  # shown even if it is the one shown
        elif latest is None or latest[0] <= self.shown:
            return
        self.shown = max(self.shown, latest[0])
        try:
            await self.deliver(*latest)
        except Exception:  # one subscriber's trouble is not the room's
            log.warning("a room's subscriber failed to take revision %s", latest[0], exc_info=True)

    async def show_again(self, revision: int, table, then: Callable[[], Awaitable[None]]):
        """Deliver the latest table even if it is the one shown (a refusal shows the table as it
        is, then why), then ``then()``, before anything newer."""
        async with self.lock:
            await self._deliver_latest(again=(revision, table))
            await then()

    def close(self) -> None:
        self.latest = None
        if self.task is not None and not self.task.done():
            self.task.cancel()


@dataclass(eq=False)
class _Wanted:
    match: bool = False
    presence: bool = False
    at_least: int = 0  # the version an event or a catch-up says the match reached
    waiting: list[asyncio.Future] = field(default_factory=list)


class Room:
    """One match's latest table in this process, and the subscribers it is shown to."""

    def __init__(self, match_id: int, read: Reader, *, on_empty: Callable[[Room], None]):
        self.match_id = match_id
        self._read = read
        self._on_empty = on_empty
        self.table = None  # the latest table, None until the first read
        self.revision = 0
        self.gone = False
        self.subscribers: dict[Mailbox, Any] = {}
        self._wanted = _Wanted()
        self._given = None  # the newest table handed in (a move made here), not yet taken
        self._runner: asyncio.Task | None = None
        # (version, when it was committed) of the latest change whose commit time came with it
        # (a hand-in, an event): its subscribers time their push of it (games.metrics).
        self.stamped: tuple[int, float] | None = None

    # The updates.
    async def join(self, mailbox: Mailbox, member=None, *, presence: bool = False) -> None:
        """Subscribe ``mailbox`` and offer it the table as it is (read first if the room has
        none; with presence read again first if ``presence``: a player's socket just opened).
        ``member``: what else the subscriber is (``tables.Member``: what the heartbeat asks of
        it; an API stream keeps the room's last moves)."""
        self.subscribers[mailbox] = member
        if self.table is None or presence:
            await self.want(match=self.table is None, presence=True, wait=True)
        if self.gone:
            raise Gone
        if self.table is not None:
            mailbox.offer(self.revision, self.table)

    def leave(self, mailbox: Mailbox, *, presence: bool = False) -> None:
        """Unsubscribe ``mailbox`` (``presence``: a player's socket closed, and its row is
        gone: who is at the match is read again for the others)."""
        mailbox.close()
        self.subscribers.pop(mailbox, None)
        if not self.subscribers:
            self._on_empty(self)
        elif presence:
            self.want(presence=True)

    def hand_in(self, table) -> None:
        """``table``, written by a move made in this process, needs no read: taken if newer.
        It comes as the move commits, before the move's push (``events.hand_in_on_commit``),
        so that push finds the room at its version already."""
        if self._given is None or table.version > self._given.version:
            self._given = table
        self._start()

    def stamp(self, version: int | None, at: float | None) -> None:
        """``version`` was committed at ``at`` (``time.time()``), as its hand-in or event says."""
        if version is not None and at is not None:
            if self.stamped is None or version > self.stamped[0]:
                self.stamped = (version, at)

    def committed_at(self, version: int) -> float | None:
        """When ``version`` was committed, if this room was told (the latest one only)."""
        stamped = self.stamped
        return stamped[1] if stamped is not None and stamped[0] == version else None

    def want(
        self, *, match: bool = False, presence: bool = False, at_least: int = 0,
        wait: bool = False,
    ) -> asyncio.Future | None:  # fmt: skip
        """Ask for a read: of the match (``match``: even at the version it has, something
        else changed; or the match has reached ``at_least``) and/or of who is at it. Reads
        asked for while one is under way go together in the next. ``wait``: returns an
        future that is done once a read started after this call was applied."""
        future = None
        if wait:
            future = asyncio.get_running_loop().create_future()
        self._merge(_Wanted(match, presence, at_least, [future] if future else []))
        self._start()
        return future

    def event(self, *, version: int | None, presence: bool) -> None:
        """The channel layer's news of the match: its version, and whether who is at it
        changed (neither: it changed without a new version, as when its analysis is stored).
        A version already here needs no read (a move made here, an event twice)."""
        behind = version is not None and (self.table is None or version > self.table.version)
        if behind or presence or version is None:
            self.want(match=version is None and not presence, at_least=version or 0,
                      presence=presence)  # fmt: skip

    def chat(self, line_id: int, *, removed: bool = False) -> None:
        """A line of the match's chat was said (or removed): each subscriber that shows chat
        (``chat_news``) reads what is its reader's to see."""
        for member in list(self.subscribers.values()):
            news = getattr(member, "chat_news", None)
            if news is not None:
                news(line_id, removed)

    async def idle(self) -> None:
        """Return once nothing is under way in the room: every read asked for and table handed
        in applied, and every subscriber sent the latest table it was offered."""
        while True:
            tasks = (self._runner, *(mailbox.task for mailbox in self.subscribers))
            pending = [task for task in tasks if task is not None and not task.done()]
            if not pending:
                return
            await asyncio.wait(pending)

    # The runner.
    def _merge(self, more: _Wanted) -> None:
        wanted = self._wanted
        wanted.match |= more.match
        wanted.presence |= more.presence
        wanted.at_least = max(wanted.at_least, more.at_least)
        wanted.waiting += more.waiting

    def _start(self) -> None:
        if self._runner is None or self._runner.done():
            self._runner = asyncio.ensure_future(self._run())

    def _behind(self, wanted: _Wanted) -> bool:
        return self.table is not None and wanted.at_least > self.table.version

    async def _run(self) -> None:
        while True:
            if not self.subscribers:  # dropped: nothing to read for
                _resolve(self._wanted.waiting)
                return
            given, self._given = self._given, None
            if given is not None:
                self._apply(given, None)
            wanted, self._wanted = self._wanted, _Wanted()
            behind = self._behind(wanted)
            match = self.table is None or wanted.match or behind
            if not (match or wanted.presence):
                _resolve(wanted.waiting)
                if self._given is None and not self._wants():
                    return
                continue
            try:
                presence = wanted.presence or self.table is None  # a first read: both
                read = await self._read(self.match_id, match=match, presence=presence)
            except Exception as error:  # the database is away: the next update tries again
                log.warning("room %s: read failed (%s)", self.match_id, error)
                for future in wanted.waiting:
                    if not future.done():
                        future.set_exception(error)
                if not self.subscribers:
                    return
                await asyncio.sleep(RETRY_SECONDS)  # the heartbeat asks again meanwhile
                continue
            if read.gone:  # nothing more to read: its subscribers are told as they join
                self.gone = True
                _resolve(wanted.waiting + self._wanted.waiting)
                return
            self._apply(read.table, read.presence, again=wanted.match)
            _resolve(wanted.waiting)

    def _wants(self) -> bool:
        wanted = self._wanted
        return wanted.match or wanted.presence or bool(wanted.waiting) or self._behind(wanted)

    def _apply(self, table, presence, *, again: bool = False) -> None:
        """Take what is newer: the match only at a later version (``again``: or at the same,
        read again because something changed without a version), presence from every read
        (reads are made one after another, so each knows more than the one before)."""
        current = self.table
        newer = table is not None and (
            current is None or table.version > current.version
            or (again and table.version == current.version)
        )  # fmt: skip
        if newer:
            if presence is not None:
                table = table.with_presence(presence.players, presence.watching)
            elif current is not None:  # a table without news of presence
                table = table.with_presence(current.present, current.watching)
        elif current is not None and presence is not None:
            if (presence.players, presence.watching) == (current.present, current.watching):
                return
            table = current.with_presence(presence.players, presence.watching)
        else:
            return
        self.table = table
        self.revision += 1
        for mailbox in list(self.subscribers):
            mailbox.offer(self.revision, table)


def _resolve(futures: list[asyncio.Future]) -> None:
    for future in futures:
        if not future.done():
            future.set_result(None)


class PerLoop:
    """One instance per event loop (a server process has one; each async test has its own)."""

    _by_loop: weakref.WeakKeyDictionary
    _lock: threading.Lock  # a thread making a move reads them while a loop may add its own

    def __init_subclass__(cls) -> None:
        cls._by_loop = weakref.WeakKeyDictionary()
        cls._lock = threading.Lock()

    @classmethod
    def by_loop(cls) -> dict:
        """Every instance, by its event loop (a move made in a thread hands its table to each)."""
        with cls._lock:
            return dict(cls._by_loop)

    @classmethod
    def of_this_loop(cls):
        loop = asyncio.get_running_loop()
        with cls._lock:
            if loop not in cls._by_loop:
                cls._by_loop[loop] = cls()
            return cls._by_loop[loop]


class Rooms:
    """A set of rooms, by match, reading through ``read`` (``tables.ProcessRooms``: a
    process's, one per event loop)."""

    def __init__(self, read: Reader):
        self.read = read
        self.rooms: dict[int, Room] = {}

    def room(self, match_id: int) -> Room:
        room = self.rooms.get(match_id)
        if room is None:
            room = self.rooms[match_id] = Room(match_id, self.read, on_empty=self._drop)
        return room

    def _drop(self, room: Room) -> None:
        if self.rooms.get(room.match_id) is room:
            del self.rooms[room.match_id]
