"""A match's room, without Channels, a database or a browser: for random interleavings of moves
(made here and elsewhere), the tables of moves made here handed in late and out of order, the
channel layer's events arriving late, twice or out of order, the heartbeat's catching up, reads
that take their time, and sockets opening and closing, every subscriber is shown boards in
strictly increasing revisions and never an older version than it had, and its last board is a
fresh render of the match as the database has it.

The central rule, an older table never replaces a newer one, is also tried on stale hand-ins
placed on purpose (explicit examples, and a test that holds a read in flight), and on a scratch
copy of the room with the rule broken, where each of them must fail, every time."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from games.db.selectors import Presence
from games.realtime import room as real_room
from games.realtime.room import Gone, Read, Rooms

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
    def __init__(self, viewer: int, room: ModuleType = real_room):
        self.viewer = viewer
        self.seen: list[tuple[int, int, str]] = []  # (revision, version, board)
        self.mailbox = room.Mailbox(self.deliver)
        self.room = None

    async def deliver(self, revision: int, table) -> None:
        await asyncio.sleep(0)  # a socket's send takes a moment
        self.seen.append((revision, table.version, render(self.viewer, table)))


EVENTS = (
    "move here", "move elsewhere", "analysed", "arrive", "leave", "watch", "deliver",
    "deliver twice", "catch up", "subscribe", "unsubscribe", "pause", "hand in",
    "hand in newest", "settle",
)  # fmt: skip
# Twenty at least: shorter lists (Hypothesis draws them short) seldom make a move here, a newer
# read and a late hand-in in that order.
OPERATIONS = st.lists(st.sampled_from(EVENTS), min_size=20, max_size=60)

# A move made here whose table reaches the room only after a newer one was read (a move
# elsewhere, its push, the catching up) or handed in (a later move made here).
STALE_HAND_INS = [
    # The newer table read first (the catching up), then the older move's table.
    ["subscribe", "settle", "move here", "move elsewhere", "catch up", "settle", "hand in"],
    # The same, the newer version's push delivered rather than the catching up.
    ["subscribe", "settle", "move here", "move elsewhere", "deliver", "deliver", "settle",
     "hand in"],
    # Two moves made here, their tables handed in newest first.
    ["subscribe", "settle", "move here", "move here", "hand in newest", "settle", "hand in"],
    # A newer read and a newer hand-in both ahead of it, with a second socket joining between.
    ["subscribe", "settle", "move here", "move here", "move elsewhere", "hand in newest",
     "subscribe", "catch up", "settle", "hand in", "settle", "hand in"],
]  # fmt: skip
# Two tables handed in, newest first, before the room takes either: the room keeps the newer
# one it was handed (``Room.hand_in``), and never reads it back.
HANDED_IN_TOGETHER = ["subscribe", "settle", "move here", "move here", "hand in newest", "hand in"]


async def quiet(rooms) -> None:
    """Until no room has a read, a hand-in or a delivery under way (``Room.idle``)."""
    for one in list(rooms.rooms.values()):
        await one.idle()


async def run(operations: list[str], seed: int, room: ModuleType = real_room) -> None:
    rng = random.Random(seed)
    world = World(rng)
    rooms = room.Rooms(world.read)
    subscribers: list[Subscriber] = []
    gone: list[Subscriber] = []
    tasks: list[asyncio.Task] = []
    held: list[tuple] = []  # (room, table) of moves made here, not handed in yet

    def this_room():
        return rooms.room(MATCH)

    def deliver(event: dict) -> None:
        if MATCH in rooms.rooms:  # a dropped room no longer listens
            rooms.rooms[MATCH].event(**event)

    async def subscribe(subscriber: Subscriber) -> None:
        subscriber.room = this_room()
        await subscriber.room.join(subscriber.mailbox, presence=subscriber.viewer in PLAYERS)

    async def settle() -> None:
        await asyncio.gather(*tasks)
        await quiet(rooms)  # the room's runner and the mailboxes: their reads and sends

    def hand_in(newest: bool) -> None:
        if held:
            here, table = held.pop(-1 if newest else 0)
            here.hand_in(table)

    async def catch_up(version: int, touch: bool) -> None:
        await world.pause()  # the heartbeat's read of the versions, then its visit
        if MATCH in rooms.rooms:
            rooms.rooms[MATCH].event(version=version, presence=touch)

    for operation in operations:
        if operation == "move here" and MATCH in rooms.rooms:
            # The move commits and its push goes out; its table reaches the room when a "hand
            # in" comes (oldest first, or the newest), or at the end: after its push, after
            # later moves' tables and reads, in any order. The table's presence is the move's
            # own guess, which the room must not take.
            world.version += 1
            world.events.append({"version": world.version, "presence": False})
            moved = FakeTable(world.version, world.extra, frozenset({99}), 99)
            held.append((rooms.rooms[MATCH], moved))
        elif operation in ("hand in", "hand in newest"):
            hand_in(newest=operation == "hand in newest")
        elif operation == "settle":
            await settle()
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
            subscriber = Subscriber(rng.choice([*PLAYERS, 3]), room)
            subscribers.append(subscriber)
            tasks.append(asyncio.ensure_future(subscribe(subscriber)))
        elif operation == "unsubscribe" and subscribers:
            subscriber = subscribers.pop(rng.randrange(len(subscribers)))
            await asyncio.gather(*tasks)  # its joining is over before it leaves
            subscriber.room.leave(subscriber.mailbox)
            gone.append(subscriber)
        await world.pause()

    # Every move's table and every event arrives in the end (or the heartbeat's presence read
    # stands in for it).
    while held:
        hand_in(newest=False)
    while world.events:
        deliver(world.events.pop(rng.randrange(len(world.events))))
        await world.pause()
    await asyncio.gather(*tasks)
    if MATCH in rooms.rooms:
        # The heartbeat: its catching up, and (it reads who watches: nobody is told of a
        # spectator's coming or going) its touch if someone came to watch.
        touch = "watch" in operations
        rooms.rooms[MATCH].event(version=world.version, presence=touch)
    await quiet(rooms)
    for subscriber in subscribers + gone:
        revisions = [revision for revision, _version, _board in subscriber.seen]
        versions = [version for _revision, version, _board in subscriber.seen]
        assert revisions == sorted(set(revisions)), "a revision shown twice or out of order"
        assert versions == sorted(versions), "an older version after a newer one"
    fresh = FakeTable(world.version, world.extra, frozenset(world.present), world.watching)
    for subscriber in subscribers:
        assert subscriber.seen, "a subscriber was never shown the match"
        assert subscriber.seen[-1][2] == render(subscriber.viewer, fresh)


def the_property(room: ModuleType, **more):
    """The property test, for the room module ``room`` (the real one, or a broken copy)."""

    def check(operations, seed):
        asyncio.run(run(operations, seed, room))

    for each in [*STALE_HAND_INS, HANDED_IN_TOGETHER]:
        check = example(operations=each, seed=0)(check)
    check = given(operations=OPERATIONS, seed=st.integers(0, 2**32))(check)
    return settings(
        max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], **more
    )(check)


test_every_subscriber_sees_only_newer_boards_and_ends_on_the_databases = the_property(real_room)


@pytest.mark.parametrize("operations", STALE_HAND_INS)
def test_a_stale_hand_in_never_replaces_a_newer_table_whatever_the_timing(operations):
    for seed in range(20):  # the reads' and the sends' own pauses differ with the seed
        asyncio.run(run(operations, seed))


def test_a_table_handed_in_while_a_newer_read_is_under_way_is_not_taken():
    asyncio.run(stale_hand_in_during_a_read(real_room))


async def stale_hand_in_during_a_read(room: ModuleType) -> None:
    """A move here at v2 and one elsewhere at v3: v3's push starts a read; v2's table is handed
    in while that read is under way, so the runner meets it after taking v3."""
    version = 1
    reading = asyncio.Event()
    release = asyncio.Event()

    async def read(match_id, *, match, presence):
        if version == 3:
            reading.set()
            await release.wait()
        return Read(table=FakeTable(version), presence=Presence(frozenset(), 0))

    rooms = room.Rooms(read)
    subscriber = Subscriber(1, room)
    await rooms.room(MATCH).join(subscriber.mailbox)
    version = 3  # v2 made here, v3 elsewhere; v3's push comes first
    rooms.room(MATCH).event(version=3, presence=False)
    await reading.wait()
    rooms.room(MATCH).hand_in(FakeTable(2))
    release.set()
    await quiet(rooms)
    assert rooms.room(MATCH).table.version == 3
    assert [version for _revision, version, _board in subscriber.seen] == [1, 3]


def test_of_two_tables_handed_in_together_the_newer_is_kept_and_not_read_back():
    asyncio.run(handed_in_together(real_room))


async def handed_in_together(room: ModuleType) -> None:
    world = World(random.Random(3))
    rooms = room.Rooms(world.read)
    subscriber = Subscriber(1, room)
    await rooms.room(MATCH).join(subscriber.mailbox)
    world.version = 3  # two moves made here; their tables come newest first, then the pushes
    rooms.room(MATCH).hand_in(FakeTable(3))
    rooms.room(MATCH).hand_in(FakeTable(2))
    rooms.room(MATCH).event(version=2, presence=False)
    rooms.room(MATCH).event(version=3, presence=False)
    await quiet(rooms)
    assert [version for _revision, version, _board in subscriber.seen] == [1, 3]
    assert world.reads == 1  # the joining read only


# The same tests on scratch copies of the room with one of its rules broken. Each must fail, on
# every run. The central rule: a table replaces the room's only if it is newer.
RULE = "current is None or table.version > current.version"
BROKEN = "current is None or table.version != current.version"
# Of the tables handed in before the room takes one, it keeps the newest.
HAND_IN_RULE = "if self._given is None or table.version > self._given.version:"
HAND_IN_BROKEN = "if True:"


@pytest.fixture(scope="module")
def broken_room(tmp_path_factory) -> ModuleType:
    return scratch_room(tmp_path_factory.mktemp("room"), RULE, BROKEN)


def scratch_room(folder: Path, rule: str, broken: str) -> ModuleType:
    """A copy of games.realtime.room with ``rule`` written ``broken``, imported."""
    source = Path(real_room.__file__).read_text()
    assert source.count(rule) == 1, "the room's rule is written differently: plant it anew"
    path = folder / "broken_room.py"
    path.write_text(source.replace(rule, broken))
    spec = importlib.util.spec_from_file_location("broken_room", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up as they are made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.parametrize("operations", STALE_HAND_INS)
def test_each_stale_hand_in_example_fails_on_a_room_that_breaks_the_rule(broken_room, operations):
    for seed in range(20):
        with pytest.raises(AssertionError, match="an older version after a newer one"):
            asyncio.run(run(operations, seed, broken_room))


def test_the_property_test_fails_on_a_room_that_breaks_the_rule(broken_room):
    for _ in range(5):  # its explicit examples: the same verdict at every run
        with pytest.raises(AssertionError, match="an older version after a newer one"):
            the_property(broken_room, phases=[Phase.explicit], database=None)()


def test_the_read_under_way_test_fails_on_a_room_that_breaks_the_rule(broken_room):
    with pytest.raises(AssertionError):
        asyncio.run(stale_hand_in_during_a_read(broken_room))


def test_the_handed_in_together_test_fails_on_a_room_that_keeps_the_last_handed_in(tmp_path):
    room = scratch_room(tmp_path, HAND_IN_RULE, HAND_IN_BROKEN)
    for _ in range(5):
        with pytest.raises(AssertionError):
            asyncio.run(handed_in_together(room))


def test_a_room_reads_once_for_all_its_subscribers_and_not_for_a_move_made_here():
    async def scenario():
        world = World(random.Random(1))
        rooms = Rooms(world.read)
        subscribers = [Subscriber(viewer) for viewer in (1, 2, 3, 4)]
        for subscriber in subscribers:
            await rooms.room(MATCH).join(subscriber.mailbox)
        assert world.reads == 1  # the first joining read; the others had the table
        world.version += 1
        rooms.room(MATCH).hand_in(FakeTable(world.version))  # as the move commits
        rooms.room(MATCH).event(version=world.version, presence=False)  # then its push
        world.version += 1
        rooms.room(MATCH).event(version=world.version, presence=False)  # a move elsewhere
        await quiet(rooms)
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
        await room.idle()  # the joining board sent
        await subscriber.mailbox.show_again(
            room.revision, room.table, lambda: _record(sent, ("error", room.revision))
        )
        room.hand_in(FakeTable(world.version + 1))
        await room.idle()
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
