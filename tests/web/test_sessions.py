"""A socket lives no longer than its session: log-out, a password change or reset and a
suspension close the player's sockets at once, and a socket whose session ended cannot move."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from euchre_site.asgi import application
from games import services
from games.engine import legal_actions
from games.models import Match, Move
from games.services import events
from tests.support.sockets import (
    HOST,
    ORIGIN,
    board,
    closed_with,
    start_match,
    still_open,
    version_of,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def socket_of(client: Client, path: str):
    from channels.testing import WebsocketCommunicator

    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    ws = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, (b"cookie", cookie)])
    assert (await ws.connect())[0]
    return ws


@database_sync_to_async
def to_act(match_id: int):
    """The player whose turn it is, and an action they may take."""
    match = Match.objects.select_related("player0", "player1").get(pk=match_id)
    return match.players[match.state.turn], str(legal_actions(match.state)[0])


@database_sync_to_async
def moves(match_id: int) -> int:
    return Move.objects.filter(match_id=match_id).count()


async def a_socket_on_the_turn(alice, bob):
    """A match, the player to act, a logged-in client of theirs and its socket with a board."""
    match = await start_match(alice, bob)
    player, action = await to_act(match.pk)
    client = await database_sync_to_async(logged_in)(player)
    ws = await socket_of(client, f"/ws/matches/{match.pk}/")
    await board(ws)
    return match, player, action, client, ws


async def send_move(ws, action: str, version: int = 1) -> None:
    await ws.send_to(text_data=json.dumps({"action": action, "version": version}))


async def test_logging_out_closes_that_sessions_sockets_at_once(alice, bob):
    match, player, _action, client, ws = await a_socket_on_the_turn(alice, bob)
    lobby = await socket_of(client, "/ws/lobby/")
    other = await socket_of(await database_sync_to_async(logged_in)(player), "/ws/lobby/")
    await database_sync_to_async(client.post)("/accounts/logout/")
    assert await closed_with(ws) == 4401
    assert await closed_with(lobby) == 4401
    assert await still_open(other)  # another device's session goes on
    await other.disconnect()


async def test_a_socket_whose_session_ended_cannot_move_even_if_the_news_was_lost(
    alice, bob, monkeypatch
):
    match, _player, action, client, ws = await a_socket_on_the_turn(alice, bob)
    monkeypatch.setattr(events, "send_to_group", lambda group, event: None)  # the layer lost it
    await database_sync_to_async(client.post)("/accounts/logout/")
    await send_move(ws, action)
    assert await closed_with(ws) == 4401
    assert await moves(match.pk) == 0


async def test_a_socket_that_moved_cannot_move_again_once_the_password_changed_unheard(
    alice, bob, monkeypatch
):
    # Its session was checked (and found good) at its first move; the second check must not
    # take that for granted once the password is another.
    match, player, action, _client, ws = await a_socket_on_the_turn(alice, bob)
    await send_move(ws, action)
    assert version_of(await board(ws, version=2)) == 2
    monkeypatch.setattr(events, "send_to_group", lambda group, event: None)  # news lost

    @database_sync_to_async
    def change_password():
        player.set_password("changed elsewhere 7")
        player.save()

    await change_password()
    await send_move(ws, action, version=2)
    assert await closed_with(ws) == 4401
    assert await moves(match.pk) == 1


async def test_a_password_change_closes_the_other_sessions_sockets_and_keeps_this_ones(alice, bob):
    match, player, action, thief, stolen = await a_socket_on_the_turn(alice, bob)
    owner = await database_sync_to_async(logged_in)(player)
    mine = await socket_of(owner, f"/ws/matches/{match.pk}/")
    await board(mine)
    password = "correct horse 1" if player.username == "alice" else "correct horse 2"
    new = {"new_password1": "a new stable 9", "new_password2": "a new stable 9"}
    response = await database_sync_to_async(owner.post)(
        "/accounts/password_change/", {"old_password": password, **new}
    )
    assert response.status_code == 302
    assert await closed_with(stolen) == 4401
    await send_move(mine, action)  # the owner's own socket still plays
    assert version_of(await board(mine, version=2)) == 2
    await mine.disconnect()


async def test_a_password_reset_closes_every_old_sessions_sockets(alice, bob):
    match, player, action, _client, ws = await a_socket_on_the_turn(alice, bob)
    uid = urlsafe_base64_encode(force_bytes(player.pk))
    token = await database_sync_to_async(default_token_generator.make_token)(player)
    browser = Client()
    page = await database_sync_to_async(browser.get)(f"/accounts/reset/{uid}/{token}/")
    assert page.status_code == 302  # to the form, the token kept in the session
    response = await database_sync_to_async(browser.post)(
        page["Location"], {"new_password1": "a new stable 9", "new_password2": "a new stable 9"}
    )
    assert response.status_code == 302
    assert await closed_with(ws) == 4401
    assert await moves(match.pk) == 0


async def test_a_suspension_closes_the_players_sockets_after_the_commit(
    alice, bob, django_user_model
):
    match, player, action, client, ws = await a_socket_on_the_turn(alice, bob)
    lobby = await socket_of(client, "/ws/lobby/")
    moderator = await database_sync_to_async(django_user_model.objects.create_user)("mod")
    await database_sync_to_async(services.player_suspend)(
        moderator=moderator, player=player, reason="stolen account"
    )
    # Closed as suspended (4423: the page says so), not as a session that merely ended.
    assert await closed_with(ws) == 4423
    assert await closed_with(lobby) == 4423


async def test_a_suspended_players_socket_cannot_move_even_if_the_news_was_lost(
    alice, bob, django_user_model, monkeypatch
):
    match, player, action, _client, ws = await a_socket_on_the_turn(alice, bob)
    monkeypatch.setattr(events, "send_to_group", lambda group, event: None)
    await database_sync_to_async(django_user_model.objects.filter(pk=player.pk).update)(
        is_active=False
    )
    await send_move(ws, action)
    assert await closed_with(ws) == 4423
    assert await moves(match.pk) == 0


async def test_a_suspension_rolled_back_closes_nothing(alice, bob, django_user_model):
    match, player, action, _client, ws = await a_socket_on_the_turn(alice, bob)
    moderator = await database_sync_to_async(django_user_model.objects.create_user)("mod")

    @database_sync_to_async
    def suspend_then_fail():
        from django.db import transaction

        try:
            with transaction.atomic():
                services.player_suspend(moderator=moderator, player=player, reason="oops")
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass

    await suspend_then_fail()
    assert await still_open(ws)
    await send_move(ws, action)  # still their session, still their move
    assert version_of(await board(ws, version=2)) == 2
    await ws.disconnect()
