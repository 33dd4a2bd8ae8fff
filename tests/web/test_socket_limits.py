"""Sockets per player and per match are capped, and a spectator's arrival costs the same
however many already watch: nobody else is sent anything, and the same few queries run."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Connection
from tests.support.matches import start
from tests.support.sockets import board, play_one, refused_with, socket, start_match, version_of

TOO_MANY = 4429


async def watching(user, match_id: int):
    ws = await socket(user, f"/ws/matches/{match_id}/")
    assert (await ws.connect())[0]
    await board(ws)
    return ws


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_may_have_so_many_sockets_open_and_no_more(alice, bob, carol, settings):
    settings.SOCKETS_PER_PLAYER = 3
    match = await start_match(alice, bob)
    open_ones = [await watching(carol, match.pk) for _ in range(3)]
    assert await refused_with(await socket(carol, f"/ws/matches/{match.pk}/")) == TOO_MANY
    await open_ones.pop().disconnect()
    open_ones.append(await watching(carol, match.pk))  # one closed: one more may open
    for ws in open_ones:
        await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_match_takes_so_many_spectators_and_its_players_always(
    alice, bob, carol, django_user_model, settings
):
    settings.SOCKETS_PER_MATCH = 2
    match = await start_match(alice, bob)
    dave, erin = [
        await database_sync_to_async(django_user_model.objects.create_user)(name)
        for name in ("dave", "erin")
    ]
    spectators = [await watching(carol, match.pk), await watching(dave, match.pk)]
    assert await refused_with(await socket(erin, f"/ws/matches/{match.pk}/")) == TOO_MANY
    players = [await watching(alice, match.pk), await watching(bob, match.pk)]
    for ws in spectators + players:
        await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_spectators_arrival_and_departure_send_nothing_to_the_others(
    alice, bob, django_user_model
):
    match = await start_match(alice, bob)
    players = [await watching(alice, match.pk), await watching(bob, match.pk)]
    fans = []
    for number in range(5):
        fan = await database_sync_to_async(django_user_model.objects.create_user)(f"fan{number}")
        fans.append(await watching(fan, match.pk))
    # Pushes reach each socket in the order they were sent: after a move's board, nothing
    # older is on its way.
    moved, _ = await play_one(match.pk)
    for ws in players + fans:
        await board(ws, version=moved.version)
    late = await database_sync_to_async(django_user_model.objects.create_user)("late")
    newcomer = await watching(late, match.pk)
    await newcomer.disconnect()
    moved, _ = await play_one(match.pk)
    for ws in players + fans:  # the next frame each gets is the next move's board
        frame = await ws.receive_from(timeout=5)
        assert version_of(frame) == moved.version, frame[:400]
    for ws in players + fans:
        await ws.disconnect()


@pytest.mark.django_db
def test_a_sockets_arrival_costs_the_same_with_one_or_many_watching(
    alice, bob, django_user_model, django_capture_on_commit_callbacks
):
    match = start(alice, bob)
    fans = [django_user_model.objects.create_user(f"fan{n}") for n in range(30)]

    def arrival_queries(user, channel_name: str) -> int:
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks() as pushes,
        ):
            services.connection_open(match_id=match.pk, user=user, channel_name=channel_name)
        assert not pushes  # nothing to send to anyone, however many watch
        return len(queries)

    first = arrival_queries(fans[0], "first")
    for number, fan in enumerate(fans[1:-1]):
        services.connection_open(match_id=match.pk, user=fan, channel_name=f"fan{number}")
    assert Connection.objects.filter(match=match).count() == 29
    assert arrival_queries(fans[-1], "last") == first
    with django_capture_on_commit_callbacks() as pushes:
        services.connection_open(match_id=match.pk, user=alice, channel_name="alice")
    assert pushes  # a player's arrival is news to the opponent


@pytest.mark.django_db
def test_presence_counts_the_players_only_so_pushes_do_not_grow_with_the_crowd(
    alice, bob, django_user_model
):
    from games.db import selectors

    match = start(alice, bob)
    for number in range(20):
        fan = django_user_model.objects.create_user(f"fan{number}")
        services.connection_open(match_id=match.pk, user=fan, channel_name=f"fan{number}")
    services.connection_open(match_id=match.pk, user=bob, channel_name="bob")
    assert selectors.presence(match_ids=[match.pk])[match.pk].players == {bob.pk}
