"""Issue 60's gaps, as an outside bot written from the published documents found them: every
answer under /api/ is JSON with a code, in one shape (``code``, ``detail``, ``errors``: a list
of ``{field, message}``); enumerated inputs are enums; a socket speaks ``euchre.v1`` or is
refused; ``since`` past the match is refused in words; every 429 says when; a websocket has a
heartbeat of its own; and a token's websocket from a web page holds to the origins its player
lists, as its requests do."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient, Client

from euchre_site.asgi import application
from games.api.views import api
from games.services.players import player_api_origins_set
from tests.support.api import program, refused, token_for
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async
JSON = "application/json"


# One shape, JSON everywhere under /api/


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [("get", "/api/v1/matches/1/move", "POST"), ("delete", "/api/v1/account", "GET")],
)
def test_a_method_an_address_does_not_take_is_a_405_in_json(alice, method, path, allowed):
    answer = getattr(program(token_for(alice)), method)(path)
    body = refused(answer, 405, "method_not_allowed")
    assert answer["Allow"] == allowed and allowed in body["detail"]
    assert body["errors"] == []


@pytest.mark.parametrize(
    "path", ["/api/v1/no-such-thing", "/api/v1/matches/abc/move", "/api/v2/matches", "/api/x"]
)
def test_a_path_nothing_serves_under_api_is_a_404_in_json(alice, path):
    body = refused(program(token_for(alice)).get(path), 404, "not_found")
    assert body == {"code": "not_found", "detail": "There is nothing here", "errors": []}


def test_a_form_encoded_move_says_what_could_not_be_read(alice, bob):
    match = start(alice, bob, move_seconds=None)
    mover = program(token_for(match.players[match.state.turn]))
    answer = mover.post(f"/api/v1/matches/{match.pk}/move", {"action": "pass", "version": 2})
    body = refused(answer, 400, "invalid")
    assert body["errors"] == [{"field": "body", "message": "Send a JSON object"}]


def test_a_form_and_the_schema_refuse_in_the_same_shape(alice):
    client = program(token_for(alice))
    by_form = refused(client.post("/api/v1/matches", {"deck": 23}, JSON), 400, "invalid")
    by_schema = refused(client.post("/api/v1/matches", {"deck": "many"}, JSON), 400, "invalid")
    for body in (by_form, by_schema):
        assert body["errors"] and all(set(e) == {"field", "message"} for e in body["errors"])
        assert [e["field"] for e in body["errors"]] == ["deck"]
        assert all(isinstance(e["message"], str) and e["message"] for e in body["errors"])


@pytest.mark.parametrize(("name", "value"), [("result", "bogus"), ("kind", "ranked")])
def test_the_historys_filters_take_only_their_values(alice, name, value):
    client = program(token_for(alice))
    body = refused(client.get(f"/api/v1/account/history?{name}={value}"), 400, "invalid")
    assert [e["field"] for e in body["errors"]] == [name]
    assert client.get("/api/v1/account/history?result=won&kind=rated").status_code == 200
    parameters = api.get_openapi_schema()["paths"]["/api/v1/account/history"]["get"]["parameters"]
    enums = {p["name"]: p["schema"].get("enum") for p in parameters}
    assert enums["result"] == ["", "won", "lost"] and enums["kind"] == ["", "rated", "casual"]


# Sockets


async def opened(path: str, headers=(), subprotocols=None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), *headers], subprotocols=subprotocols
    )
    assert (await communicator.connect())[0]
    return communicator


async def frame(communicator: WebsocketCommunicator) -> dict:
    return json.loads(await communicator.receive_from(timeout=5))


async def closed_with(communicator: WebsocketCommunicator) -> int:
    return (await communicator.receive_output(timeout=5))["code"]


def bearer(token: str) -> tuple[bytes, bytes]:
    return (b"authorization", f"Bearer {token}".encode())


@pytest.mark.asyncio
async def test_a_token_offered_without_euchre_v1_is_refused_in_words(alice):
    token = await db(token_for)(alice)
    socket = await opened("/api/v1/ws/account", subprotocols=[f"euchre.token.{token}"])
    error = await frame(socket)
    assert error["code"] == "protocol_missing"
    assert error["detail"] == "Offer the subprotocol euchre.v1"
    assert await closed_with(socket) == 4400


@pytest.mark.asyncio
async def test_since_past_the_matchs_version_is_refused_in_words(alice, bob):
    match = await db(start)(alice, bob, move_seconds=None)
    token = await db(token_for)(alice)
    path = f"/api/v1/ws/matches/{match.pk}?since={match.version + 1}"
    socket = await opened(path, [bearer(token)])
    error = await frame(socket)
    assert error["code"] == "since_ahead"
    assert error["detail"] == f"The match is at version {match.version}: it has no later one yet"
    assert await closed_with(socket) == 4400
    over_http = await AsyncClient().get(
        f"/api/v1/stream/matches/{match.pk}?since={2**70}",
        headers={"authorization": f"Bearer {token}"},
    )
    body = refused(over_http, 400, "since_ahead")
    assert str(match.version) in body["detail"]
    # Its own version is no news: the stream opens with the match as it is.
    socket = await opened(f"/api/v1/ws/matches/{match.pk}?since={match.version}", [bearer(token)])
    assert (await frame(socket))["type"] == "state"
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_quiet_socket_sends_a_heartbeat_frame(alice, settings):
    settings.REALTIME_HEARTBEAT_SECONDS = 0  # every catch-up beat is a heartbeat
    settings.REALTIME_CATCH_UP_SECONDS = 0.05
    socket = await opened("/api/v1/ws/account", [bearer(await db(token_for)(alice))])
    assert (await frame(socket))["type"] == "idle"
    assert await frame(socket) == {"type": "heartbeat"}
    await socket.disconnect()
    schema = api.get_openapi_schema()
    assert all(s["heartbeat"]["frame"] for s in schema["x-websockets"])
    assert schema["components"]["schemas"]["HeartbeatFrame"]


MINE = "https://bots.example.org"


@pytest.mark.asyncio
async def test_a_web_pages_socket_holds_to_the_origins_the_player_lists(alice, bob):
    await db(player_api_origins_set)(user=alice, origins=[MINE])
    await db(player_api_origins_set)(user=bob, origins=["https://elsewhere.example.org"])
    token = await db(token_for)(alice)
    for origin in ("https://elsewhere.example.org", "https://evil.example.com"):
        socket = await opened("/api/v1/ws/account", [bearer(token), (b"origin", origin.encode())])
        error = await frame(socket)
        assert error["code"] == "origin_not_listed" and "settings page" in error["detail"]
        assert await closed_with(socket) == 4403
    # Its listed origin, the site's own pages, and a program (no Origin) are let in.
    for headers in ([(b"origin", MINE.encode())], [(b"origin", b"http://testserver")], []):
        socket = await opened("/api/v1/ws/account", [bearer(token), *headers])
        assert (await frame(socket))["type"] == "idle"
        await socket.disconnect()


def test_the_api_page_documents_the_shape_and_the_sockets_codes():
    schema = api.get_openapi_schema()
    error = schema["components"]["schemas"]["Error"]
    assert "errors" in error["required"]
    assert set(schema["components"]["schemas"]["FieldError"]["properties"]) == {"field", "message"}
    for code in ("method_not_allowed", "server_error", "protocol_missing", "since_ahead"):
        assert code in error["properties"]["code"]["enum"]
    assert "4400" in schema["x-websockets"][0]["close_codes"]


def test_a_site_page_under_api_docs_is_still_a_page(client: Client):
    assert client.get("/api/v1/docs").status_code == 200


def test_a_body_too_large_is_refused_in_json_not_the_sites_page(alice, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = program(token_for(alice))
    answer = client.post("/api/v1/matches", {"deck": 24, "pad": "x" * 2000}, JSON)
    body = refused(answer, 400, "invalid")
    assert body["detail"] == "The request could not be read" and body["errors"] == []
