"""The account page's sessions: each of the player's sessions listed with its device, this
device marked; ending one logs it out and closes its sockets at once (4401); another
player's session cannot be ended; "end all other sessions" keeps this one."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.test import Client

from euchre_site.asgi import application
from games.models import AccountEvent, AccountSession
from tests.support.sockets import HOST, ORIGIN, still_open

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)
DESKTOP = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0"


def logged_in(user, password: str, user_agent: str) -> Client:
    """A browser that logged in through the log-in form."""
    client = Client(HTTP_USER_AGENT=user_agent)
    answer = client.post("/accounts/login/", {"username": user.username, "password": password})
    assert answer.status_code == 302, answer.content.decode()
    return client


def session_id(client: Client) -> int:
    return AccountSession.objects.get(session_key=client.cookies["sessionid"].value).pk


def listed(client: Client) -> str:
    answer = client.get("/settings/account/")
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.django_db
def test_the_list_shows_each_session_with_its_device_and_marks_this_one(alice):
    phone = logged_in(alice, "correct horse 1", PHONE)
    desktop = logged_in(alice, "correct horse 1", DESKTOP)
    page = listed(phone)
    assert "Chrome · Android" in page and "Firefox · macOS" in page
    this = page.split("data-this-device")[1].split("</li>")[0]
    assert "Chrome · Android" in this and "This device" in this
    assert page.count("data-this-device") == 1
    assert "the addresses you connect from" in page  # no place is claimed
    other = listed(desktop).split("data-this-device")[1].split("</li>")[0]
    assert "Firefox · macOS" in other
    # No session key is ever shown: only the rows' own numbers.
    assert phone.cookies["sessionid"].value not in page
    assert desktop.cookies["sessionid"].value not in page


@pytest.mark.django_db
def test_ending_a_session_asks_first_then_logs_that_device_out(alice):
    phone = logged_in(alice, "correct horse 1", PHONE)
    desktop = logged_in(alice, "correct horse 1", DESKTOP)
    target = session_id(phone)
    asking = desktop.get(f"/settings/account/?end={target}").content.decode()
    assert "That device will be logged out at once" in asking
    assert AccountSession.objects.filter(pk=target).exists()  # asking ended nothing
    answer = desktop.post(f"/settings/account/sessions/{target}/end", follow=True)
    assert "The session has ended" in answer.content.decode()
    assert not AccountSession.objects.filter(pk=target).exists()
    # Its next request is logged out; the one that ended it is not.
    assert phone.get("/settings/account/")["Location"].startswith("/accounts/login/")
    assert listed(desktop).count("data-session=") == 1
    ended = AccountEvent.objects.get(user=alice, kind=AccountEvent.Kind.SESSION_ENDED)
    assert "Android" in ended.detail


@pytest.mark.django_db
def test_ending_this_device_is_a_log_out(alice):
    phone = logged_in(alice, "correct horse 1", PHONE)
    answer = phone.post(f"/settings/account/sessions/{session_id(phone)}/end", follow=True)
    assert "You are logged out." in answer.content.decode()
    assert phone.get("/settings/account/").status_code == 302
    assert not AccountSession.objects.filter(user=alice).exists()


@pytest.mark.django_db
def test_another_players_session_cannot_be_ended(alice, bob):
    bobs = logged_in(bob, "correct horse 2", DESKTOP)
    alices = logged_in(alice, "correct horse 1", PHONE)
    for target in (session_id(bobs), 999_999_999):
        answer = alices.post(f"/settings/account/sessions/{target}/end")
        assert answer.status_code == 404
        assert "There is no such session of yours" in answer.content.decode()
    assert listed(bobs).count("data-session=") == 1  # bob is still logged in
    assert not AccountEvent.objects.filter(kind=AccountEvent.Kind.SESSION_ENDED).exists()
    assert alices.get("/settings/account/sessions/1/end").status_code == 405  # a POST only


@pytest.mark.django_db
def test_ending_all_other_sessions_keeps_this_one(alice, bob):
    mine = logged_in(alice, "correct horse 1", DESKTOP)
    others = [logged_in(alice, "correct horse 1", PHONE) for _ in range(2)]
    bobs = logged_in(bob, "correct horse 2", PHONE)
    assert "Every device but this one" in mine.get("/settings/account/?end=others").content.decode()
    answer = mine.post("/settings/account/sessions/end-others", follow=True)
    assert "2 other sessions have ended" in answer.content.decode()
    for other in others:
        assert other.get("/settings/account/").status_code == 302
    assert listed(mine).count("data-session=") == 1
    assert listed(bobs).count("data-session=") == 1


@pytest.mark.django_db
def test_a_password_change_leaves_only_this_session_listed(alice):
    mine = logged_in(alice, "correct horse 1", DESKTOP)
    logged_in(alice, "correct horse 1", PHONE)
    new = {"new_password1": "a new stable 9", "new_password2": "a new stable 9"}
    answer = mine.post("/accounts/password_change/", {"old_password": "correct horse 1", **new})
    assert answer.status_code == 302
    page = listed(mine)  # its renewed key still names its row
    assert page.count("data-session=") == 1 and "data-this-device" in page
    assert "Firefox · macOS" in page
    logged_in(alice, "a new stable 9", PHONE)
    answer = mine.post("/settings/account/sessions/end-others", follow=True)
    assert "1 other session has ended" in answer.content.decode()  # as many as were listed
    assert list(AccountSession.objects.filter(user=alice)) == [
        AccountSession.objects.get(session_key=mine.cookies["sessionid"].value)
    ]


async def page_socket(client: Client, path: str) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    ws = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, (b"cookie", cookie)])
    assert (await ws.connect())[0]
    return ws


async def closed_within_a_second(ws) -> int | None:
    """The close code, which must come within a second (frames before it are skipped)."""
    while True:
        output = await ws.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            return output.get("code")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_ending_a_session_closes_its_open_sockets_at_once(alice):
    phone = await database_sync_to_async(logged_in)(alice, "correct horse 1", PHONE)
    desktop = await database_sync_to_async(logged_in)(alice, "correct horse 1", DESKTOP)
    lobby = await page_socket(phone, "/ws/lobby/")
    me = await page_socket(phone, "/ws/me/")
    mine = await page_socket(desktop, "/ws/lobby/")
    target = await database_sync_to_async(session_id)(phone)
    answer = await database_sync_to_async(desktop.post)(f"/settings/account/sessions/{target}/end")
    assert answer.status_code == 302
    assert await closed_within_a_second(lobby) == 4401
    assert await closed_within_a_second(me) == 4401
    assert await still_open(mine)  # the device that ended it goes on
    await mine.disconnect()
    gone = await database_sync_to_async(
        Session.objects.filter(session_key=phone.cookies["sessionid"].value).exists
    )()
    assert not gone
