"""Websocket handshakes and frames that bench/fuzz found answered with a 500 or a dropped
socket: an address with no socket, an Origin that does not parse, a frame nested deeper than
JSON's decoder goes, a frame that is no JSON at all, and a NUL in a name (PostgreSQL refuses it
in a query). Each now gets words (an error frame, then a close code) or a refused handshake,
and the socket that got a bad frame stays open."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from euchre_site.asgi import application
from tests.support.sockets import HOST, ORIGIN, board, error_frame, socket, start_match

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/lobby", "/ws/matches/abc/", "/api/v1/ws/x"])
async def test_an_address_with_no_socket_says_so_and_closes(path):
    communicator = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN])
    connected, _ = await communicator.connect()
    assert connected
    said = json.loads(await communicator.receive_from(timeout=5))
    assert said == {"error": "There is nothing here"}
    assert (await communicator.receive_output(timeout=5))["code"] == 4404


@pytest.mark.parametrize("origin", [b"http://[", b"http://testserver:abc", b"http://a:b"])
async def test_an_origin_that_does_not_parse_is_refused_at_the_handshake(origin):
    communicator = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[HOST, (b"origin", origin)]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_a_frame_nested_too_deep_is_unreadable_and_the_socket_stays(alice, bob):
    match = await start_match(alice, bob)
    page = await socket(alice, f"/ws/matches/{match.pk}/")
    assert (await page.connect())[0]
    await board(page)
    await page.send_to(text_data=DEEP)
    assert "That move could not be read" in await error_frame(page)
    await page.send_to(text_data="not json")
    assert "That move could not be read" in await error_frame(page)
    await page.disconnect()


async def test_the_health_socket_answers_what_it_cannot_read(alice):
    health = WebsocketCommunicator(application, "/ws/health/", headers=[HOST, ORIGIN])
    assert (await health.connect())[0]
    assert (await health.receive_json_from(timeout=5))["status"] == "ok"
    for frame in ({"text_data": "not json"}, {"text_data": DEEP}, {"bytes_data": b"\x00"}):
        await health.send_to(**frame)
        assert await health.receive_json_from(timeout=5) == {
            "error": "That message could not be read"
        }
    await health.send_json_to({"ping": 1})
    assert (await health.receive_json_from(timeout=5))["echo"] == {"ping": 1}
    await health.disconnect()


@database_sync_to_async
def pages_for_a_nul(user) -> list[int]:
    client = Client()
    client.force_login(user)
    return [
        client.get("/users/al%00ice/").status_code,
        client.post("/users/al%00ice/challenge", {"challenge-deck": "24"}).status_code,
        client.get("/history/", {"opponent": "b\x00b"}).status_code,
    ]


async def test_a_nul_in_a_name_is_nobody(alice):
    assert await pages_for_a_nul(alice) == [404, 404, 200]
