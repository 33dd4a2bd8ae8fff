"""The account page's leaving: the file of one's data, made by the real task worker (the
player's matches and settings, nobody's hidden cards, no seed), once a day; deleting the
account with the password (and a second factor's code if set), after which the opponent's
history and replay name the matches' player "deleted player", linked nowhere, and the
player's open sockets close at once."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import services
from games.engine import view_for
from games.engine.view import hidden_cards, shown_from_last_hand
from games.models import (
    DataExport,
    Match,
    NameReservation,
    PlayerSettings,
    PushSubscription,
    is_deleted,
)
from tests.support.leaks import cards_shown
from tests.support.matches import both_acted, play_to_the_end, start
from tests.support.second_factors import app_device, code_now, wrong_code
from tests.support.sockets import closed_with, socket
from tests.support.tasks import run_due_tasks

PASSWORD = "correct horse 1"  # alice's


def logged_in(user) -> Client:
    client = Client()
    answer = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert answer.status_code == 302, answer.content.decode()
    return client


def section(client: Client) -> str:
    page = client.get("/settings/account/").content.decode()
    return page.split('id="leaving"')[1].split("</section>")[0]


@pytest.mark.django_db
def test_a_wrong_password_is_refused_in_words_and_changes_nothing(alice):
    client = logged_in(alice)
    answer = client.post("/settings/account/delete", {"password": "not mine"})
    assert answer.status_code == 403
    assert "That is not your password: nothing was changed" in answer.content.decode()
    alice.refresh_from_db()
    assert alice.username == "alice" and alice.is_active
    empty = client.post("/settings/account/delete", {})
    assert empty.status_code == 400 and "This field is required." in empty.content.decode()
    assert client.get("/settings/account/").status_code == 200  # still logged in


@pytest.mark.django_db
def test_with_a_second_factor_a_code_is_asked_and_a_wrong_one_refused(alice):
    device = app_device(alice)
    client = Client()
    client.force_login(alice)  # as the log-in's code page leaves it
    assert 'name="code"' in section(client)
    answer = client.post(
        "/settings/account/delete", {"password": PASSWORD, "code": wrong_code(device)}
    )
    assert answer.status_code == 403 and "That code is not right" in answer.content.decode()
    assert not is_deleted(get_user_model().objects.get(pk=alice.pk))
    answer = client.post(
        "/settings/account/delete", {"password": PASSWORD, "code": code_now(device)}
    )
    assert answer.status_code == 302
    assert is_deleted(get_user_model().objects.get(pk=alice.pk))


@pytest.mark.django_db
def test_after_deleting_the_opponent_sees_the_matches_under_the_placeholder(alice, bob, carol):
    finished = play_to_the_end(start(alice, bob, rated=True))
    with_carol = play_to_the_end(start(carol, alice))
    client = logged_in(alice)
    answer = client.post("/settings/account/delete", {"password": PASSWORD}, follow=True)
    assert "Your account has been deleted" in answer.content.decode()
    assert client.get("/settings/account/").status_code == 302  # logged out
    assert not get_user_model().objects.filter(username="alice").exists()
    opponent = Client()
    opponent.force_login(bob)
    history = opponent.get("/history/").content.decode()
    row = history.split(f'data-match="{finished.pk}"')[1].split("</tr>")[0]
    assert "deleted player" in row and "data-deleted-player" in row
    assert "alice" not in row and "/players/" not in row  # linked to no profile
    replay = opponent.get(f"/matches/{finished.pk}/replay").content.decode()
    assert "deleted player" in replay and f"deleted {alice.pk}" not in replay
    board = opponent.get(f"/matches/{finished.pk}/").content.decode()
    assert "deleted player" in board and f"deleted {alice.pk}" not in board
    assert ">alice<" not in board
    # Programs get the placeholder too, and nobody finds a profile under the old or new name.
    for played in (finished, with_carol):
        record = json.loads(opponent.get(f"/matches/{played.pk}/record.json").content)
        assert "deleted player" in [p["username"] for p in record["players"]]
    _row, token = services.api_token_create(user=bob, name="bob's", scopes=["read"])
    program = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    for path in (f"/api/v1/matches/{finished.pk}", "/api/v1/account/history"):
        api = program.get(path)
        assert api.status_code == 200, path
        text = api.content.decode()
        assert "deleted player" in text and f"deleted {alice.pk}" not in text, path
    assert opponent.get("/players/alice/").status_code == 404
    assert "alice" not in opponent.get("/leaderboard/").content.decode()
    # The name waits out the delay before anyone may sign up with it.
    signup = {"username": "alice", "password1": "Fresh-start-55", "password2": "Fresh-start-55"}
    refused = Client().post("/accounts/signup/", signup)
    assert refused.status_code == 400 and "looks too much like another" in refused.content.decode()
    NameReservation.objects.update(until=timezone.now() - timedelta(minutes=1))
    assert Client().post("/accounts/signup/", signup).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_the_data_file_is_made_by_the_worker_and_holds_no_hidden_card(alice, bob):
    finished = play_to_the_end(start(alice, bob))
    in_play = both_acted(start(bob, alice))
    PlayerSettings.objects.update_or_create(user=alice, defaults={"four_colour": True})
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/secret-path",
                                    p256dh="device-key", auth="device-secret", kinds="turn",
                                    device="Firefox on Android")  # fmt: skip
    client = logged_in(alice)
    assert 'data-export="none"' in section(client)
    answer = client.post("/settings/account/data", follow=True)
    assert "Your data is being prepared" in answer.content.decode()
    assert 'data-export="preparing"' in section(client)
    assert client.get("/settings/account/data/download").status_code == 404  # not yet
    run_due_tasks()
    shown = section(client)
    assert 'data-export="ready"' in shown and "Offered until" in shown
    download = client.get("/settings/account/data/download")
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment;")
    data = json.loads(download.content)
    assert data["format"] == "euchre-data 1"
    assert data["account"]["username"] == "alice"
    assert data["settings"]["four_colour"] is True
    assert data["settings"]["insights_public"] is False
    assert data["puzzles"]["streak"] is None and data["puzzles"]["answers"] == []
    [device] = data["notification_devices"]
    assert device["device"] == "Firefox on Android" and device["kinds"] == "turn"
    assert "secret-path" not in download.content.decode()  # nor the device's keys
    assert "device-key" not in download.content.decode()
    assert data["fair_play"] == {"marks": [], "warnings": [], "appeals": []}
    matches = {m["match"]["id"]: m for m in data["matches"]}
    assert set(matches) == {finished.pk, in_play.pk}
    text = download.content.decode()
    for match in (finished, in_play):
        match = Match.objects.get(pk=match.pk)
        assert str(match.seed) not in text and '"seed"' not in text
        mine = matches[match.pk]
        seat = mine["seat"]
        assert mine["view"] == json.loads(json.dumps(view_for(match.state, seat).as_dict()))
        hidden = hidden_cards(match.state, seat) - shown_from_last_hand(match.state, seat)
        assert not cards_shown(json.dumps(mine["view"])) & hidden
        for move in mine["moves"]:  # the opponent's discards, as during the match
            if move["seat"] != seat and move["action"].startswith("discard"):
                assert move["action"] == "discard"
    assert mine["moves"] and mine["match"]["status"] == "active"
    # Once a day: a second request is refused in words, and later replaces the first.
    again = client.post("/settings/account/data")
    assert again.status_code == 429 and "less than a day ago" in again.content.decode()
    DataExport.objects.update(requested_at=timezone.now() - timedelta(days=1, minutes=1))
    assert client.post("/settings/account/data").status_code == 302
    assert 'data-export="preparing"' in section(client)
    assert DataExport.objects.count() == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_deleting_closes_every_open_socket_of_the_player_at_once(alice):
    opened = []
    for path in ("/ws/lobby/", "/ws/me/", "/ws/lobby/"):  # each with a session of its own
        ws = await socket(alice, path)
        assert (await ws.connect())[0]
        opened.append(ws)
    client = await database_sync_to_async(logged_in)(alice)
    answer = await database_sync_to_async(client.post)(
        "/settings/account/delete", {"password": PASSWORD}
    )
    assert answer.status_code == 302
    for ws in opened:  # closed as a log-out closes them, not as a suspension (4423)
        assert await asyncio.wait_for(closed_with(ws), timeout=1) == 4401
