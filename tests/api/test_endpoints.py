"""The API's endpoints: what they answer, and every refusal in JSON with a code and words."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils.html import escape

from games import services
from games.engine import legal_actions
from games.models import ApiToken, Match, MatchStatus
from tests.support.api import program, refused, token_for
from tests.support.matches import pass_if_allowed, play_to_the_end, start

pytestmark = pytest.mark.django_db


def test_a_token_is_shown_once_and_stored_as_its_hash(alice):
    row, token = services.api_token_create(user=alice, name="bot", scopes=["read"])
    assert token.startswith("euchre_") and len(token) > 40
    assert token not in str(ApiToken.objects.filter(pk=row.pk).values().get())
    assert row.digest == services.token_digest(token)


def test_the_account_answers_with_a_token_and_not_without(alice, alice_api):
    body = alice_api.get("/api/v1/account").json()
    assert body["username"] == "alice" and body["bot"] is False
    assert body["rating"]["value"] == 1500 and set(body["scopes"]) == {"read", "play"}
    refused(Client().get("/api/v1/account"), 401, "unauthorized")
    refused(program("euchre_not-a-token").get("/api/v1/account"), 401, "unauthorized")
    refused(Client(headers={"authorization": "Basic eDp5"}).get("/api/v1/account"), 401,
            "unauthorized")  # fmt: skip


def test_a_session_cookie_is_not_a_token(alice):
    client = Client()
    client.force_login(alice)
    refused(client.get("/api/v1/account"), 401, "unauthorized")


def test_a_revoked_token_stops_working_at_once(alice):
    row, token = services.api_token_create(user=alice, name="bot", scopes=["read"])
    assert program(token).get("/api/v1/account").status_code == 200
    services.api_token_revoke(user=alice, token_id=row.pk)
    refused(program(token).get("/api/v1/account"), 401, "unauthorized")


def test_a_suspended_players_token_stops_working(alice, alice_api):
    alice.is_active = False
    alice.save()
    refused(alice_api.get("/api/v1/account"), 401, "unauthorized")


def test_a_read_token_may_not_play(alice, bob):
    match = start(alice, bob, move_seconds=None)
    reader = program(token_for(alice, scopes=("read",)))
    assert reader.get(f"/api/v1/matches/{match.pk}/view").status_code == 200
    body = refused(reader.post(f"/api/v1/matches/{match.pk}/resign"), 403, "scope_missing")
    assert "play" in body["detail"]
    player = program(token_for(alice, scopes=("play",)))
    refused(player.get("/api/v1/account"), 403, "scope_missing")


def test_no_csrf_token_is_needed_with_a_bearer_token(alice, bob, alice_api):
    match = start(alice, bob, move_seconds=None)
    response = alice_api.post(f"/api/v1/matches/{match.pk}/resign")
    assert response.status_code == 200
    assert response.json()["match"]["status"] in ("aborted", "finished")


def test_the_own_view_shows_the_hand_and_the_public_state_does_not(alice, bob, alice_api,
                                                                  bob_api):  # fmt: skip
    match = start(alice, bob, move_seconds=None)
    mine = alice_api.get(f"/api/v1/matches/{match.pk}/view").json()
    state = match.state
    assert mine["seat"] == 0 and len(mine["view"]["hand"]) == 5
    public = bob_api.get(f"/api/v1/matches/{match.pk}").json()
    assert public["view"]["hand"] == [] and public["match"]["seed"] is None
    assert public["match"]["commitment"]
    if state.turn == 0:
        assert mine["view"]["legal_actions"]


def test_a_spectator_may_not_ask_for_a_players_view(alice, bob, carol):
    match = start(alice, bob, move_seconds=None)
    carol_api = program(token_for(carol))
    assert carol_api.get(f"/api/v1/matches/{match.pk}").status_code == 200
    refused(carol_api.get(f"/api/v1/matches/{match.pk}/view"), 403, "not_playing")


def test_a_private_match_is_closed_to_others(alice, bob, carol):
    match = start(alice, bob, move_seconds=None, spectators_allowed=False)
    carol_api = program(token_for(carol))
    refused(carol_api.get(f"/api/v1/matches/{match.pk}"), 403, "not_open_to_watch")
    refused(carol_api.get(f"/api/v1/stream/matches/{match.pk}"), 403, "not_open_to_watch")


def test_moves_through_the_api_play_a_whole_match(alice, bob, alice_api, bob_api, settings):
    settings.MOVE_LIMIT_PER_10_SECONDS = settings.API_REQUESTS_PER_MINUTE = 10_000
    match = start(alice, bob, move_seconds=None, target=5)
    clients = {alice.pk: alice_api, bob.pk: bob_api}
    rng = random.Random(1)
    moves = 0
    while match.status == MatchStatus.ACTIVE:
        state = match.state
        mover = match.players[state.turn]
        action = str(rng.choice(legal_actions(state)))
        body = clients[mover.pk].post(
            f"/api/v1/matches/{match.pk}/move",
            {"action": action, "version": match.version}, content_type="application/json",
        ).json()  # fmt: skip
        match = Match.objects.select_related("player0", "player1").get(pk=match.pk)
        assert body["match"]["version"] == match.version
        moves += 1
    assert match.status == MatchStatus.FINISHED and moves > 10
    over = alice_api.get(f"/api/v1/matches/{match.pk}").json()
    assert over["match"]["seed"] == match.seed and over["match"]["winner"] in (0, 1)
    history = alice_api.get("/api/v1/account/history").json()
    assert history["matches"][0]["id"] == match.pk


def test_move_refusals_are_json_with_the_players_words(alice, bob, alice_api, carol):
    match = start(alice, bob, move_seconds=None)
    url = f"/api/v1/matches/{match.pk}/move"
    mover = alice_api if match.state.turn == 0 else program(token_for(bob))
    waiter = program(token_for(bob)) if match.state.turn == 0 else alice_api
    json = "application/json"
    body = refused(waiter.post(url, {"action": "pass", "version": match.version}, json), 400,
                   "illegal")  # fmt: skip
    assert body["detail"] == "It is not your turn" and body["reason"] == "not_your_turn"
    refused(mover.post(url, {"action": "pass", "version": 999}, json), 409, "stale")
    refused(mover.post(url, {"action": "play:ZZ", "version": match.version}, json), 400,
            "illegal")  # fmt: skip
    refused(mover.post(url, {"action": "pass"}, json), 400, "invalid")
    refused(mover.post(url, "not json", json), 400, "invalid")
    refused(program(token_for(carol)).post(url, {"action": "pass", "version": 1}, json), 403,
            "not_playing")  # fmt: skip
    refused(mover.post("/api/v1/matches/999999/move", {"action": "pass", "version": 1}, json),
            404, "no_such_match")  # fmt: skip
    refused(mover.get("/api/v1/matches/99999999999999999999999"), 400, "invalid")


def test_a_stale_move_is_answered_with_the_table_as_it_is_now(alice, bob, alice_api, bob_api):
    match = pass_if_allowed(start(alice, bob, move_seconds=None))  # one move: version 2
    mover = (alice_api, bob_api)[match.state.turn]
    url = f"/api/v1/matches/{match.pk}/move"
    body = refused(mover.post(url, {"action": "pass", "version": 1}, "application/json"), 409,
                   "stale")  # fmt: skip
    assert body["detail"] == "The table has changed since you saw it: here is the current one"
    # The caller's own view, as GET matches/<id>/view answers it: the next move needs no read.
    assert body["state"] == mover.get(f"/api/v1/matches/{match.pk}/view").json()
    assert body["state"]["match"]["version"] == match.version == 2
    assert body["state"]["seat"] == match.state.turn and body["state"]["view"]["legal_actions"]
    # Each player gets their own hand, never the other's.
    waiter = (alice_api, bob_api)[1 - match.state.turn]
    other = refused(waiter.post(url, {"action": "pass", "version": 1}, "application/json"), 409,
                    "stale")  # fmt: skip
    assert other["state"]["seat"] == 1 - match.state.turn
    assert other["state"]["view"]["hand"] != body["state"]["view"]["hand"]
    # Other refusals of the move stay as they were: a code and words.
    assert "state" not in refused(mover.post("/api/v1/matches/999999/move",
                                             {"action": "pass", "version": 1}, "application/json"),
                                  404, "no_such_match")  # fmt: skip


def test_refusals_come_in_the_requested_language(alice, bob, alice_api):
    match = start(alice, bob, move_seconds=None)
    waiter = alice_api if match.state.turn == 1 else program(token_for(bob))
    response = waiter.post(
        f"/api/v1/matches/{match.pk}/move", {"action": "pass", "version": match.version},
        "application/json", headers={"accept-language": "ht"},
    )  # fmt: skip
    assert response.json()["detail"] != "It is not your turn"


def test_join_resign_and_claim(alice, bob, alice_api, bob_api):
    created = alice_api.post("/api/v1/matches", {"move_seconds": None}, "application/json")
    match_id = created.json()["match"]["id"]
    refused(alice_api.post(f"/api/v1/matches/{match_id}/join"), 403, "own_match")
    joined = bob_api.post(f"/api/v1/matches/{match_id}/join").json()
    assert joined["match"]["status"] == "active" and joined["seat"] == 1
    refused(bob_api.post(f"/api/v1/matches/{match_id}/join"), 409, "seat_taken")
    claim = refused(bob_api.post(f"/api/v1/matches/{match_id}/claim"), 409,
                    joined["view"]["turn"] == 1 and "your_turn" or "claim_later")  # fmt: skip
    assert claim
    assert bob_api.post(f"/api/v1/matches/{match_id}/resign").status_code == 200
    refused(bob_api.post(f"/api/v1/matches/{match_id}/resign"), 409, "not_in_play")


def test_a_match_against_the_computer(alice, alice_api):
    body = alice_api.post("/api/v1/matches/computer", {"strength": "medium"}, "application/json")
    assert body.json()["match"]["computer"] == "medium"
    refused(alice_api.post("/api/v1/matches/computer", {"strength": "genius"},
                           "application/json"), 400, "invalid")  # fmt: skip


def test_rate_limits_answer_429_with_retry_after(alice, settings):
    settings.API_REQUESTS_PER_MINUTE = 3
    client = program(token_for(alice))
    for _ in range(3):
        assert client.get("/api/v1/account").status_code == 200
    response = client.get("/api/v1/account")
    refused(response, 429, "too_many")
    assert 1 <= int(response["Retry-After"]) <= 60


def test_moves_count_against_the_move_limit(alice, bob, alice_api, settings):
    settings.MOVE_LIMIT_PER_10_SECONDS = 1
    match = start(alice, bob, move_seconds=None)
    url = f"/api/v1/matches/{match.pk}/move"
    alice_api.post(url, {"action": "pass", "version": 999}, "application/json")
    response = alice_api.post(url, {"action": "pass", "version": 999}, "application/json")
    refused(response, 429, "too_many")
    assert int(response["Retry-After"]) >= 1


def test_ratings_and_leaderboard(alice, bob, alice_api):
    play_to_the_end(start(alice, bob, move_seconds=None, target=5))
    body = alice_api.get("/api/v1/users/bob").json()
    assert body["rating"]["rated_matches"] == 1 and body["record"]["played"] == 1
    assert alice_api.get("/api/v1/leaderboard").json() == {"players": []}
    refused(alice_api.get("/api/v1/users/nobody"), 404, "not_found")


def test_the_schema_and_the_docs_page(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/matches/{match_id}/move" in schema["paths"]
    assert "/api/v1/stream/matches/{match_id}" in schema["paths"]
    page = client.get("/api/v1/docs")
    assert page.status_code == 200 and b"cdn" not in page.content.lower()
    html = page.content.decode()
    assert '<html lang="en"' in html and "<h1" in html  # the site's frame, its language
    for path, methods in schema["paths"].items():  # every operation, from the same schema
        for method in methods:
            assert f"<code>{method.upper()} {path}</code>" in html
    # Each operation's answers by status, with the shape each one has.
    move = html.split("<code>POST /api/v1/matches/{match_id}/move</code></h2>")[1].split("<h2")[0]
    assert "<dt><code>409</code></dt>" in move and "MatchAndView" in move and "Error" in move
    for socket in schema["x-websockets"]:  # the websockets: events, frames, close codes
        heading = f"<code>WEBSOCKET {escape(socket['path'])}</code></h2>"
        shown = html.split(heading)[1].split("<h2")[0]
        assert "Close codes" in shown and "<dt><code>4401</code></dt>" in shown
        for event in socket["events"]["oneOf"]:
            name = event["$ref"].rsplit("/", 1)[1]
            assert f'href="#shape-{name}"' in shown and f'id="shape-{name}"' in html
    assert 'id="shape-ErrorFrame"' in html and "not_your_turn" in html  # the rules' reasons


def test_challenges_made_accepted_and_declined_through_the_api(alice, bob, alice_api, bob_api):
    json = "application/json"
    sent = alice_api.post("/api/v1/challenges", {"username": "bob", "target": 7}, json).json()
    assert sent["challenged"]["username"] == "bob" and sent["options"]["target"] == 7
    refused(alice_api.post("/api/v1/challenges", {"username": "bob"}, json), 409,
            "already_challenged")  # fmt: skip
    refused(alice_api.post("/api/v1/challenges", {"username": "alice"}, json), 403,
            "challenge_self")  # fmt: skip
    refused(alice_api.post("/api/v1/challenges", {"username": "nobody"}, json), 404,
            "not_found")  # fmt: skip
    refused(alice_api.post("/api/v1/challenges", {"username": "bob", "deck": 7}, json), 400,
            "invalid")  # fmt: skip
    assert bob_api.get("/api/v1/challenges").json()["incoming"][0]["id"] == sent["id"]
    refused(alice_api.post(f"/api/v1/challenges/{sent['id']}/accept"), 403,
            "only_challenged_accepts")  # fmt: skip
    started = bob_api.post(f"/api/v1/challenges/{sent['id']}/accept").json()
    assert started["match"]["status"] == "active" and started["match"]["options"]["target"] == 7
    again = alice_api.post("/api/v1/challenges", {"username": "bob"}, json).json()
    # No body (as a program sends it: Django's test client would send an empty form's).
    declined = bob_api.post(f"/api/v1/challenges/{again['id']}/decline", content_type=json)
    assert declined.json()["status"] == "declined"
    refused(bob_api.post(f"/api/v1/challenges/{again['id']}/decline", content_type=json), 409,
            "challenge_closed")  # fmt: skip
    refused(bob_api.post("/api/v1/challenges/424242/accept"), 404, "no_such_challenge")
