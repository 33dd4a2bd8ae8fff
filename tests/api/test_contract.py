"""The published contract (games/api/schemas.py) and the check every test's API answers go
through (tests/support/contract.py): the schema types every answer, refusal and event, and the
check refuses what the schema does not describe."""

from __future__ import annotations

import json

import pytest

from games.api import schemas
from games.api.views import api
from tests.support import contract
from tests.support.api import token_for
from tests.support.matches import start

pytestmark = pytest.mark.django_db


def test_every_operation_types_its_answers_and_refusals():
    schema = api.get_openapi_schema()
    components = schema["components"]["schemas"]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method == "options":  # the CORS preflight: tests/api/test_cors.py
                continue
            where = f"{method} {path}"
            responses = {str(k): v for k, v in operation["responses"].items()}
            ok = responses["200"]["content"]
            assert {"application/json", "application/x-ndjson"} & ok.keys(), where
            for status in ("400", "401", "403", "429"):
                error = responses[status]["content"]["application/json"]["schema"]
                assert error == {"$ref": "#/components/schemas/Error"}, (where, status)
    refs = set()
    for found in [schema["paths"], components, schema["x-websockets"]]:
        text = json.dumps(found)
        refs |= {part.split('"')[0] for part in text.split('"#/components/schemas/')[1:]}
    assert refs <= components.keys(), refs - components.keys()  # nothing named is missing
    # Allowed values as enums: the refusal's codes, a match's status, the view's phase.
    error = components["Error"]["properties"]
    assert {"stale", "illegal", "too_many", "scope_missing"} <= set(error["code"]["enum"])
    assert "not_your_turn" in error["reason"]["anyOf"][0]["enum"]
    assert "match_over" in components["View"]["properties"]["phase"]["enum"]
    statuses = components["Match"]["properties"]["status"]["enum"]
    assert statuses == ["open", "active", "finished", "aborted", "voided"]


def test_the_websockets_are_documented_with_their_events_frames_and_close_codes():
    sockets = {s["path"]: s for s in api.get_openapi_schema()["x-websockets"]}
    match = sockets["/api/v1/ws/matches/{match_id}?since=<version>"]
    types = {ref["$ref"].rsplit("/", 1)[1] for ref in match["events"]["oneOf"]}
    assert types == {
        "MoveEvent",
        "StateEvent",
        "OpponentGone",
        "RematchEvent",
        "ChatEvent",
        "ChatRemovedEvent",
        "ClosedEvent",
    }
    assert match["sends"] == {"$ref": "#/components/schemas/MoveFrame"}
    assert set(match["close_codes"]) == {"1000", "4400", "4401", "4403", "4404", "4429"}
    account = sockets["/api/v1/ws/account"]
    assert "ChallengeGoneEvent" in json.dumps(account["events"]) and account["sends"] is None


def test_the_check_refuses_what_the_schema_does_not_describe(alice, bob):
    match = start(alice, bob, move_seconds=None)
    from django.test import Client

    client = Client(headers={"authorization": f"Bearer {token_for(alice)}"})
    body = client.get(f"/api/v1/matches/{match.pk}/view").json()  # checked: it is valid
    path = f"/api/v1/matches/{match.pk}/view"

    def check(value, status=200, method="GET", where=path):
        contract.answer(method, where, status, "application/json", json.dumps(value).encode())

    check(body)
    with pytest.raises(contract.Broken, match="unexpected"):  # a field nobody documented
        check({**body, "secret": 1})
    with pytest.raises(contract.Broken, match="view"):  # a field of the wrong type
        check({**body, "view": {**body["view"], "hand": "JH"}})
    with pytest.raises(contract.Broken, match="not among its answers"):
        check({"code": "gone", "detail": "Gone"}, status=410)
    with pytest.raises(contract.Broken, match="is not one of"):  # a code not in the list
        check({"code": "made_up", "detail": "A code no one documented"}, status=403)
    with pytest.raises(contract.Broken, match="no such operation"):
        check(body, where="/api/v1/nowhere")
    with pytest.raises(contract.Broken):  # an event of no documented type
        contract.event(f"/api/v1/stream/matches/{match.pk}", {"type": "surprise"})
    with pytest.raises(contract.Broken):  # an account's event on a match's stream
        contract.event(f"/api/v1/stream/matches/{match.pk}", {"type": "idle"})
    contract.event("/api/v1/stream/account", {"type": "idle"})


def test_the_shapes_publish_every_answers_example_and_each_event_type():
    names = {m.__name__ for m in schemas.MATCH_EVENTS + schemas.ACCOUNT_EVENTS}
    assert names >= {"IdleEvent", "ChallengeEvent", "OpponentGone", "ClosedEvent"}
    error = api.get_openapi_schema()["components"]["schemas"]["Error"]
    assert error["example"]["code"] in error["properties"]["code"]["enum"]
    assert error["example"]["reason"] in error["properties"]["reason"]["anyOf"][0]["enum"]
