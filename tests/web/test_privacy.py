"""A match whose players did not let others watch is closed to everyone else on every view
while it is in play: the page, the board, the replay, every action and the socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from tests.support.matches import resign, start
from tests.support.sockets import board, closed_with, refused_with, socket

WORDS = "The players of this match chose not to let others watch it."


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_non_player_gets_a_403_with_words_on_every_view_of_a_private_match_in_play(
    alice, bob, carol
):
    match = start(alice, bob, spectators_allowed=False)
    carols = client_of(carol)
    views = [
        carols.get(f"/matches/{match.pk}/"),
        carols.get(f"/matches/{match.pk}/board"),
        carols.get(f"/matches/{match.pk}/board", headers={"HX-Request": "true"}),
        carols.post(f"/matches/{match.pk}/act", {"action": "pass", "version": 1}),
        carols.post(f"/matches/{match.pk}/act", {"action": "pass"}),  # unreadable too
        carols.post(f"/matches/{match.pk}/join"),
        carols.post(f"/matches/{match.pk}/resign"),
        carols.post(f"/matches/{match.pk}/claim"),
    ]
    for response in views:
        page = response.content.decode()
        assert response.status_code == 403, response.request
        assert WORDS in page and 'id="board"' not in page
    replay = carols.get(f"/matches/{match.pk}/replay")
    assert replay.status_code == 403 and "The replay opens when the match is over." in (
        replay.content.decode()
    )
    for player in (alice, bob):  # the players themselves see their match
        assert client_of(player).get(f"/matches/{match.pk}/").status_code == 200


@pytest.mark.django_db
def test_the_invite_of_a_private_match_still_opens_and_its_result_shows_once_over(
    alice, bob, carol
):
    match = services.match_create(user=alice, spectators_allowed=False)
    page = client_of(carol).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="join"' in page
    match = services.match_join(user=bob, match_id=match.pk)
    resign(alice, match)
    assert client_of(carol).get(f"/matches/{match.pk}/").status_code == 200
    assert client_of(carol).get(f"/matches/{match.pk}/replay").status_code == 200


@pytest.mark.django_db
def test_spectators_are_welcome_where_the_players_let_them_watch(alice, bob, carol):
    match = start(alice, bob)
    assert client_of(carol).get(f"/matches/{match.pk}/").status_code == 200
    assert client_of(carol).get(f"/matches/{match.pk}/board").status_code == 200


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_non_players_socket_is_refused_and_closed_when_a_private_match_starts(
    alice, bob, carol, django_user_model
):
    match = await database_sync_to_async(services.match_create)(
        user=alice, spectators_allowed=False
    )
    watching = await socket(carol, f"/ws/matches/{match.pk}/")  # the invite, still open
    assert (await watching.connect())[0]
    await board(watching)
    await database_sync_to_async(services.match_join)(user=bob, match_id=match.pk)
    assert await closed_with(watching) == 4403
    assert await refused_with(await socket(carol, f"/ws/matches/{match.pk}/")) == 4403
