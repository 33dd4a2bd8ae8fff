"""Guests on the site: "Play now" without an account, a guest's header, its refusals in words,
"Keep my games", and the per-address limit."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Guest, Match, MatchStatus
from games.web.middleware import GUEST_SEEN_EVERY, SESSION_GUEST

pytestmark = pytest.mark.django_db
KEEP = "/accounts/keep/"
PLAY_NOW = "/accounts/guest/"


def play_now(client: Client | None = None, **data):
    client = client or Client()
    response = client.post(PLAY_NOW, data)
    return client, response


def the_guest():
    return get_user_model().objects.get(pk=Guest.objects.get().user_id)


def test_play_now_makes_a_guest_logs_it_in_and_goes_to_the_lobby():
    client, response = play_now()
    assert response.status_code == 302 and response["Location"] == "/play/"
    guest = the_guest()
    page = client.get("/play/").content.decode()
    assert guest.username in page and "Keep my games" in page and "Log in" in page
    assert "Change password" not in page and "Log out" not in page


def test_play_now_with_a_strength_goes_straight_into_a_match_against_the_computer():
    client, response = play_now(strength="medium")
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.player0 == the_guest() and match.computer == "medium" and not match.rated


def test_the_entrances_offer_play_now_to_a_visitor():
    client = Client()
    for path in ("/", "/accounts/login/", "/accounts/signup/"):
        assert f'action="{PLAY_NOW}"' in client.get(path).content.decode(), path


def test_a_guest_asking_for_a_rated_match_is_refused_in_words():
    client, _ = play_now()
    response = client.post("/play/create", {"deck": 24, "target": 10, "rated": "on",
                                            "move_seconds": 120})  # fmt: skip
    assert response.status_code == 403
    assert "Guests play casual matches only" in response.content.decode()
    assert not Match.objects.exists()
    response = client.post("/play/create", {"deck": 24, "target": 10, "move_seconds": 120})
    assert response.status_code == 302 and not Match.objects.get().rated


def test_a_guest_joining_a_rated_match_is_refused_in_words(alice):
    rated = services.match_create(user=alice)
    client, _ = play_now()
    response = client.post(f"/matches/{rated.pk}/join")
    assert response.status_code == 403
    assert "Guests play casual matches only" in response.content.decode()
    assert Match.objects.get(pk=rated.pk).status == MatchStatus.OPEN


def test_a_guests_profile_offers_no_challenge_and_a_guest_is_offered_none(alice):
    client, _ = play_now()
    guest = the_guest()
    assert 'data-action="challenge"' not in client.get("/users/alice/").content.decode()
    as_alice = Client()
    as_alice.force_login(alice)
    page = as_alice.get(f"/users/{guest.username}/").content.decode()
    assert 'data-action="challenge"' not in page
    response = as_alice.post(f"/users/{guest.username}/challenge",
                             {"challenge-deck": 24, "challenge-target": 10})  # fmt: skip
    assert response.status_code == 403 and "cannot be challenged" in response.content.decode()


def test_a_guest_sees_its_history_and_no_api_tokens_in_its_settings():
    client, _ = play_now()
    assert client.get("/history/").status_code == 200
    assert "API tokens" not in client.get("/settings/").content.decode()


def test_keeping_the_games_makes_an_account_of_the_same_user_and_stays_logged_in():
    client, _ = play_now(strength="easy")
    guest, match = the_guest(), Match.objects.get()
    assert client.get(KEEP).status_code == 200
    response = client.post(KEEP, {"username": "newcomer", "password1": "a long secret 42",
                                  "password2": "a long secret 42"})  # fmt: skip
    assert response.status_code == 302 and response["Location"] == "/history/"
    user = get_user_model().objects.get(pk=guest.pk)
    assert user.username == "newcomer" and not Guest.objects.exists()
    assert Match.objects.get(pk=match.pk).player0 == user
    page = client.get("/play/").content.decode()  # the same session, logged in as the account
    assert "newcomer" in page and "Keep my games" not in page and "Log out" in page
    response = Client().post("/accounts/login/", {"username": "newcomer",
                                                  "password": "a long secret 42"})  # fmt: skip
    assert response.status_code == 302


def test_signing_up_as_a_guest_keeps_the_games_too():
    client, _ = play_now()
    guest = the_guest()
    assert "Keep my games" in client.get("/accounts/signup/").content.decode()
    client.post("/accounts/signup/", {"username": "newcomer", "password1": "a long secret 42",
                                      "password2": "a long secret 42"})  # fmt: skip
    assert get_user_model().objects.get(username="newcomer").pk == guest.pk


def test_a_guest_name_cannot_be_signed_up_for():
    play_now()
    name = the_guest().username
    secret = "a long secret 42"
    form = {"username": name, "password1": secret, "password2": secret}
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 400
    assert get_user_model().objects.filter(username=name).count() == 1


def test_an_account_has_no_games_to_keep(alice):
    client = Client()
    client.force_login(alice)
    assert client.get(KEEP)["Location"] == "/play/"


def test_guests_from_one_address_are_limited_per_hour(settings):
    settings.GUESTS_PER_IP_PER_HOUR = 2
    for _ in range(2):
        assert play_now(Client(REMOTE_ADDR="10.0.0.9"))[1].status_code == 302
    _, response = play_now(Client(REMOTE_ADDR="10.0.0.9"))
    assert response.status_code == 429 and "Too many guests" in response.content.decode()
    assert Guest.objects.count() == 2
    assert play_now(Client(REMOTE_ADDR="10.0.0.10"))[1].status_code == 302


def test_a_guests_visit_is_recorded_at_most_hourly():
    client, _ = play_now()
    Guest.objects.update(seen_at="2000-01-01T00:00:00Z")
    client.get("/play/")
    assert Guest.objects.get().seen_at.year == 2000  # seen within the hour: not written again
    session = client.session
    session[SESSION_GUEST] = time.time() - GUEST_SEEN_EVERY - 1
    session.save()
    client.get("/play/")
    assert Guest.objects.get().seen_at.year > 2000


def test_the_guided_hands_end_plays_the_computer_as_a_guest():
    from games.engine import legal_actions, new_match
    from games.presentation import learn

    client = Client()
    state = new_match(learn.SEED, learn.RULES)
    while not state.is_over:
        action = next(a for a in legal_actions(state) if str(a) != "pass")
        client.post("/learn/", {"action": str(action)})
        state = learn.state_of(client.session[learn.SESSION_KEY])
    page = client.get("/learn/").content.decode()
    assert f'action="{PLAY_NOW}"' in page and 'name="strength" value="medium"' in page
    response = client.post(PLAY_NOW, {"strength": "medium"})
    assert response["Location"] == f"/matches/{Match.objects.get(computer='medium').pk}/"
