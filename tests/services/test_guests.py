"""Guests: a visitor plays at once as a guest user, casual matches only, no challenges either
way, no API token; keeping the games turns the same user into an account; guests not seen
for GUEST_DAYS are swept, their matches with other players kept."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.models import Guest, Match, MatchStatus, Move, PlayerSettings, is_guest
from tests.support.matches import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest():
    return services.guest_create()


def test_a_guest_is_a_user_named_guest_and_a_number_that_nobody_can_log_in_to(guest):
    assert re.fullmatch(r"Guest \d{4,6}", guest.username)
    assert not guest.has_usable_password()
    assert is_guest(get_user_model().objects.get(pk=guest.pk))
    assert services.guest_create().username != guest.username


def test_a_guest_plays_the_computer(guest):
    match = services.match_create_computer(user=guest, strength="easy")
    assert match.status == MatchStatus.ACTIVE and not match.rated


def test_a_guest_may_open_a_casual_match_but_not_a_rated_one(guest):
    with pytest.raises(services.NotAllowed) as refused:
        services.match_create(user=guest)
    assert refused.value.code == "guest_rated"
    assert services.match_create(user=guest, rated=False).status == MatchStatus.OPEN


def test_a_guest_cannot_join_a_rated_match_but_joins_a_casual_one(guest, alice):
    rated = services.match_create(user=alice)
    with pytest.raises(services.NotAllowed) as refused:
        services.match_join(user=guest, match_id=rated.pk)
    assert refused.value.code == "guest_rated"
    casual = services.match_create(user=alice, rated=False)
    assert services.match_join(user=guest, match_id=casual.pk).player1 == guest


def test_finding_an_opponent_a_guest_passes_rated_matches_by_and_opens_a_casual_one(guest, alice):
    rated = services.match_create(user=alice)
    found = services.match_find(user=guest)
    assert found.pk != rated.pk and found.player0 == guest and not found.rated
    # Another guest finding an opponent joins the guest's casual match.
    assert services.match_find(user=services.guest_create()).pk == found.pk


def test_a_guest_can_neither_challenge_nor_be_challenged(guest, alice):
    with pytest.raises(services.NotAllowed) as refused:
        services.challenge_create(user=guest, challenged=alice)
    assert refused.value.code == "guest_challenge"
    with pytest.raises(services.NotAllowed) as refused:
        services.challenge_create(user=alice, challenged=guest)
    assert refused.value.code == "not_challengeable"


def test_a_guest_gets_no_api_token_and_no_bot_account(guest):
    with pytest.raises(services.NotAllowed) as refused:
        services.api_token_create(user=guest, name="mine", scopes=["read"])
    assert refused.value.code == "guest_account"
    with pytest.raises(services.NotAllowed):
        services.player_bot_set(user=guest)


def test_keeping_the_games_makes_the_same_user_an_account_with_its_matches_and_settings(guest):
    match = services.match_create_computer(user=guest, strength="easy")
    services.player_sound_set(user=guest, sound=True)
    kept = services.guest_keep(user=guest, username="newcomer", password="a long secret 42")
    kept = get_user_model().objects.get(pk=guest.pk)
    assert kept.username == "newcomer" and kept.check_password("a long secret 42")
    assert not is_guest(kept) and not Guest.objects.exists()
    assert Match.objects.get(pk=match.pk).player0 == kept
    assert PlayerSettings.objects.get(user=kept).sound
    # Now an account: rated matches, challenges.
    assert services.match_create(user=kept).rated


def test_only_a_guest_keeps_its_games(alice):
    with pytest.raises(services.NotAllowed) as refused:
        services.guest_keep(user=alice, username="alice2", password="a long secret 42")
    assert refused.value.code == "not_a_guest"


def test_the_sweep_deletes_a_guest_not_seen_for_days_who_never_played(guest, settings):
    settings.GUEST_DAYS = 7
    fresh = services.guest_create()
    Guest.objects.filter(user=guest).update(seen_at=timezone.now() - timedelta(days=8))
    assert services.guests_sweep() == 1
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
    assert get_user_model().objects.filter(pk=fresh.pk, is_active=True).exists()
    assert services.guests_sweep() == 0


def test_the_sweep_keeps_the_matches_of_a_guest_who_played_as_an_inactive_row(guest, alice):
    over = play_to_the_end(
        services.match_join(user=guest, match_id=services.match_create(user=alice, rated=False).pk)
    )
    waiting = services.match_create(user=guest, rated=False)
    Guest.objects.filter(user=guest).update(seen_at=timezone.now() - timedelta(days=30))
    moves = Move.objects.filter(match=over).count()
    assert services.guests_sweep() == 1
    gone = get_user_model().objects.get(pk=guest.pk)
    assert not gone.is_active and not gone.has_usable_password()
    assert Match.objects.get(pk=over.pk).status == MatchStatus.FINISHED  # alice's history stays
    assert Move.objects.filter(match=over).count() == moves
    assert Match.objects.get(pk=waiting.pk).status == MatchStatus.ABORTED  # not left in the lobby
    assert services.guests_sweep() == 0  # idempotent


def test_a_guest_seen_lately_is_not_swept(guest):
    Guest.objects.filter(user=guest).update(seen_at=timezone.now() - timedelta(days=30))
    services.guest_seen(user=guest)
    assert services.guests_sweep() == 0


def test_a_task_worker_sweeps_old_guests_once_an_hour(guest):
    from games.management.commands.run_worker import Worker

    worker = Worker.__new__(Worker)  # its sweep alone: no queue, no heartbeat thread
    worker._sweep_guests()
    Guest.objects.filter(user=guest).update(seen_at=timezone.now() - timedelta(days=30))
    worker._sweep_guests()  # within the hour of the last sweep: nothing yet
    assert get_user_model().objects.filter(pk=guest.pk).exists()
    worker.guests_swept_at -= 3600
    worker._sweep_guests()
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
