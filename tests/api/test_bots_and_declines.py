"""What a bot's program does without the settings page: become a bot account, let bots
challenge its player, decline a challenge with a reason, and find the bots online."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone

from euchre_site.asgi import application
from games import services
from games.db import selectors
from games.models import Challenge, Connection, DeclineReason, PlayerRating, is_bot
from tests.support.api import program, refused, token_for
from tests.support.matches import start

pytestmark = pytest.mark.django_db
JSON = "application/json"


def test_a_fresh_account_becomes_a_bot_account_through_the_api(alice, alice_api):
    body = alice_api.post("/api/v1/account/bot").json()
    assert body["username"] == "alice" and body["bot"] is True
    assert is_bot(alice) and alice_api.get("/api/v1/account").json()["bot"] is True
    assert alice_api.post("/api/v1/account/bot").json()["bot"] is True  # asked twice: still one


def test_an_account_that_has_played_stays_a_person_and_is_told_why(alice, bob, alice_api):
    start(alice, bob, move_seconds=None)
    body = refused(alice_api.post("/api/v1/account/bot"), 409, "bot_has_matches")
    assert body["detail"] == "Only an account that has never played can become a bot account"
    assert not is_bot(alice)


def test_a_read_token_cannot_make_a_bot_account_nor_change_who_may_challenge(alice):
    reader = program(token_for(alice, scopes=("read",)))
    refused(reader.post("/api/v1/account/bot"), 403, "scope_missing")
    refused(reader.post("/api/v1/account/bot-challenges", {"allowed": True}, JSON), 403,
            "scope_missing")  # fmt: skip
    assert not is_bot(alice) and not selectors.bots_may_challenge(alice)


def test_a_bot_may_challenge_a_player_once_their_program_lets_bots(alice, bob, alice_api):
    bot_api = program(token_for(bob))
    bot_api.post("/api/v1/account/bot")
    body = refused(bot_api.post("/api/v1/challenges", {"username": "alice"}, JSON), 403,
                   "no_bot_challenges")  # fmt: skip
    assert body["detail"] == "alice does not take challenges from bots"
    assert alice_api.get("/api/v1/account").json()["bot_challenges"] is False
    turned_on = alice_api.post("/api/v1/account/bot-challenges", {"allowed": True}, JSON).json()
    assert turned_on == {"id": alice.pk, "username": "alice", "bot": False, "bot_challenges": True}
    assert alice_api.get("/api/v1/account").json()["bot_challenges"] is True
    sent = bot_api.post("/api/v1/challenges", {"username": "alice"}, JSON)
    assert sent.status_code == 200 and sent.json()["challenged"]["username"] == "alice"
    alice_api.post("/api/v1/account/bot-challenges", {"allowed": False}, JSON)
    assert not selectors.bots_may_challenge(alice)


def test_the_bot_challenge_setting_refuses_what_is_not_a_yes_or_no(alice, alice_api):
    for body in ({}, {"allowed": "maybe"}, {"allowed": None}):
        answer = refused(alice_api.post("/api/v1/account/bot-challenges", body, JSON), 400,
                         "invalid")  # fmt: skip
        assert answer["errors"] and answer["errors"][0]["field"] == "allowed"
    refused(alice_api.post("/api/v1/account/bot-challenges", "yes", JSON), 400, "invalid")
    assert not selectors.bots_may_challenge(alice)


def challenge(challenger_api, username: str = "bob") -> int:
    return challenger_api.post("/api/v1/challenges", {"username": username}, JSON).json()["id"]


def test_a_challenge_is_declined_with_a_reason_the_challenge_then_carries(
    alice, bob, alice_api, bob_api
):
    challenge_id = challenge(alice_api)
    body = bob_api.post(f"/api/v1/challenges/{challenge_id}/decline", {"reason": "too_fast"},
                        JSON).json()  # fmt: skip
    assert body["id"] == challenge_id and body["challenger"]["username"] == "alice"
    assert body["status"] == "declined" and body["decline_reason"] == "too_fast"
    assert Challenge.objects.get(pk=challenge_id).decline_reason == DeclineReason.TOO_FAST


def test_a_decline_without_a_reason_is_the_generic_one_and_a_withdrawal_keeps_none(
    alice, bob, alice_api, bob_api
):
    declined = bob_api.post(f"/api/v1/challenges/{challenge(alice_api)}/decline",
                            content_type=JSON).json()  # fmt: skip
    assert declined["status"] == "declined" and declined["decline_reason"] == "generic"
    withdrawn = challenge(alice_api)
    body = alice_api.post(f"/api/v1/challenges/{withdrawn}/decline", {"reason": "later"},
                          JSON).json()  # fmt: skip
    assert body["status"] == "cancelled" and body["decline_reason"] is None
    assert Challenge.objects.get(pk=withdrawn).decline_reason == ""


def test_an_unknown_reason_is_refused_in_words_and_the_challenge_still_waits(
    alice, bob, alice_api, bob_api
):
    challenge_id = challenge(alice_api)
    url = f"/api/v1/challenges/{challenge_id}/decline"
    body = refused(bob_api.post(url, {"reason": "boring"}, JSON), 400, "bad_decline_reason")
    assert (
        body["detail"]
        == "“boring” is not a reason to decline a challenge: choose one from the list"
    )
    for unreadable in ({"reason": 7}, {"reason": None}, [1], "not json"):
        refused(bob_api.post(url, unreadable, JSON), 400, "invalid")
    assert Challenge.objects.get(pk=challenge_id).status == Challenge.Status.PENDING
    schema = Client().get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert schema["DeclineIn"]["properties"]["reason"]["enum"] == list(DeclineReason.values)


def test_the_site_declines_with_the_reason_chosen_and_the_challenger_reads_it(alice, bob):
    challenge_id = challenge(program(token_for(alice)))
    # The banner's form, with the reasons offered (in their words, generic first).
    context = {**selectors.pending_challenges(user=bob), "decline_reasons": DeclineReason.choices}
    banner = render_to_string("partials/challenges.html#banner", context)
    assert f'<select name="reason" id="decline-reason-{challenge_id}">' in banner
    assert '<option value="generic">I am not accepting challenges at the moment.</option>' in banner
    assert "This move clock is too slow for me." in banner
    site = Client()
    site.force_login(bob)
    url = f"/challenges/{challenge_id}/decline"
    wrong = site.post(url, {"reason": "boring"})
    assert wrong.status_code == 400 and "is not a reason to decline" in wrong.content.decode()
    assert site.post(url, {"reason": "too_slow"}).status_code == 302
    banner = render_to_string("partials/challenges.html#banner",
                              selectors.pending_challenges(user=alice))  # fmt: skip
    assert 'data-challenge-answer="declined"' in banner
    assert '<span data-decline-reason="too_slow">This move clock is too slow for me.</span>' in (
        banner
    )
    # The form with no reason chosen (an older page) declines as before: the generic reason.
    other = challenge(program(token_for(alice)))
    assert site.post(f"/challenges/{other}/decline").status_code == 302
    assert Challenge.objects.get(pk=other).decline_reason == DeclineReason.GENERIC


def a_bot(django_user_model, name: str, rating: int | None = None, from_bots: bool = False):
    user = django_user_model.objects.create_user(name)
    services.player_bot_set(user=user)
    services.player_bot_challenges_set(user=user, allowed=from_bots)
    if rating is not None:
        PlayerRating.objects.create(user=user, value=rating, rated_matches=40)
    return user


def streaming(user, kind=Connection.Kind.STREAM) -> str:
    channel = f"test.{user.username}.{kind}"
    services.connection_open(user=user, channel_name=channel, kind=kind)
    return channel


def test_bots_online_are_the_bot_accounts_with_a_stream_open_best_rated_first(
    django_user_model, alice, alice_api
):
    strong = a_bot(django_user_model, "strong", rating=1710, from_bots=True)
    new = a_bot(django_user_model, "new")
    weak = a_bot(django_user_model, "weak", rating=1420)
    for bot in (strong, new, weak):
        streaming(bot)
    streaming(alice)  # a person's stream: not a bot
    page_only = a_bot(django_user_model, "pageonly", rating=1900)
    streaming(page_only, Connection.Kind.PAGE)  # logged in on the site: not playing as a bot
    gone = a_bot(django_user_model, "gone", rating=1800)
    streaming(gone)
    Connection.objects.filter(user=gone).update(seen_at=timezone.now() - timedelta(minutes=5))
    closed = a_bot(django_user_model, "closed", rating=1850)
    services.connection_close(channel_name=streaming(closed))
    suspended = a_bot(django_user_model, "suspended", rating=1750)
    streaming(suspended)
    suspended.is_active = False
    suspended.save()

    bots = alice_api.get("/api/v1/bots/online").json()["bots"]
    assert [b["username"] for b in bots] == ["strong", "new", "weak"]
    assert bots[0] == {
        "id": strong.pk, "username": "strong", "bot": True, "rating": 1710, "display": "1710",
        "rated_matches": 40, "challenges_from": {"people": True, "bots": True},
    }  # fmt: skip
    assert bots[1]["rating"] == 1500 and bots[1]["rated_matches"] == 0
    assert bots[1]["challenges_from"] == {"people": True, "bots": False}
    refused(Client().get("/api/v1/bots/online"), 401, "unauthorized")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_bot_is_online_while_its_account_socket_is_open(django_user_model, alice):
    bot = await database_sync_to_async(a_bot)(django_user_model, "socketbot")
    token = await database_sync_to_async(token_for)(bot)
    reader = program(await database_sync_to_async(token_for)(alice))

    @database_sync_to_async
    def online() -> list[str]:
        return [b["username"] for b in reader.get("/api/v1/bots/online").json()["bots"]]

    assert await online() == []
    headers = [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())]
    socket = WebsocketCommunicator(application, "/api/v1/ws/account", headers=headers)
    assert (await socket.connect())[0]
    json.loads(await socket.receive_from(timeout=5))  # the stream is open
    assert await online() == ["socketbot"]
    await socket.disconnect()
    assert await online() == []
