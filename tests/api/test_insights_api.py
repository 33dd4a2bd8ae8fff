"""GET /api/v1/users/{name}/insights: the page's figures as JSON (checked against the
schema by the suite's contract), with the page's permission and filters."""

from __future__ import annotations

import pytest

from games import services
from tests.support import insights as rows
from tests.support.api import program, refused, token_for

pytestmark = pytest.mark.django_db


def test_my_insights_as_json(alice, bob):
    match = rows.finished_match(alice, bob)
    rows.hands(alice, match, [{"maker": True, "bid": "order_up", "trumps": 2, "bowers": 0,
                               "scored": 1, "conceded": 0}] * 20 + [{}] * 5)  # fmt: skip
    rows.decisions(alice, match, [0.5] * 4)
    body = program(token_for(alice)).get("/api/v1/users/alice/insights").json()
    assert body["points"]["maker"]["mine"] == {"value": 1.0, "count": 20}
    assert body["points"]["defender"]["mine"] == {"value": None, "count": 5}
    two = next(b for b in body["bids"] if (b["bid"], b["trumps"]) == ("order_up", "2"))
    assert two["mine"]["made"] == 20 and two["mine"]["shares"]["made"] == 1.0
    assert body["accuracy"]["mine"] == {"value": None, "count": 4}
    assert body["minimum"] == 20 and body["filters"]["period"] == "all"


def test_filters_and_their_refusal(alice, bob):
    rows.hands(alice, rows.finished_match(alice, bob, deck=32), [{}] * 4)
    client = program(token_for(alice))
    body = client.get("/api/v1/users/alice/insights?deck=24").json()
    assert body["points"]["hands"]["mine"]["count"] == 0
    assert body["filters"]["deck"] == 24
    refused(client.get("/api/v1/users/alice/insights?opponent=martians"), 400, "invalid")


def test_another_players_insights_only_if_they_allow_it(alice, bob):
    client = program(token_for(bob))
    refused(client.get("/api/v1/users/alice/insights"), 403, "insights_private")
    services.insights_public_set(user=alice, allowed=True)
    assert client.get("/api/v1/users/alice/insights").status_code == 200
    refused(client.get("/api/v1/users/nobody/insights"), 404, "not_found")
