"""The rooms of a server process, on the database and the channel layer: a match's table as
its boards and streams show it (read in the sockets' database threads, several rooms' reads
in one trip), each room's ear on the channel layer, and the one heartbeat that keeps every
room and subscriber of the process current (``games.realtime.room`` holds the rules)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.db.models import Prefetch, prefetch_related_objects

from .. import metrics, services
from ..db import selectors, statements
from ..engine import State
from ..models import Match, MatchStatus, Move, RatingChange
from ..public import PLAYERS, PublicMatch
from ..services import events
from ..services.events import match_group, twice
from .room import PerLoop, Read, Room, Rooms

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


# A match read alone is compiled once (games.db.prepared): up to FEW of those cost less CPU than
# one query for them all built afresh.
FEW = 3
RECENT_MOVES = 8  # the moves a table keeps: enough for every stream that was up to date


@dataclass(frozen=True, eq=False)
class Table:
    """A match as its boards and streams show it: its public face and state (decoded once),
    who is at it, and the moves of its last versions. What is rendered from it is kept with
    it (``once``): each kind of viewer's board, each kind of stream's state, once a version."""

    match: PublicMatch
    state: State | None
    present: frozenset[int] = frozenset()
    watching: int = 0
    moves: tuple[Move, ...] = ()
    moves_above: int | None = None  # ``moves`` holds every move after this version (or None)
    shown: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.match.version

    def with_presence(self, present: frozenset[int], watching: int) -> Table:
        return dataclasses.replace(self, present=present, watching=watching, shown={})

    def once(self, kind: tuple, render: Callable[[], object]):
        if kind not in self.shown:
            self.shown[kind] = render()
        return self.shown[kind]

    @classmethod
    def after(cls, moved, before: Table | None, ratings: tuple[str, str] | None = None) -> Table:
        """The table as a move made in this process left it (``services.Moved``), keeping the
        moves the table of the version before kept, and this one. The seats' ratings change
        only when a match ends: until then, those already shown (``ratings``)."""
        match = moved.match
        moves, above = (moved.move,), match.version - 1  # at least the move itself
        if before is not None and before.moves_above is not None:
            if before.version == match.version - 1:
                moves, above = (*before.moves, moved.move), before.moves_above
                if len(moves) > RECENT_MOVES:
                    above, moves = moves[-RECENT_MOVES - 1].version, moves[-RECENT_MOVES:]
        public = PublicMatch.of(match, None if match.is_over else ratings)
        return cls(public, moved.state, moves=moves, moves_above=above)


def read_tables(match_ids: list[int], presence_ids: list[int], moves: set[int]) -> dict:
    """The matches ``match_ids`` as their boards show them, and who is at ``presence_ids``:
    one query for the matches, a second for finished ones' rating changes, one for presence,
    one for each ``moves`` match's last moves. The states are decoded here, in a database
    thread, not in the event loop."""
    found: dict[int, Read] = {}
    if match_ids:
        if len(match_ids) <= FEW:
            rows = [statements.MATCH_WITH_PLAYERS.first(pk) for pk in match_ids]
            matches = [m for m in rows if m]
        else:
            matches = list(Match.objects.select_related(*PLAYERS).filter(pk__in=match_ids))
        finished = [m for m in matches if m.status == MatchStatus.FINISHED]
        if finished:
            changes = RatingChange.objects.select_related("player")
            prefetch_related_objects(finished, Prefetch("rating_changes", queryset=changes))
        for m in matches:
            recent, low = (), None
            if m.pk in moves:
                low = max(0, m.version - RECENT_MOVES)
                recent = tuple(statements.MOVES_BETWEEN.all(m.pk, low, m.version))
            table = Table(PublicMatch.of(m), m.state, moves=recent, moves_above=low)
            found[m.pk] = Read(table)
        for pk in set(match_ids) - found.keys():
            found[pk] = Read(gone=True)
    if presence_ids:
        here = selectors.presence(match_ids=presence_ids)
        for pk in presence_ids:
            found[pk] = dataclasses.replace(found.get(pk, Read()), presence=here[pk])
    return found


class Reader:
    """The rooms' reads: those wanted while one trip is under way go together in the next."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms  # whose rooms it reads for (one with an API stream: the last moves)
        self.wanted: dict[int, list] = {}  # match id -> [(match, presence, moves, future)]
        self.trip: asyncio.Task | None = None

    async def __call__(self, match_id: int, *, match: bool, presence: bool) -> Read:
        future = asyncio.get_running_loop().create_future()
        moves = match and self._has_streams(match_id)
        self.wanted.setdefault(match_id, []).append((match, presence, moves, future))
        if self.trip is None or self.trip.done():
            self.trip = asyncio.ensure_future(self._trips())
        return await future

    async def _trips(self) -> None:
        while self.wanted:
            batch, self.wanted = self.wanted, {}
            match_ids = [pk for pk, asks in batch.items() if any(a[0] for a in asks)]
            presence_ids = [pk for pk, asks in batch.items() if any(a[1] for a in asks)]
            moves = {pk for pk, asks in batch.items() if any(a[2] for a in asks)}
            try:
                found = await in_database(read_tables)(match_ids, presence_ids, moves)
            except Exception as error:  # each room that asked hears of it
                found = error
            for pk, asks in batch.items():
                for _match, _presence, _moves, future in asks:
                    if future.done():
                        continue
                    if isinstance(found, Exception):
                        future.set_exception(found)
                    else:
                        future.set_result(found.get(pk, Read()))

    def _has_streams(self, match_id: int) -> bool:
        room = self.rooms.rooms.get(match_id)
        return room is not None and any(
            getattr(member, "streams", False) for member in room.subscribers.values()
        )


class ProcessRooms(PerLoop, Rooms):
    """A process's rooms (one set per event loop), each listening on the channel layer for its
    match's events while it has subscribers; with the process's heartbeat."""

    def __init__(self) -> None:
        super().__init__(Reader(self))
        self.ears: dict[int, tuple[asyncio.Task, asyncio.Future]] = {}  # listening, ready
        self.heartbeat: asyncio.Task | None = None
        self.members: set = set()  # every socket and stream the heartbeat visits

    async def enter(self, match_id: int) -> Room:
        """The match's room, listening to the match's events before anything is read for it
        (so nothing said between the read and the listening is missed)."""
        room = self.room(match_id)
        if match_id not in self.ears:
            ready = asyncio.get_running_loop().create_future()
            self.ears[match_id] = (asyncio.ensure_future(_listen(room, ready)), ready)
        ready = self.ears[match_id][1]
        if not ready.done():
            await asyncio.wait([ready], timeout=5)  # the layer is away: the heartbeat catches up
        return room

    def room(self, match_id: int) -> Room:
        held = match_id in self.rooms
        room = super().room(match_id)
        if not held:
            metrics.room_held(1)
        return room

    def _drop(self, room: Room) -> None:
        if self.rooms.get(room.match_id) is room:
            metrics.room_held(-1)
        super()._drop(room)
        ear = self.ears.pop(room.match_id, None)
        if ear is not None:
            ear[0].cancel()

    def visit(self, member) -> None:
        """``member`` is visited at every heartbeat (``Member``) until ``forget``."""
        self.members.add(member)
        if self.heartbeat is None or self.heartbeat.done():
            self.heartbeat = asyncio.ensure_future(_heartbeat(self))

    def forget(self, member) -> None:
        self.members.discard(member)


def rooms() -> ProcessRooms:
    return ProcessRooms.of_this_loop()


def hand_in(moved) -> None:
    """A move committed in this process, in whatever thread made it (a socket's database
    thread, a view's, the API's): its table to the match's room on each event loop that has
    one, before the move's push goes out (``events.hand_in_on_commit``), so no room of this
    process reads it back. The table is made here, off the loop."""
    committed_at = time.time()  # called as the move commits (a push's latency counts from it)
    for loop, process in list(ProcessRooms.by_loop().items()):
        room = process.rooms.get(moved.match.pk)
        if room is None or loop.is_closed():
            continue
        before = room.table  # a frozen table: read from another thread as it stands
        table = Table.after(moved, before, before.match.ratings if before else None)
        loop.call_soon_threadsafe(_handed_in, room, table, committed_at)


def _handed_in(room: Room, table: Table, committed_at: float) -> None:
    room.stamp(table.version, committed_at)
    room.hand_in(table)


events.hand_in_here(hand_in)


async def _listen(room: Room, ready: asyncio.Future) -> None:
    """The room's ear: the match's events from every process (``events.send_event_on_commit``).
    ``ready`` is done once it listens (or could not, the first time)."""
    layer = get_channel_layer()
    group = match_group(room.match_id)
    channel = None
    try:
        while True:
            try:
                if channel is None:
                    channel = await layer.new_channel()
                    await twice(layer.group_add, group, channel)
                if not ready.done():
                    ready.set_result(None)
                event = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer is away: the heartbeat catches up meanwhile
                log.warning("room %s: channel layer unavailable", room.match_id, exc_info=True)
                if not ready.done():
                    ready.set_result(None)
                channel = None
                await asyncio.sleep(settings.REALTIME_CATCH_UP_SECONDS)
                continue
            if event.get("type") == "match.changed":
                opened = event.get("opened")
                # A socket opened here read who is at the match as it joined the room: its
                # arrival's event (no version, nothing else changed) asks for no read.
                if opened and any(
                    getattr(m, "presence_name", "") == opened for m in room.subscribers.values()
                ):
                    continue
                room.stamp(event.get("version"), event.get("at"))
                room.event(version=event.get("version"), presence=bool(event.get("presence")))
            elif event.get("type") == "chat.changed":
                room.chat(event["line"], removed=bool(event.get("removed")))
    finally:
        if channel is not None:
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)


class Member:
    """What the heartbeat asks of each socket and stream of the process (all optional)."""

    presence_name = ""  # a socket's name in the presence rows (its row is kept alive)
    timed = 0  # the last version whose push to it was timed (games.metrics), 0: none yet

    def push_timed(self, room: Room | None, version: int, viewer: str) -> None:
        """It was just sent ``version``: the push's latency from the commit, once a version,
        if its room knows when that version was committed. Its first table (a page opened, a
        stream started) is a catch-up, not a push."""
        if version <= self.timed or room is None:
            return
        first, self.timed = not self.timed, version
        at = room.committed_at(version)
        if at is not None and not first:
            metrics.pushed(viewer, at)

    async def beat(self, *, touch: bool) -> None:
        """At every catch-up (``touch``: every heartbeat): rejoin its groups, check its token."""


async def _heartbeat(process: ProcessRooms) -> None:
    """One per server process. Every ``REALTIME_CATCH_UP_SECONDS`` one query reads the versions
    of its rooms' matches and a room behind reads its match (a push was lost, or the layer was
    away); every ``REALTIME_HEARTBEAT_SECONDS`` one more marks all its sockets as connected, and
    every room reads who is at its match again (a server that died leaves rows that expire)."""
    loop = asyncio.get_running_loop()
    touched = loop.time()
    while process.members or process.rooms:
        await asyncio.sleep(settings.REALTIME_CATCH_UP_SECONDS)
        touch = loop.time() - touched >= settings.REALTIME_HEARTBEAT_SECONDS
        names = [m.presence_name for m in process.members if m.presence_name] if touch else []
        try:
            versions = await in_database(_beat)(list(process.rooms), names)
        except Exception:  # the database is away: the next beat tries again
            log.warning("heartbeat could not reach the database", exc_info=True)
            continue
        if touch:
            touched = loop.time()
        for match_id, room in list(process.rooms.items()):
            room.event(version=versions.get(match_id), presence=touch)
        for member in list(process.members):
            try:
                await member.beat(touch=touch)
            except Exception:  # one member's trouble must not stop the others' beat
                log.warning("heartbeat: %r", member, exc_info=True)


def _beat(match_ids: list[int], names: list[str]) -> dict[int, int]:
    metrics.pool_seen(getattr(connection, "pool", None))  # its counters: no query
    if names:
        services.connections_touch(channel_names=names)
    return selectors.match_versions(match_ids=match_ids) if match_ids else {}
