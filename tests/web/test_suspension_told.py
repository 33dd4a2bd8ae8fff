"""A suspension reaches every open page of the player at once, with the moderators' reason in
the player's language (a push through the page's own socket, on real channels), and the page
a reload lands on (the log-in page) says the same."""

from __future__ import annotations

import html

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation

from euchre_site.asgi import application
from games import services

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

REASON = "Abusive chat in match 12"


def thai_session(user) -> Client:
    """A logged-in browser that reads the site in Thai."""
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "th"
    return client


def suspended_words() -> str:
    with translation.override("th"):
        return translation.gettext(
            "This account is suspended. The moderators gave this reason: %(reason)s"
        ) % {"reason": REASON}


async def page_socket(client: Client, path: str) -> WebsocketCommunicator:
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    ws = WebsocketCommunicator(application, path, headers=[*headers, (b"cookie", cookies.encode())])
    assert (await ws.connect())[0]
    return ws


async def frame_with(ws: WebsocketCommunicator, marker: str) -> str:
    """The first frame holding ``marker`` (the others, such as the challenges banner sent as
    the page opens, are skipped); fails if the socket closes first."""
    while True:
        output = await ws.receive_output(timeout=5)
        assert output["type"] == "websocket.send", output
        if marker in output["text"]:
            return output["text"]


async def closed_with(ws: WebsocketCommunicator) -> int | None:
    while True:
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output.get("code")


async def test_every_open_page_of_a_suspended_player_is_told_why_at_once(alice, django_user_model):
    browser = await database_sync_to_async(thai_session)(alice)
    pages = [await page_socket(browser, "/ws/me/") for _tab in range(2)]  # two open pages
    for ws in pages:
        await frame_with(ws, 'id="challenges"')  # the page's socket is open and heard
    moderator = await database_sync_to_async(django_user_model.objects.create_user)("mod")
    await database_sync_to_async(services.player_suspend)(
        moderator=moderator, player=alice, reason=REASON
    )
    for ws in pages:
        pushed = html.unescape(await frame_with(ws, "data-suspended"))
        assert suspended_words() in pushed and 'role="alert"' in pushed
        assert await closed_with(ws) == 4423  # then the socket closes: nothing more to do


@database_sync_to_async
def suspend_then_reload(player, moderator) -> str:
    browser = thai_session(player)
    services.player_suspend(moderator=moderator, player=player, reason=REASON)
    landed = browser.get("/play/", follow=True)  # a reload of the lobby
    assert landed.redirect_chain[-1][0].startswith("/accounts/login/")
    return html.unescape(landed.content.decode())


async def test_the_page_a_suspended_players_reload_lands_on_says_why_in_their_language(
    alice, bob, django_user_model
):
    moderator = await database_sync_to_async(django_user_model.objects.create_user)("mod")
    page = await suspend_then_reload(alice, moderator)
    assert suspended_words() in page
    # Another visitor's log-in page says nothing of it.
    other = await database_sync_to_async(Client().get)("/accounts/login/")
    assert "data-suspended" not in other.content.decode()
