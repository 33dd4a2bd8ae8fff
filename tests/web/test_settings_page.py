"""The settings page: API tokens made (shown once) and revoked, bot accounts, and whether bots
may challenge the player."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import ApiToken, PlayerSettings
from tests.support.api import program, token_for
from tests.support.matches import start

pytestmark = pytest.mark.django_db


def test_a_new_token_is_shown_once_and_works(alice, alice_page):
    made = alice_page.post("/settings/tokens", {"name": "my bot", "scopes": ["read"]})
    assert made.status_code == 302 and made["Location"] == "/settings/"  # POST, redirect, GET
    response = alice_page.get(made["Location"])
    assert response["Cache-Control"] == "no-store"
    token = re.search(r"data-token>([^<]+)<", response.content.decode()).group(1)
    assert program(token).get("/api/v1/account").json()["username"] == "alice"
    again = alice_page.get("/settings/").content.decode()  # a reload: no second token
    assert token not in again and "my bot" in again
    assert ApiToken.objects.filter(user=alice).count() == 1
    row = ApiToken.objects.get(user=alice)
    assert row.scopes == "read" and token not in (row.digest, row.name)


def test_a_token_needs_a_name_and_a_scope(alice_page):
    assert alice_page.post("/settings/tokens", {"name": "", "scopes": ["read"]}).status_code == 400
    assert alice_page.post("/settings/tokens", {"name": "x"}).status_code == 400
    assert not ApiToken.objects.exists()


def test_revoking_a_token_on_the_page(alice, alice_page):
    row, token = services.api_token_create(user=alice, name="old", scopes=["read"])
    response = alice_page.post(f"/settings/tokens/{row.pk}/revoke", follow=True)
    assert "old" not in response.content.decode().split("<main")[1].split("Make a token")[0]
    assert program(token).get("/api/v1/account").status_code == 401


def test_nobody_revokes_anothers_token(alice, bob):
    row, token = services.api_token_create(user=alice, name="mine", scopes=["read"])
    client = Client()
    client.force_login(bob)
    client.post(f"/settings/tokens/{row.pk}/revoke")
    assert program(token).get("/api/v1/account").status_code == 200


def test_the_settings_page_needs_a_log_in_and_csrf(alice):
    assert Client().get("/settings/").status_code == 302
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/settings/tokens", {"name": "x", "scopes": ["read"]}).status_code == 403


def test_a_fresh_account_becomes_a_bot_for_good(alice, alice_page, bob):
    alice_page.post("/settings/bot", {})  # not confirmed: nothing changes
    assert not PlayerSettings.objects.filter(user=alice, bot=True).exists()
    alice_page.post("/settings/bot", {"confirm": "yes"})
    assert PlayerSettings.objects.get(user=alice).bot
    page = alice_page.get("/settings/").content.decode()
    assert "data-bot-account" in page and 'data-action="become-bot"' not in page


def test_an_account_that_has_played_cannot_become_a_bot(alice, bob, alice_page):
    start(alice, bob)
    response = alice_page.post("/settings/bot", {"confirm": "yes"}, follow=True)
    assert "never played" in response.content.decode()
    assert not PlayerSettings.objects.filter(user=alice, bot=True).exists()


def test_a_bot_shows_its_badge_and_plays_only_through_the_api(alice, bob, alice_page):
    services.player_bot_set(user=alice)
    match = start(alice, bob, move_seconds=None)
    client = Client()
    client.force_login(bob)
    assert 'data-bot title="' in client.get(f"/matches/{match.pk}/").content.decode()
    assert "data-bot" in client.get("/users/alice/").content.decode()
    if match.state.turn == 0:
        response = alice_page.post(
            f"/matches/{match.pk}/act", {"action": "pass", "version": match.version}
        )
        assert response.status_code == 403
        assert "only through the API" in response.content.decode()
        api = program(token_for(alice))
        moved = api.post(
            f"/api/v1/matches/{match.pk}/move",
            {"action": "pass", "version": match.version},
            "application/json",
        )
        assert moved.status_code == 200  # fmt: skip


def test_bots_challenge_only_players_who_let_them(alice, bob):
    services.player_bot_set(user=alice)
    api = program(token_for(alice))
    refused = api.post("/api/v1/challenges", {"username": "bob"}, "application/json")
    assert refused.status_code == 403 and refused.json()["code"] == "no_bot_challenges"
    client = Client()
    client.force_login(bob)
    client.post("/settings/bot-challenges", {"allowed": "yes"})
    sent = api.post("/api/v1/challenges", {"username": "bob"}, "application/json")
    assert sent.status_code == 200 and sent.json()["challenged"]["username"] == "bob"


def test_bots_have_a_leaderboard_of_their_own(alice, bob, carol, settings):
    from games.models import PlayerRating

    services.player_bot_set(user=alice)
    for user in (alice, bob):
        PlayerRating.objects.create(user=user, value=1600, rated_matches=6)
    client = Client()
    client.force_login(carol)
    people = client.get("/leaderboard/").content.decode()
    bots = client.get("/leaderboard/?bots=1").content.decode()
    assert 'data-player="bob"' in people and 'data-player="alice"' not in people
    assert 'data-player="alice"' in bots and 'data-player="bob"' not in bots
    api = program(token_for(carol))
    assert [p["username"] for p in api.get("/api/v1/leaderboard?bots=true").json()["players"]] == [
        "alice"
    ]


def test_every_setting_is_on_the_settings_page_and_each_form_comes_back_to_it(alice, alice_page):
    page = alice_page.get("/settings/").content.decode()
    for marker in (
        'id="settings-language"',  # the language (the footer's switcher has its own id)
        'data-action="four-colour"',
        'data-action="theme"',
        'data-action="sound"',
        'data-action="notify"',
        'data-action="create-token"',
        'data-action="become-bot"',
        'data-action="save-bot-challenges"',
        'data-action="save-api-origins"',
    ):
        assert marker in page, marker
    assert page.count('id="language-choice"') == 1
    back = {"next": "/settings/"}
    for url, data in (
        ("/settings/look", {"theme": "dark", **back}),
        ("/settings/look", {"four_colour": "on", **back}),
        ("/settings/sound", {"sound": "on", **back}),
        ("/language/", {"language": "th", **back}),
    ):
        answer = alice_page.post(url, data)  # without htmx: POST, redirect, GET
        assert (answer.status_code, answer["Location"]) == (302, "/settings/"), url
    saved = PlayerSettings.objects.get(user=alice)
    chosen = (saved.theme, saved.four_colour, saved.sound, saved.language)
    assert chosen == ("dark", True, True, "th")
    page = alice_page.get("/settings/").content.decode()
    assert 'data-theme="dark"' in page and 'lang="th"' in page
    assert 'data-action="sound" aria-pressed="true"' in page


def test_a_player_lists_the_web_pages_that_may_use_their_tokens(alice, alice_page):
    typed = "https://Alice.example/\n\n  http://localhost:8080 \nhttps://alice.example:443\n"
    saved = alice_page.post("/settings/api-origins", {"origins": typed})
    assert (saved.status_code, saved["Location"]) == (302, "/settings/")
    stored = PlayerSettings.objects.get(user=alice).api_origins
    assert stored == "https://alice.example\nhttp://localhost:8080"  # as a browser writes them
    page = alice_page.get("/settings/").content.decode()
    assert "https://alice.example\nhttp://localhost:8080</textarea>" in page
    preflight = Client().options(
        "/api/v1/account",
        headers={"origin": "http://localhost:8080", "access-control-request-method": "GET"},
    )
    assert preflight["Access-Control-Allow-Origin"] == "http://localhost:8080"
    alice_page.post("/settings/api-origins", {"origins": ""})
    assert PlayerSettings.objects.get(user=alice).api_origins == ""


@pytest.mark.parametrize(
    "typed",
    [
        "https://alice.example/play.html",
        "alice.example",
        "ftp://alice.example",
        "null",
        "https://me@alice.example",
        "https://alice.example?x=1",
        "https://alice.example:99999",
    ],
)
def test_what_is_not_an_origin_is_refused_in_words(alice, alice_page, typed):
    alice_page.post("/settings/api-origins", {"origins": "https://kept.example"})
    refused = alice_page.post("/settings/api-origins", {"origins": f"http://ok.example\n{typed}"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert f"{typed} is not an origin" in page.replace("&amp;", "&").replace("&#x27;", "'")
    assert PlayerSettings.objects.get(user=alice).api_origins == "https://kept.example"


def test_at_most_ten_web_pages(alice, alice_page):
    eleven = "\n".join(f"https://page{n}.example" for n in range(11))
    refused = alice_page.post("/settings/api-origins", {"origins": eleven})
    assert refused.status_code == 400 and "At most 10 origins" in refused.content.decode()
    assert not PlayerSettings.objects.filter(user=alice).exclude(api_origins="").exists()
    ten_twice = eleven.rsplit("\n", 1)[0] + "\nhttps://PAGE0.example/"  # the same one again
    assert alice_page.post("/settings/api-origins", {"origins": ten_twice}).status_code == 302
    assert len(PlayerSettings.objects.get(user=alice).api_origins.split()) == 10


def test_the_match_page_links_to_the_settings(alice, bob, alice_page):
    match = start(alice, bob)
    page = alice_page.get(f"/matches/{match.pk}/").content.decode()
    assert 'href="/settings/" data-settings-link' in page
