"""Hypothesis throws malformed requests at every game and account endpoint: wrong types, huge
values, unknown actions, missing fields, other people's matches. Never a server error, and a
refused request changes nothing.

The counts are printed at the end of the module (tests/proof/conftest.py).
"""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import (
    Connection,
    Match,
    ModerationAction,
    Move,
    PlayerRating,
    RatingChange,
    Report,
)
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))  # CI runs 400 each pass

GET_PATHS = [
    "/", "/healthz", "/play/", "/leaderboard/", "/history/", "/users/{name}/",
    "/matches/{id}/", "/matches/{id}/board", "/matches/{id}/replay",
    "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
    "/accounts/password_change/", "/admin/",
]  # fmt: skip
POSTS = {
    "/play/create": [
        "deck", "target", "stick_the_dealer", "dealer_must_take_up", "rated",
        "spectators_allowed", "move_seconds",
    ],
    "/play/computer": ["computer-strength", "computer-deck", "computer-target"],
    "/matches/{id}/act": ["action", "version"],
    "/matches/{id}/join": [],
    "/matches/{id}/abort": [],
    "/matches/{id}/resign": [],
    "/matches/{id}/claim": [],
    "/matches/{id}/report": ["reason", "details"],
    "/accounts/signup/": ["username", "email", "password1", "password2"],
    "/accounts/login/": ["username", "password"],
    "/accounts/password_change/": ["old_password", "new_password1", "new_password2"],
    "/accounts/password_reset/": ["email"],
    "/accounts/logout/": [],
}  # fmt: skip
QUERY_KEYS = ["version", "step", "page", "opponent", "result", "rated", "next", "part"]

values = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=200, max_size=3000),
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "24",
            "25",
            "32",
            "10",
            "99",
            "pass",
            "order_up",
            "play:JH",
            "play:JK",
            "name:H",
            "discard:9C",
            "hard",
            "easy",
            "on",
            "true",
            "cheating",
            "\x00",
            "a\x00b",
            "🂡",
            "<script>alert(1)</script>",
            "' OR 1=1 --",
            "../../etc/passwd",
            "NaN",
            "1e9",
        ]
    ),  # fmt: skip
)
form_data = st.dictionaries(
    st.one_of(
        st.sampled_from(sorted({f for fs in POSTS.values() for f in fs})), st.text(max_size=10)
    ),
    st.one_of(values, st.lists(values, max_size=3)),
    max_size=8,
)


def fingerprint() -> tuple:
    """Everything a request could wrongly change (sessions and log-in attempts aside)."""
    users = get_user_model().objects.order_by("pk")
    return (
        tuple(users.values_list("pk", "username", "password", "email", "is_active")),
        tuple(Match.objects.order_by("pk").values_list("pk", "version", "status", "winner")),
        Move.objects.count(),
        Report.objects.count(),
        RatingChange.objects.count(),
        tuple(PlayerRating.objects.order_by("pk").values_list("user", "value")),
        ModerationAction.objects.count(),
        Connection.objects.count(),
    )


@pytest.fixture
def world(alice, bob, carol, settings):
    settings.MOVE_LIMIT_PER_10_SECONDS = 1_000_000
    mine = start(alice, bob, move_seconds=None)
    theirs = start(bob, carol, move_seconds=3600)  # a clock that never runs out here
    open_match = services.match_create(user=carol)
    finished = play_to_the_end(start(carol, alice), seed=3)
    computer = services.match_create_computer(user=alice, strength="easy")
    ids = [mine.pk, theirs.pk, open_match.pk, finished.pk, computer.pk, 0, 999_999_999,
           10**17, 10**30]  # fmt: skip
    return {"alice": alice, "ids": ids, "names": ["alice", "bob", "nobody", "a" * 300]}


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_request_makes_a_server_error_and_a_refused_one_changes_nothing(world, figures, data):
    client = Client(raise_request_exception=False)
    if data.draw(st.booleans(), label="logged in"):
        client.force_login(world["alice"])
    match_id = data.draw(st.sampled_from(world["ids"]), label="match id")
    name = data.draw(st.sampled_from(world["names"]), label="name")
    query = data.draw(st.dictionaries(st.sampled_from(QUERY_KEYS), values, max_size=3))
    headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
    method = data.draw(st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE"]))
    if method == "GET":
        path = data.draw(st.sampled_from(GET_PATHS))
    else:
        path = data.draw(st.sampled_from(sorted(POSTS)))
    path = path.format(id=match_id, name=name)
    before = fingerprint()
    if method == "GET":
        response = client.get(path, query, headers=headers)
    elif method == "POST":
        response = client.post(path + _query(query), data.draw(form_data), headers=headers)
    else:
        response = client.generic(method, path, "x=1", headers=headers)
    figures["requests tried"] += 1
    assert response.status_code < 500, f"{method} {path}: {response.status_code}"
    if response.status_code >= 400 or method == "GET":
        figures["refused with a 4xx"] += response.status_code >= 400
        assert fingerprint() == before, f"{method} {path} {response.status_code} changed data"
    if response.status_code >= 400 and "text/html" in response.get("Content-Type", ""):
        assert response.content.strip(), "a refusal says why"


def _query(query: dict) -> str:
    from urllib.parse import urlencode

    return "?" + urlencode(query) if query else ""
