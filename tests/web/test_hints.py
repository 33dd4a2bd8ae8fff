"""Hints: the hard computer's choice and why, in casual matches against the computer only,
over http and the socket; refused in words everywhere else."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games import services
from games.engine import legal_actions
from games.models import Match
from tests.support.matches import start
from tests.support.sockets import board, error_frame, socket

HTMX = {"HTTP_HX_REQUEST": "true"}


def my_turn(match: Match, user) -> Match:
    """Pass (or take the first legal action) for whoever is not ``user`` until it is
    ``user``'s turn; the computer's turns are played by its task in real life."""
    while match.state.turn != match.seat_of(user):
        actions = [str(a) for a in legal_actions(match.state)]
        mover = match.players[match.state.turn]
        match = services.move_apply(
            user=mover, match_id=match.pk, version=match.version,
            action="pass" if "pass" in actions else actions[0],
        ).match  # fmt: skip
    return match


def computer_match(user) -> Match:
    match = services.match_create_computer(user=user, strength="hard")
    return my_turn(match, user)


@pytest.mark.django_db
def test_a_casual_match_against_the_computer_offers_a_hint_on_your_turn(client, alice):
    match = computer_match(alice)
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="hint"' in page
    response = client.post(f"/matches/{match.pk}/hint", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "data-hint-action" in html and "data-hint-why" in html
    # The page without htmx shows the hint on the board.
    page = client.post(f"/matches/{match.pk}/hint").content.decode()
    assert 'id="board"' in page and "data-hint-why" in page
    assert page.count('data-action="theme"') == 3  # the side panel as on the match page
    assert Match.objects.get(pk=match.pk).version == match.version  # a hint changes nothing


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["rated between people", "casual between people", "rated"])
def test_no_hint_outside_casual_matches_against_the_computer(client, alice, bob, kind):
    if kind == "rated":  # (computer matches are never rated: as if one were)
        match = computer_match(alice)
        Match.objects.filter(pk=match.pk).update(rated=True)
    else:
        match = my_turn(start(alice, bob, rated=kind.startswith("rated")), alice)
    client.force_login(alice)
    assert 'data-action="hint"' not in client.get(f"/matches/{match.pk}/").content.decode()
    response = client.post(f"/matches/{match.pk}/hint", **HTMX)
    assert response.status_code == 403
    assert "Hints are only for casual matches against the computer" in response.content.decode()
    assert "data-hint-action" not in response.content.decode()
    response = client.post(f"/matches/{match.pk}/hint")
    assert response.status_code == 403 and "Hints are only for" in response.content.decode()


@pytest.mark.django_db
def test_no_hint_for_a_spectator_or_out_of_turn(client, alice, bob):
    match = computer_match(alice)
    client.force_login(bob)
    response = client.post(f"/matches/{match.pk}/hint", **HTMX)
    assert response.status_code == 403 and "You are not playing" in response.content.decode()
    match = services.move_apply(
        user=alice, match_id=match.pk, version=match.version, action="pass"
    ).match
    assert match.state.turn == 1  # the computer's turn now (the dealer's, or round two's)
    client.force_login(alice)
    response = client.post(f"/matches/{match.pk}/hint", **HTMX)
    assert response.status_code == 409
    assert "A hint is for your turn" in response.content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_hint_over_the_socket_and_its_refusal_in_words(alice, bob):
    match = await database_sync_to_async(computer_match)(alice)
    communicator = await socket(alice, f"/ws/matches/{match.pk}/")
    assert (await communicator.connect())[0]
    await board(communicator)
    await communicator.send_to(text_data=json.dumps({"hint": 1}))
    while "data-hint-why" not in (frame := await communicator.receive_from(timeout=5)):
        pass
    assert 'id="hint"' in frame and "hx-swap-oob" in frame
    await communicator.disconnect()

    people = await database_sync_to_async(start)(alice, bob, rated=False)
    communicator = await socket(alice, f"/ws/matches/{people.pk}/")
    assert (await communicator.connect())[0]
    await communicator.send_to(text_data=json.dumps({"hint": 1}))
    assert "Hints are only for casual matches" in await error_frame(communicator)
    await communicator.disconnect()
