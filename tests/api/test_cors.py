"""CORS for the API's token requests, from the web pages (origins) a player allows on their
settings page: a preflight passes an origin some player allows, the request itself is shared
with the page only if the token's own player allows it; no cookie is ever allowed."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient, Client

from games.api.views import api
from games.services.players import player_api_origins_set
from tests.support import contract
from tests.support.api import token_for
from tests.support.matches import start
from tests.support.streams import HttpStream

pytestmark = pytest.mark.django_db

MINE = "https://alice.example"
db = database_sync_to_async


def preflight(origin: str, path: str = "/api/v1/account", method: str = "GET"):
    return Client().options(
        path,
        headers={
            "origin": origin,
            "access-control-request-method": method,
            "access-control-request-headers": "authorization",
        },
    )


def from_page(token: str, origin: str, path: str = "/api/v1/account"):
    return Client().get(path, headers={"authorization": f"Bearer {token}", "origin": origin})


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",")}


def test_a_preflight_passes_an_origin_a_player_allows(alice):
    player_api_origins_set(user=alice, origins=[MINE])
    for path, method in [("/api/v1/account", "GET"), ("/api/v1/matches/12/move", "POST")]:
        response = preflight(MINE, path, method)
        assert response.status_code == 204 and response.content == b""
        assert "Content-Type" not in response  # no body, so no type (it said text/html)
        assert response["Access-Control-Allow-Origin"] == MINE
        assert method in response["Access-Control-Allow-Methods"]
        assert response["Access-Control-Allow-Headers"] == (
            "Authorization, Content-Type, Accept-Language"
        )
        assert int(response["Access-Control-Max-Age"]) > 0
        assert "Access-Control-Allow-Credentials" not in response and "origin" in vary(response)


def test_a_preflight_from_an_origin_nobody_allows_is_refused_in_words(alice):
    player_api_origins_set(user=alice, origins=[MINE])
    for origin in ["https://elsewhere.example", "http://alice.example", "null"]:
        response = preflight(origin)
        assert response.status_code == 403 and "Access-Control-Allow-Origin" not in response
        assert response.json()["code"] == "origin_not_allowed" and response.json()["detail"]


def test_a_preflight_allows_the_methods_the_api_answers_and_no_other(alice):
    player_api_origins_set(user=alice, origins=[MINE])
    paths = api.get_openapi_schema()["paths"]
    methods = {m.upper() for ops in paths.values() for m in ops if m != "options"}
    allowed = preflight(MINE)["Access-Control-Allow-Methods"]
    assert set(allowed.split(", ")) == methods == {"GET", "POST"}  # no PUT, PATCH, DELETE


def test_every_path_publishes_its_preflight_as_it_is_answered(alice):
    schema = api.get_openapi_schema()
    player_api_origins_set(user=alice, origins=[MINE])
    for path, operations in schema["paths"].items():
        found = operations["options"]
        assert set(found["responses"]) == {"204", "403", "404", "405"}, path
        asked = [resolved(schema, p) for p in found["parameters"]]
        required = {p["name"] for p in asked if p["in"] == "header" and p["required"]}
        assert required == {"Origin", "Access-Control-Request-Method"}
        named = {p["name"] for p in asked if p["in"] == "path"}
        assert named == {part[1:-1] for part in path.split("/") if part.startswith("{")}
    concrete = "/api/v1/matches/12/move"
    passed = resolved(schema, contract.operation("OPTIONS", concrete)["responses"]["204"])
    assert "content" not in passed  # no body
    answered = preflight(MINE, concrete, "POST")
    for header, published in passed["headers"].items():  # each as published
        assert answered[header] == published["schema"].get("const", MINE), header
    refused = preflight("https://elsewhere.example", concrete, "POST")
    shape = resolved(schema, contract.operation("OPTIONS", concrete)["responses"]["403"])
    assert refused.status_code == 403 and refused["Content-Type"] == "application/json"
    assert shape["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    contract.valid("Error", refused.json())  # the refusal is the Error it says


def resolved(schema: dict, item: dict) -> dict:
    """``item``, or the component its ``$ref`` names."""
    if "$ref" not in item:
        return item
    found = schema
    for part in item["$ref"].removeprefix("#/").split("/"):
        found = found[part]
    return found


def test_a_request_is_shared_with_a_page_its_tokens_player_allows(alice, bob):
    player_api_origins_set(user=alice, origins=[MINE, "http://localhost:8080"])
    response = from_page(token_for(alice), MINE)
    assert response.status_code == 200 and response.json()["username"] == "alice"
    assert response["Access-Control-Allow-Origin"] == MINE and "origin" in vary(response)
    assert "Access-Control-Allow-Credentials" not in response
    assert "Retry-After" in response["Access-Control-Expose-Headers"]
    local = from_page(token_for(alice), "http://localhost:8080")
    assert local["Access-Control-Allow-Origin"] == "http://localhost:8080"


def test_a_request_is_not_shared_with_a_page_its_tokens_player_did_not_allow(alice, bob):
    player_api_origins_set(user=alice, origins=[MINE])
    # Bob's token from Alice's page: the preflight passed (Alice allows it), the answer not.
    response = from_page(token_for(bob), MINE)
    assert response.status_code == 200 and "Access-Control-Allow-Origin" not in response
    assert "origin" in vary(response)
    elsewhere = from_page(token_for(alice), "https://elsewhere.example")
    assert "Access-Control-Allow-Origin" not in elsewhere
    assert "Access-Control-Allow-Origin" not in from_page("euchre_nope", MINE)  # 401
    assert "Access-Control-Allow-Origin" not in Client().get("/api/v1/account", origin=MINE)


def test_a_refusal_is_shared_too_so_the_page_can_read_it(alice, bob, settings):
    player_api_origins_set(user=alice, origins=[MINE])
    match = start(alice, bob, move_seconds=None)
    token = token_for(alice)
    stale = Client().post(
        f"/api/v1/matches/{match.pk}/move",
        {"action": "pass", "version": 0},
        content_type="application/json",
        headers={"authorization": f"Bearer {token}", "origin": MINE},
    )
    assert stale.status_code == 409 and stale["Access-Control-Allow-Origin"] == MINE
    reader = token_for(alice, scopes=("read",))
    refused = Client().post(
        f"/api/v1/matches/{match.pk}/resign",
        headers={"authorization": f"Bearer {reader}", "origin": MINE},
    )
    assert refused.status_code == 403 and refused["Access-Control-Allow-Origin"] == MINE
    settings.API_REQUESTS_PER_MINUTE = 1
    from_page(token, MINE)
    limited = from_page(token, MINE)  # refused before the endpoint knew the token's player
    assert limited.status_code == 429 and limited["Access-Control-Allow-Origin"] == MINE


def test_a_change_of_origins_is_seen_at_once(alice):
    assert preflight(MINE).status_code == 403  # and now remembered
    player_api_origins_set(user=alice, origins=[MINE])
    assert preflight(MINE).status_code == 204
    assert "Access-Control-Allow-Origin" in from_page(token_for(alice), MINE)
    player_api_origins_set(user=alice, origins=[])
    assert preflight(MINE).status_code == 403
    assert "Access-Control-Allow-Origin" not in from_page(token_for(alice), MINE)


def test_only_the_api_answers_with_cors(alice):
    player_api_origins_set(user=alice, origins=[MINE])
    for path in ["/", "/healthz", "/leaderboard/"]:
        response = Client().get(path, headers={"origin": MINE})
        assert "Access-Control-Allow-Origin" not in response
    assert "Access-Control-Allow-Origin" not in preflight(MINE, "/settings/")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stream_is_shared_with_a_page_its_tokens_player_allows(alice, bob):
    await db(player_api_origins_set)(user=alice, origins=[MINE])
    match = await db(start)(alice, bob, move_seconds=None)
    headers = {"authorization": f"Bearer {await db(token_for)(alice)}", "origin": MINE}
    response = await AsyncClient().get(f"/api/v1/stream/matches/{match.pk}", headers=headers)
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    assert response["Access-Control-Allow-Origin"] == MINE and "origin" in vary(response)
    stream = HttpStream(response)
    assert (await stream.next())["version"] == match.version  # and it streams as ever
    await stream.close()
