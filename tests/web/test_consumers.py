"""Match and lobby sockets through the full ASGI app: pushes, hidden cards, refusals."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from channels.db import database_sync_to_async

from games import services
from games.db import selectors
from games.engine import legal_actions
from games.engine.cards import CODES, cards_in
from games.models import Connection, Match, Move
from games.services import events
from tests.support.matches import both_acted
from tests.support.positions import codes_in
from tests.support.sockets import (
    board,
    error_frame,
    frames_before_answer,
    nothing_before_answer,
    play_one,
    refused_with,
    socket,
    start_match,
    version_of,
)
from tests.support.tasks import run_due_tasks

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def hands(match_id: int) -> tuple[set[str], set[str]]:
    state = Match.objects.get(pk=match_id).state
    return tuple({CODES[c] for c in cards_in(state.hands[s])} for s in (0, 1))


async def test_a_player_receives_the_board_on_connect_and_after_every_move(alice, bob):
    match = await start_match(alice, bob)
    ws = await socket(alice, f"/ws/matches/{match.pk}/")
    connected, _ = await ws.connect()
    assert connected
    first = await board(ws)
    assert version_of(first) == 1
    moved, _ = await play_one(match.pk)
    pushed = await board(ws, version=moved.version)
    assert f'data-match-id="{match.pk}"' in pushed
    await ws.disconnect()


async def test_pushes_never_carry_a_card_hidden_from_the_viewer(alice, bob, carol):
    """Every frame each viewer gets: the boards on connecting, the news of the others
    arriving (rendered from the pushed match), and the boards after each move."""
    match = await start_match(alice, bob)
    hands_at = {match.version: await hands(match.pk)}  # both hands, by version
    sockets = {}
    checked = 0

    def check(name: str, frame: str) -> None:
        hand0, hand1 = hands_at[version_of(frame)]
        hidden = {"alice": hand1, "bob": hand0, "carol": hand0 | hand1}[name]
        assert not codes_in(frame) & hidden, f"{name} was sent a hidden card"

    for name, user in (("alice", alice), ("bob", bob), ("carol", carol)):
        sockets[name] = await socket(user, f"/ws/matches/{match.pk}/")
        assert (await sockets[name].connect())[0]
        # As a page does, the first board is in before anyone moves: a move pushed while the
        # socket's first board is still being read overtakes it, and the older one is not sent.
        check(name, await board(sockets[name]))
        checked += 1
    for _ in range(6):
        moved, _ = await play_one(match.pk)
        hands_at[moved.version] = await hands(match.pk)
        for name, ws in sockets.items():
            while True:
                frame = await board(ws)
                check(name, frame)
                checked += 1
                if version_of(frame) == moved.version:
                    break
    assert checked >= 3 * 6 + 3  # at least each move's board and the first boards
    for ws in sockets.values():
        await ws.disconnect()


async def test_refusals_close_with_clear_codes(alice, bob, carol):
    match = await start_match(alice, bob)
    assert await refused_with(await socket(None, f"/ws/matches/{match.pk}/")) == 4401
    assert await refused_with(await socket(None, "/ws/lobby/")) == 4401
    assert await refused_with(await socket(carol, "/ws/matches/999999/")) == 4404
    await database_sync_to_async(Match.objects.filter(pk=match.pk).update)(spectators_allowed=False)
    assert await refused_with(await socket(carol, f"/ws/matches/{match.pk}/")) == 4403
    ws = await socket(alice, f"/ws/matches/{match.pk}/")  # players are always welcome
    assert (await ws.connect())[0]
    assert 'id="board"' in await board(ws)
    await ws.disconnect()


async def test_a_socket_from_another_origin_is_refused(alice, bob):
    match = await start_match(alice, bob)
    ws = await socket(alice, f"/ws/matches/{match.pk}/", origin=(b"origin", b"http://evil.example"))
    assert not (await ws.connect())[0]


async def test_moves_over_the_socket_and_duplicates_get_an_error_frame(alice, bob):
    match = await start_match(alice, bob)
    state = match.state
    mover = alice if match.seat_of(alice) == state.turn else bob
    ws = await socket(mover, f"/ws/matches/{match.pk}/")
    await ws.connect()
    await board(ws)  # on connecting
    # The news of its own arrival goes to the match's other sockets, not back to it.
    await nothing_before_answer(ws)
    text = str(legal_actions(state)[0])
    await ws.send_to(text_data=json.dumps({"action": text, "version": 1}))
    assert version_of(await board(ws, version=2)) == 2
    # The mover's board came straight back; the broadcast of the same version is not sent
    # to this socket a second time.
    await nothing_before_answer(ws)
    await ws.send_to(text_data=json.dumps({"action": text, "version": 1}))  # the same again
    assert version_of(await ws.receive_from(timeout=5)) == 2  # the table as it is now...
    frame = await ws.receive_from(timeout=5)  # ...and why the move was refused
    assert "data-error" in frame and "changed since you saw it" in frame
    await ws.send_to(text_data="not json")
    frame = await ws.receive_from(timeout=5)
    assert "could not be read" in frame
    assert await database_sync_to_async(Move.objects.filter(match=match).count)() == 1
    await ws.send_to(text_data=json.dumps({"action": "x", "version": 2}))  # still connected
    assert "data-error" in await error_frame(ws)
    await ws.disconnect()


async def test_a_version_that_is_not_a_whole_number_cannot_be_read(alice, bob):
    match = await start_match(alice, bob)
    ws = await socket(alice, f"/ws/matches/{match.pk}/")
    await ws.connect()
    await board(ws)
    for version in ("Infinity", "1.5", "true", '"1e3"', "[1]"):  # JSON numbers and others
        await ws.send_to(text_data=f'{{"action": "pass", "version": {version}}}')
        assert "could not be read" in await error_frame(ws)
    assert await database_sync_to_async(Move.objects.filter(match=match).count)() == 0
    await ws.disconnect()


async def test_a_socket_that_missed_a_push_catches_up_at_the_heartbeat(
    alice, bob, settings, monkeypatch
):
    settings.REALTIME_HEARTBEAT_SECONDS = settings.REALTIME_CATCH_UP_SECONDS = 0.2
    match = await start_match(alice, bob)
    ws = await socket(alice, f"/ws/matches/{match.pk}/")
    await ws.connect()
    await board(ws)  # on connecting
    connected = await database_sync_to_async(Connection.objects.get)(user=alice)
    with monkeypatch.context() as patched:  # the next move, made elsewhere: its push is lost
        patched.setattr(events, "_send", lambda *args, **kwargs: None)
        patched.setattr(events, "_hands", [])  # another process's move: no room here hears it
        await play_one(match.pk)
    assert version_of(await board(ws, version=2)) == 2  # brought by the heartbeat
    touched = await database_sync_to_async(Connection.objects.get)(pk=connected.pk)
    assert touched.seen_at > connected.seen_at  # and it keeps the socket counted as present
    await ws.disconnect()


async def test_the_heartbeat_catching_up_never_sends_a_board_twice(alice, bob, settings):
    """The heartbeat reads the versions while moves are made over the sockets: a board it read
    for a version that the move's own answer (or its push) brought meanwhile is not sent
    again. Each socket gets each version's board once."""
    settings.REALTIME_CATCH_UP_SECONDS = 0.001  # reading all the time, racing every move
    settings.MOVE_LIMIT_PER_10_SECONDS = 1_000
    match = await start_match(alice, bob)
    sockets = {}
    for user in (alice, bob):
        sockets[match.seat_of(user)] = ws = await socket(user, f"/ws/matches/{match.pk}/")
        await ws.connect()
    seen = {seat: [] for seat in sockets}

    async def until(seat: int, version: int) -> None:
        while version not in seen[seat]:
            frame = await sockets[seat].receive_from(timeout=5)
            if 'id="board"' in frame and 'data-presence="away"' not in frame:
                seen[seat].append(version_of(frame))

    for seat, ws in sockets.items():  # both there: the news of the other's arrival is in
        await until(seat, match.version)
        await frames_before_answer(ws)
    first = match.version  # its board may come again (who is at the table read again)
    seen = {seat: [] for seat in sockets}
    for _ in range(13):
        match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        action = str(legal_actions(match.state)[0])
        mover = sockets[match.state.turn]
        await mover.send_to(text_data=json.dumps({"action": action, "version": match.version}))
        for seat in sockets:
            await until(seat, match.version + 1)
    # A board for a version is never sent once a later one was (the table only moves on):
    # the 13th move's board closes the first 12 versions; the sentinel, the last one's.
    for seat, ws in sockets.items():  # (both still connected: no news of one leaving)
        frames = await frames_before_answer(ws)
        seen[seat] += [version_of(f) for f in frames if 'id="board"' in f]
    for ws in sockets.values():
        await ws.disconnect()
    for versions in seen.values():
        moved = [version for version in versions if version > first]
        assert moved == sorted(set(moved)), versions  # each move's board once, in order
        assert len(moved) == 13


async def test_a_player_sees_when_the_opponent_connects(alice, bob):
    match = await start_match(alice, bob)
    a = await socket(alice, f"/ws/matches/{match.pk}/")
    await a.connect()
    assert 'data-presence="away"' in await board(a)
    b = await socket(bob, f"/ws/matches/{match.pk}/")
    await b.connect()
    while 'data-presence="here"' not in (frame := await board(a)):
        pass
    assert 'data-presence="here"' in frame
    await b.disconnect()
    while 'data-presence="away"' not in (frame := await board(a)):
        pass
    await a.disconnect()


async def test_the_lobby_updates_when_a_match_opens(alice, bob, carol, monkeypatch):
    reads = []
    lobby_open = selectors.lobby_open
    monkeypatch.setattr(selectors, "lobby_open", lambda **kw: reads.append(kw) or lobby_open(**kw))
    sockets = {}
    for user in (alice, bob, carol):
        sockets[user.username] = await socket(user, "/ws/lobby/")
        assert (await sockets[user.username].connect())[0]
    await database_sync_to_async(services.match_create)(user=alice)
    for name in ("bob", "carol"):  # the shared list, with alice's match to join
        frame = await sockets[name].receive_from(timeout=5)
        assert 'id="lobby-open"' in frame and 'data-action="join"' in frame and "alice" in frame
        await nothing_before_answer(sockets[name])  # their own lists: unchanged
    assert reads.count({}) == 1  # read once for every lobby socket of the process
    mine = await sockets["alice"].receive_from(timeout=5)  # her own lists first: the invite
    assert 'id="lobby-mine"' in mine and "data-invite" in mine
    shared = await sockets["alice"].receive_from(timeout=5)  # then the shared list, without it
    assert 'id="lobby-open"' in shared and 'data-action="join"' not in shared
    assert len(reads) == 2  # (hers read apart: she is the one with an open match)
    for ws in sockets.values():
        await ws.disconnect()
    assert await refused_with(await socket(None, "/ws/lobby/")) == 4401


async def test_nothing_is_pushed_for_a_rolled_back_move(alice, bob):
    match = await start_match(alice, bob)
    ws = await socket(alice, f"/ws/matches/{match.pk}/")
    await ws.connect()
    await board(ws)
    await frames_before_answer(ws)  # let the presence push go by

    @database_sync_to_async
    def move_then_fail():
        from django.db import transaction

        try:
            with transaction.atomic():
                m = Match.objects.get(pk=match.pk)
                services.move_apply(
                    user=m.players[m.state.turn],
                    match_id=m.pk,
                    action=str(legal_actions(m.state)[0]),
                    version=m.version,
                )
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass

    await move_then_fail()
    await nothing_before_answer(ws)
    await ws.disconnect()
    await asyncio.sleep(0)


async def test_a_move_made_by_a_thread_of_our_own_is_pushed_at_once(alice, bob):
    # The computer moves from a timer thread. With the in-memory layer (make run) a push
    # sent from a loop of that thread's own would sit unseen until the next heartbeat.
    match = await start_match(alice, bob)
    communicator = await socket(alice, f"/ws/matches/{match.pk}/")
    assert (await communicator.connect())[0]
    await board(communicator)
    made = []
    thread = threading.Thread(target=lambda: made.append(play_one.func(match.pk)))
    thread.start()
    pushed = await board(communicator, version=match.version + 1)
    thread.join()
    assert made and version_of(pushed) == match.version + 1
    await communicator.disconnect()


async def test_moves_over_the_socket_are_throttled_with_an_error_frame(alice, bob, settings):
    settings.MOVE_LIMIT_PER_10_SECONDS = 2
    match = await start_match(alice, bob)
    mover = alice if match.seat_of(alice) == match.state.turn else bob
    ws = await socket(mover, f"/ws/matches/{match.pk}/")
    await ws.connect()
    await board(ws)
    for _ in range(2):  # stale: refused, and counted
        await ws.send_to(text_data=json.dumps({"action": "pass", "version": 0}))
        assert "changed since you saw it" in await error_frame(ws)
    text = str(legal_actions(match.state)[0])
    await ws.send_to(text_data=json.dumps({"action": text, "version": 1}))
    assert "moving faster than anyone needs to" in await error_frame(ws)
    assert not await database_sync_to_async(Move.objects.filter(match=match).exists)()
    await ws.disconnect()


async def test_the_workers_clock_expiry_reaches_an_open_socket(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    match = await database_sync_to_async(both_acted)(await start_match(alice, bob))
    ws = await socket(alice, f"/ws/matches/{match.pk}/")
    await ws.connect()
    assert "ran out of time" not in await board(ws)
    await database_sync_to_async(Match.objects.filter(pk=match.pk).update)(
        turn_started_at=timezone.now() - timedelta(seconds=150)
    )
    await database_sync_to_async(run_due_tasks)(as_if_seconds_passed=121)  # the default clock
    while "ran out of time" not in (frame := await board(ws)):
        pass
    assert "data-match-over" in frame
    await ws.disconnect()


async def test_reads_wanted_while_one_is_under_way_go_together(monkeypatch):
    from games.realtime import tables
    from games.realtime.room import Read, Rooms

    trips = []
    under_way, done = threading.Event(), threading.Event()

    def read_tables(match_ids, presence_ids, moves):
        trips.append((sorted(match_ids), sorted(presence_ids)))
        if len(trips) == 1:  # the database thread is busy with this trip until the test says
            under_way.set()
            assert done.wait(10)
        return {pk: Read(table=pk) for pk in match_ids if pk != 4}

    monkeypatch.setattr(tables, "read_tables", read_tables)
    reader = tables.Reader(Rooms(read=None))  # rooms without API streams: no moves read
    first = asyncio.ensure_future(reader(1, match=True, presence=False))
    assert await asyncio.to_thread(under_way.wait, 10)  # its trip is under way
    asks = ((pk, pk == 3) for pk in (2, 3, 2, 4))
    waiting = [asyncio.ensure_future(reader(pk, match=True, presence=p)) for pk, p in asks]
    await asyncio.sleep(0)  # (one turn of the loop: each read asks, none runs a trip)
    assert sorted(reader.wanted) == [2, 3, 4] and not first.done()  # wanted meanwhile
    done.set()
    assert (await first).table == 1
    results = await asyncio.gather(*waiting)
    assert trips == [([1], []), ([2, 3, 4], [3])]  # one trip for every read wanted meanwhile
    assert [read.table for read in results] == [2, 3, 2, None]


async def test_a_sockets_own_arrival_heard_late_asks_for_no_read_of_the_match(
    alice, bob, monkeypatch
):
    """Each socket read who is at the match as it joined the room: its arrival's event, heard
    from the channel layer afterwards (on a busy machine, long after), reads nothing more. A
    socket of another process arriving reads who is at the match, and only that."""
    from channels.layers import get_channel_layer

    from games.realtime import tables

    match = await start_match(alice, bob)
    sockets = []
    for user in (alice, bob):
        sockets.append(ws := await socket(user, f"/ws/matches/{match.pk}/"))
        await ws.connect()
        await board(ws)
    reads = []
    read_tables = tables.read_tables
    first_read = threading.Event()

    def counted(match_ids, presence_ids, *args):
        reads.append((list(match_ids), list(presence_ids)))
        first_read.set()
        return read_tables(match_ids, presence_ids, *args)

    monkeypatch.setattr(tables, "read_tables", counted)
    names = await database_sync_to_async(
        lambda: list(Connection.objects.filter(match=match).values_list("channel_name", flat=True))
    )()
    assert len(names) == 2
    layer, group = get_channel_layer(), events.match_group(match.pk)
    for opened in [*names, "a socket of another process"]:  # heard in this order
        event = {"type": "match.changed", "match_id": match.pk, "version": None,
                 "presence": True, "opened": opened}  # fmt: skip
        await layer.group_send(group, event)
    # The other process's arrival is read: every event before it was heard.
    assert await asyncio.to_thread(first_read.wait, 10)
    assert reads == [([], [match.pk])]
    for ws in sockets:
        await ws.disconnect()


async def test_a_move_made_here_reaches_the_opponents_socket_here_without_a_read(
    alice, bob, monkeypatch, settings
):
    from games.realtime import tables

    settings.REALTIME_CATCH_UP_SECONDS = 60  # no heartbeat's catching up reads meanwhile
    match = await start_match(alice, bob)
    state = match.state
    mover, other = (alice, bob) if match.seat_of(alice) == state.turn else (bob, alice)
    sockets = {}
    for user in (mover, other):
        sockets[user] = ws = await socket(user, f"/ws/matches/{match.pk}/")
        await ws.connect()
        await board(ws)
    await board(sockets[mover])  # the opponent's arrival
    reads = []
    read_tables = tables.read_tables

    def counted(match_ids, *args):
        reads.extend(match_ids)
        return read_tables(match_ids, *args)

    monkeypatch.setattr(tables, "read_tables", counted)
    text = str(legal_actions(state)[0])
    await sockets[mover].send_to(text_data=json.dumps({"action": text, "version": 1}))
    assert version_of(await board(sockets[mover], version=2)) == 2
    pushed = await board(sockets[other], version=2)
    assert reads == []  # the opponent's board came from the match as the move left it
    # ...and it is the board a read of the match shows that viewer: both leave (the room goes
    # with them), both come back, the new room reads the match.
    for ws in sockets.values():
        await ws.disconnect()
    assert tables.rooms().rooms == {}
    back = {}
    for user in (mover, other):  # each in the room (its first board) before the next comes
        back[user] = ws = await socket(user, f"/ws/matches/{match.pk}/")
        await ws.connect()
        first = await board(ws)
    assert first == pushed
    # The new room read the match (and again when the opponent's arrival changed who is here).
    assert reads and set(reads) == {match.pk}
    for ws in back.values():
        await ws.disconnect()
