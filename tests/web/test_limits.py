"""Rate limits: log-in (django-axes), sign-up and moves. Each says when to try again and
changes nothing."""

from __future__ import annotations

import math
import random
import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import legal_actions
from games.models import Challenge
from games.services import throttle
from tests.support.limits import Clock, moved_clock, on_redis
from tests.support.matches import pass_if_allowed, play_to_the_end, start

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"


def log_in(username: str, password: str, address: str = "10.0.0.1"):
    client = Client(REMOTE_ADDR=address)
    response = client.post(LOGIN, {"username": username, "password": password})
    return response, client


def test_five_wrong_passwords_lock_the_name_from_that_address_and_the_page_says_until_when(
    alice,
):
    for _ in range(4):
        response, _ = log_in("alice", "wrong")
        assert response.status_code == 200  # the form again, with its error
    assert log_in("alice", "wrong")[0].status_code == 429  # the fifth locks
    response, client = log_in("alice", "correct horse 1")  # even the right password now
    page = response.content.decode()
    assert response.status_code == 429 and "Too many failed log-ins" in page
    assert re.search(r"Try again at <strong data-retry-at>\d\d:\d\d</strong>", page)
    assert "in about 15 minutes" in page and response["Retry-After"].isdigit()
    assert "_auth_user_id" not in client.session
    # Only from that address: whoever guesses cannot lock the owner out from everywhere.
    response, client = log_in("alice", "correct horse 1", address="10.9.9.9")
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_a_name_longer_than_any_player_s_is_refused_with_words_and_recorded_nowhere(alice):
    response, client = log_in("0" * 256, "guess")
    page = response.content.decode()
    assert response.status_code == 200 and "at most 150 characters (it has 256)" in page
    assert not AccessAttempt.objects.exists() and "_auth_user_id" not in client.session


def test_guessing_at_a_name_from_many_addresses_never_locks_its_owner_out(alice):
    for number in range(20):
        for _ in range(4):  # under the address's own limit at each
            log_in("alice", "wrong", address=f"10.1.0.{number}")
    response, client = log_in("alice", "correct horse 1", address="10.2.0.1")
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_the_address_is_locked_for_every_name(alice, bob):
    for number in range(5):
        log_in(f"nobody{number}", "guess", address="10.0.0.7")
    response, _ = log_in("bob", "correct horse 2", address="10.0.0.7")
    assert response.status_code == 429
    response, client = log_in("bob", "correct horse 2", address="10.0.0.8")
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_the_lock_lifts_after_the_cool_off_and_a_good_log_in_clears_the_count(alice):
    for _ in range(5):
        log_in("alice", "wrong")
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time
                                 - timedelta(minutes=16))  # fmt: skip
    response, _ = log_in("alice", "correct horse 1")
    assert response.status_code == 302
    for _ in range(4):
        assert log_in("alice", "wrong")[0].status_code == 200
    assert log_in("alice", "correct horse 1")[0].status_code == 302  # the count starts again
    for _ in range(4):
        assert log_in("alice", "wrong")[0].status_code == 200


def sign_up(username: str, address: str):
    client = Client(REMOTE_ADDR=address)
    data = {"username": username, "password1": "Deal-me-in-2026", "password2": "Deal-me-in-2026"}
    return client.post(reverse("signup"), data)


def test_sign_ups_from_one_address_are_limited(settings):
    settings.SIGNUP_LIMIT_PER_IP = 3
    for number in range(3):
        assert sign_up(f"player{number}", "10.1.1.1").status_code == 302
    response = sign_up("player3", "10.1.1.1")
    page = response.content.decode()
    assert response.status_code == 429 and "Too many sign-ups" in page and "Try again at" in page
    assert not get_user_model().objects.filter(username="player3").exists()
    assert sign_up("player3", "10.1.1.2").status_code == 302  # another address is fine


def test_attempts_at_one_name_are_limited_whatever_the_address(settings):
    settings.SIGNUP_LIMIT_PER_USERNAME = 2
    for number in range(2):
        sign_up("Wanted", f"10.2.2.{number}")  # the second fails: the name is taken
    response = sign_up("wanted", "10.2.2.9")
    assert response.status_code == 429
    assert get_user_model().objects.filter(username__iexact="wanted").count() == 1


def test_moves_faster_than_a_person_plays_are_refused_and_change_nothing(
    client, alice, bob, settings
):
    settings.MOVE_LIMIT_PER_10_SECONDS = 3
    match = start(alice, bob, move_seconds=None)
    player = match.players[match.state.turn]
    client.force_login(player)
    url = reverse("match_act", args=[match.pk])
    for _ in range(3):  # stale versions: refused by the rules, but counted
        assert client.post(url, {"action": "pass", "version": 0}).status_code == 409
    action = str(legal_actions(match.state)[0])
    response = client.post(url, {"action": action, "version": match.version})
    assert response.status_code == 429
    assert "moving faster than anyone needs to" in response.content.decode()
    match.refresh_from_db()
    assert match.version == 1 and not match.moves.exists()


@pytest.fixture(params=["memory", "redis"])
def backend(request, settings) -> str:
    """Each limit test on both caches: this process's memory, and Redis."""
    if request.param == "redis":
        on_redis(settings)
    return request.param


@pytest.fixture
def clock(monkeypatch) -> Clock:
    # One second before a multiple of ten: where fixed windows of ten seconds would change.
    return moved_clock(monkeypatch, 1_800_000_009.0)


def test_the_limits_are_shared_through_redis_when_it_is_configured(settings, alice, bob):
    on_redis(settings)
    settings.MOVE_LIMIT_PER_10_SECONDS = 2
    match = start(alice, bob, move_seconds=None)
    player = match.players[match.state.turn]
    first, second = Client(), Client()  # two tabs, as if on two server processes
    first.force_login(player)
    second.force_login(player)
    url = reverse("match_act", args=[match.pk])
    assert first.post(url, {"action": "pass", "version": 0}).status_code == 409
    assert second.post(url, {"action": "pass", "version": 0}).status_code == 409
    assert first.post(url, {"action": "pass", "version": 0}).status_code == 429


def test_thirty_moves_at_once_pass_and_no_ten_seconds_ever_let_a_thirty_first_through(
    backend, clock, alice, settings
):
    settings.MOVE_LIMIT_PER_10_SECONDS = 30
    start = clock.at
    for _ in range(30):
        throttle.move(alice)
    with pytest.raises(throttle.Throttled) as refused:
        throttle.move(alice)
    assert refused.value.code == "moving_fast" and refused.value.retry_after == 10
    # Into the next fixed window of ten seconds, where fixed windows let 30 more through.
    clock.at = start + 1.5
    with pytest.raises(throttle.Throttled) as refused:
        throttle.move(alice)
    assert refused.value.retry_after == 9  # 8.5 s, rounded up
    clock.at = start + 9.99
    with pytest.raises(throttle.Throttled) as refused:
        throttle.move(alice)
    assert refused.value.retry_after == 1
    clock.at = start + 10  # an event exactly ten seconds old still counts
    with pytest.raises(throttle.Throttled) as refused:
        throttle.move(alice)
    assert refused.value.retry_after == 1
    clock.at = start + 10.05  # the thirty have left the last ten seconds: thirty more may go
    for _ in range(30):
        throttle.move(alice)
    with pytest.raises(throttle.Throttled):
        throttle.move(alice)


def test_every_limit_holds_over_any_window_and_says_honestly_how_long_to_wait(backend, clock):
    # Bursts and pauses, on a grid of 50 ms so that events fall exactly on the edges of
    # windows too; checked against the rule itself: an event goes through when fewer than
    # the limit did in the ten seconds before it (that instant included).
    limit, seconds, start = 30, 10, clock.at
    rng = random.Random(42)
    passed, step = [], 0
    for _ in range(600):
        step += rng.choice([0, 0, 0, 1, 2, 20, 60])
        clock.at = start + step / 20
        recent = [at for at in passed if at >= clock.at - seconds]
        try:
            throttle.hit("test", "key", limit, seconds)
            wait = 0
        except throttle.Throttled as refused:
            wait = refused.retry_after
        if wait:
            assert len(recent) >= limit, clock.at - start
            # The wait ends when the oldest of those leaves the window: not sooner, not later
            # (at least a second: one on the window's edge leaves it the instant after).
            assert wait == max(1, math.ceil(recent[-limit] + seconds - clock.at))
        else:
            assert len(recent) < limit, clock.at - start
            passed.append(clock.at)
    assert len(passed) > 3 * limit  # it let many through, and refused many (the bursts)
    assert max(sum(at <= t < at + seconds for t in passed) for at in passed) == limit


def test_moves_through_the_api_and_the_site_share_one_limit_over_any_window(
    backend, clock, alice, bob, settings
):
    from tests.support.api import program, token_for

    settings.MOVE_LIMIT_PER_10_SECONDS = 30
    match = start(alice, bob, move_seconds=None)
    api, site = program(token_for(alice)), Client()
    site.force_login(alice)
    stale = {"action": "pass", "version": 0}  # refused by the rules, after being counted
    for _ in range(15):
        assert (
            api.post(f"/api/v1/matches/{match.pk}/move", stale, "application/json").status_code
            == 409
        )
        assert site.post(reverse("match_act", args=[match.pk]), stale).status_code == 409
    response = api.post(f"/api/v1/matches/{match.pk}/move", stale, "application/json")
    assert response.status_code == 429 and response["Retry-After"] == "10"
    clock.at += 1.5  # the next fixed window
    response = site.post(reverse("match_act", args=[match.pk]), stale)
    assert response.status_code == 429
    assert "moving faster than anyone needs to: wait 9 seconds" in response.content.decode()


def test_challenges_sent_over_and_over_are_refused_in_words_past_the_limit(settings, alice, bob):
    # Each challenge is a row, a task and a notice on the other player's pages: a player who
    # sends and withdraws them in a loop is stopped, and the refusal says when to try again.
    settings.CHALLENGES_PER_10_MINUTES = 3
    client = Client()
    client.force_login(alice)
    form = {"challenge-deck": "24", "challenge-target": "10", "challenge-move_seconds": "60"}
    for _ in range(3):
        sent = client.post("/users/bob/challenge", form)
        assert sent.status_code == 302
        challenge = Challenge.objects.get(challenger=alice, status=Challenge.Status.PENDING)
        services.challenge_decline(user=alice, challenge_id=challenge.pk)  # withdrawn
    refused = client.post("/users/bob/challenge", form)
    assert refused.status_code == 429
    assert "Too many requests: wait" in refused.content.decode()
    assert Challenge.objects.filter(challenger=alice).count() == 3


def test_rematch_offers_made_and_withdrawn_over_and_over_stop_at_the_limit(settings, alice, bob):
    settings.REMATCH_OFFERS_PER_10_MINUTES = 2
    match = play_to_the_end(start(alice, bob, deck=32, target=5, stick_the_dealer=True))
    for _ in range(2):
        services.rematch_offer(user=alice, match_id=match.pk)
        services.rematch_decline(user=alice, match_id=match.pk)  # withdrawn
    with pytest.raises(services.TooOften) as refused:
        services.rematch_offer(user=alice, match_id=match.pk)
    assert refused.value.code == "too_often" and refused.value.params["seconds"] > 0
    match.refresh_from_db()
    assert match.rematch_state != "offered"


def test_starting_the_guided_hand_again_is_limited_per_address(settings):
    settings.LEARN_RESTARTS_PER_HOUR = 3
    visitor = Client(REMOTE_ADDR="10.0.0.9")
    for _ in range(3):
        assert visitor.post("/learn/again").status_code == 302
    sessions = Session.objects.count()
    stranger = Client(REMOTE_ADDR="10.0.0.9")  # a new visitor, no cookie, same address
    refused = stranger.post("/learn/again")
    assert refused.status_code == 429 and "Too many requests: wait" in refused.content.decode()
    assert Session.objects.count() == sessions  # nothing stored for it


def test_two_players_who_pass_every_deal_still_finish_their_match(alice, bob):
    """Issue 36, finding 6: passing out deal after deal made a match of 2,000 deals. From
    deal 30 the dealer must name a suit (docs/RULES.md), so the match ends, rated as usual."""
    from games.engine.rules import STUCK_FROM_DEAL
    from games.models import MatchStatus

    match = start(alice, bob, move_seconds=None)
    moves = 0
    while match.status == MatchStatus.ACTIVE:
        match = pass_if_allowed(match)
        moves += 1
    deals = len(match.state.results)
    assert match.status == MatchStatus.FINISHED and match.winner is not None
    assert STUCK_FROM_DEAL <= deals <= STUCK_FROM_DEAL - 1 + 2 * match.target - 1
    assert moves < 400
