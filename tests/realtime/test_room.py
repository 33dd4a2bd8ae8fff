"""A match's room, without Channels, a database or a browser: for random interleavings of moves
(made here and elsewhere), the channel layer's events arriving late, twice or out of order, the
heartbeat's catching up, reads that take their time, and sockets opening and closing, every
subscriber is shown boards in strictly increasing revisions and never an older version than it
had, and its last board is a fresh render of the match as the database has it."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.db.selectors import Presence
from games.realtime.room import Gone, Mailbox, Read, Rooms

MATCH = 7
PLAYERS = (1, 2)


@dataclass(frozen=True)
class FakeTable:
    version: int
    extra: int = 0  # what changes without a new version (an analysis stored)
    present: frozenset = frozenset()
    watching: int = 0

    def with_presence(self, present, watching):
        return replace(self, present=present, watching=watching)


def render(viewer: int, table) -> str:
    """A viewer's board: what the viewer sees of the version and who is at the table."""
    return (
        f"{viewer} sees v{table.version}+{table.extra} with {sorted(table.present)}"
        f" and {table.watching} watching"
    )


class World:
    """The database (a version, who has a socket open) and the channel layer's events."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.version = 1
        self.extra = 0
        self.present: set[int] = set()
        self.watching = 0
        self.events: list[dict] = []  # sent, not yet delivered (delivered in any order)
        self.reads = 0

    async def pause(self) -> None:
        for _ in range(self.rng.randrange(4)):
            await asyncio.sleep(0)

    async def read(self, match_id: int, *, match: bool, presence: bool) -> Read:
        """A read that takes its time: it sees the database at one moment during it."""
        self.reads += 1
        await self.pause()
        table = FakeTable(self.version, self.extra) if match else None
        here = Presence(frozenset(self.present), self.watching) if presence else None
        await self.pause()
        return Read(table=table, presence=here)


class Subscriber:
    def __init__(self, viewer: int):
        self.viewer = viewer
        self.seen: list[tuple[int, int, str]] = []  # (revision, version, board)
        self.mailbox = Mailbox(self.deliver)
        self.room = None

    async def deliver(self, revision: int, table) -> None:
        await asyncio.sleep(0)  # a socket's send takes a moment
        self.seen.append((revision, table.version, render(self.viewer, table)))


EVENTS = (
    "move here", "move elsewhere", "analysed", "arrive", "leave", "watch", "deliver",
    "deliver twice", "catch up", "subscribe", "unsubscribe", "pause",
)  # fmt: skip
OPERATIONS = st.lists(
    st.sampled_from(EVENTS),
    min_size=1,
    max_size=60,
)


async def run(operations: list[str], seed: int) -> None:
    rng = random.Random(seed)
    world = World(rng)
    rooms = Rooms(world.read)
    subscribers: list[Subscriber] = []
    gone: list[Subscriber] = []
    tasks: list[asyncio.Task] = []

    def room():
        return rooms.room(MATCH)

    def deliver(event: dict) -> None:
        if MATCH in rooms.rooms:  # a dropped room no longer listens
            rooms.rooms[MATCH].event(**event)

    async def subscribe(subscriber: Subscriber) -> None:
        subscriber.room = room()
        await subscriber.room.join(subscriber.mailbox, presence=subscriber.viewer in PLAYERS)

    async def hand_in(room, table) -> None:
        await world.pause()
        room.moved(table)

    async def catch_up(version: int, touch: bool) -> None:
        await world.pause()  # the heartbeat's read of the versions, then its visit
        if MATCH in rooms.rooms:
            rooms.rooms[MATCH].event(version=version, presence=touch)

    for operation in operations:
        if operation == "move here" and MATCH in rooms.rooms:
            # The move commits and its push goes out; the socket hands its table to the room
            # a moment later (the push may come first).
            here = rooms.rooms[MATCH]
            here.moving()
            world.version += 1
            world.events.append({"version": world.version, "presence": False})
            moved = FakeTable(world.version, world.extra, frozenset({99}), 99)
            tasks.append(asyncio.ensure_future(hand_in(here, moved)))
        elif operation in ("move here", "move elsewhere"):
            world.version += 1
            world.events.append({"version": world.version, "presence": False})
        elif operation == "analysed":
            world.extra += 1
            world.events.append({"version": None, "presence": False})
        elif operation in ("arrive", "leave"):
            player = rng.choice(PLAYERS)
            (world.present.add if operation == "arrive" else world.present.discard)(player)
            world.events.append({"version": None, "presence": True})
        elif operation == "watch":
            world.watching = rng.randrange(3)  # nobody is told: a later read shows it
        elif operation in ("deliver", "deliver twice") and world.events:
            event = world.events[rng.randrange(len(world.events))]
            if operation == "deliver":
                world.events.remove(event)
            deliver(event)
        elif operation == "catch up":
            tasks.append(asyncio.ensure_future(catch_up(world.version, rng.random() < 0.5)))
        elif operation == "subscribe":
            subscriber = Subscriber(rng.choice([*PLAYERS, 3]))
            subscribers.append(subscriber)
            tasks.append(asyncio.ensure_future(subscribe(subscriber)))
        elif operation == "unsubscribe" and subscribers:
            subscriber = subscribers.pop(rng.randrange(len(subscribers)))
            await asyncio.gather(*tasks)  # its joining is over before it leaves
            subscriber.room.leave(subscriber.mailbox)
            gone.append(subscriber)
        await world.pause()

    # Every event arrives in the end (or the heartbeat's presence read stands in for it).
    while world.events:
        deliver(world.events.pop(rng.randrange(len(world.events))))
        await world.pause()
    await asyncio.gather(*tasks)
    if MATCH in rooms.rooms:
        # The heartbeat: its catching up, and (it reads who watches: nobody is told of a
        # spectator's coming or going) its touch if someone came to watch.
        touch = "watch" in operations
        rooms.rooms[MATCH].event(version=world.version, presence=touch)
    for _ in range(200):
        await asyncio.sleep(0)
    for subscriber in subscribers + gone:
        revisions = [revision for revision, _version, _board in subscriber.seen]
        versions = [version for _revision, version, _board in subscriber.seen]
        assert revisions == sorted(set(revisions)), "a revision shown twice or out of order"
        assert versions == sorted(versions), "an older version after a newer one"
    fresh = FakeTable(world.version, world.extra, frozenset(world.present), world.watching)
    for subscriber in subscribers:
        assert subscriber.seen, "a subscriber was never shown the match"
        assert subscriber.seen[-1][2] == render(subscriber.viewer, fresh)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=OPERATIONS, seed=st.integers(0, 2**32))
def test_every_subscriber_sees_only_newer_boards_and_ends_on_the_databases(operations, seed):
    asyncio.run(run(operations, seed))


def test_a_room_reads_once_for_all_its_subscribers_and_not_for_a_move_made_here():
    async def scenario():
        world = World(random.Random(1))
        rooms = Rooms(world.read)
        subscribers = [Subscriber(viewer) for viewer in (1, 2, 3, 4)]
        for subscriber in subscribers:
            await rooms.room(MATCH).join(subscriber.mailbox)
        assert world.reads == 1  # the first joining read; the others had the table
        world.version += 1
        rooms.room(MATCH).moving()
        rooms.room(MATCH).event(version=world.version, presence=False)  # its push came first
        rooms.room(MATCH).moved(FakeTable(world.version))
        world.version += 1
        rooms.room(MATCH).event(version=world.version, presence=False)  # a move elsewhere
        for _ in range(50):
            await asyncio.sleep(0)
        assert world.reads == 2
        assert {s.seen[-1][1] for s in subscribers} == {3}
        for subscriber in subscribers:
            rooms.room(MATCH).leave(subscriber.mailbox)
        assert rooms.rooms == {}  # the room goes with its last subscriber

    asyncio.run(scenario())


def test_a_refusal_shows_the_table_again_before_its_words_and_before_anything_newer():
    async def scenario():
        world = World(random.Random(2))
        rooms = Rooms(world.read)
        subscriber = Subscriber(1)
        sent = []
        subscriber.mailbox.deliver = lambda revision, table: _record(sent, ("board", revision))
        room = rooms.room(MATCH)
        await room.join(subscriber.mailbox)
        await asyncio.sleep(0)
        await subscriber.mailbox.show_again(
            room.revision, room.table, lambda: _record(sent, ("error", room.revision))
        )
        room.moved(FakeTable(world.version + 1))
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent == [("board", 1), ("board", 1), ("error", 1), ("board", 2)]

    asyncio.run(scenario())


async def _record(sent: list, item) -> None:
    sent.append(item)


def test_a_match_that_is_gone_refuses_its_subscriber():
    async def scenario():
        async def read(match_id, *, match, presence):
            return Read(gone=True)

        rooms = Rooms(read)
        with pytest.raises(Gone):
            await rooms.room(MATCH).join(Subscriber(1).mailbox)

    asyncio.run(scenario())
