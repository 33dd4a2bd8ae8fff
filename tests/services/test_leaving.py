"""Deleting an account (services.account_delete): everything of the player's goes but their
matches, which stay in the opponents' history under "deleted player"; a match in play is
resigned first; the name is kept from new sign-ups for DELETED_NAME_DAYS."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.errors import Conflict, NotAllowed
from games.i18n import names
from games.models import (
    AccountEvent,
    ApiToken,
    Block,
    Challenge,
    ChatLine,
    DataExport,
    EndReason,
    FlaggedDecision,
    Follow,
    InsightHand,
    Match,
    MatchStatus,
    NameReservation,
    PlayerRating,
    PlayerSettings,
    PushSent,
    PushSubscription,
    PuzzleStreak,
    RatingChange,
    Report,
    is_deleted,
)
from tests.support.matches import both_acted, play_to_the_end, start

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse 1"  # alice's


def a_life_on_the_site(alice, bob, carol) -> Match:
    """Alice plays a rated match with bob to the end, follows and is followed, blocks carol,
    chats, reports bob, makes a token, sets her language and has an address."""
    finished = play_to_the_end(start(alice, bob, rated=True))
    services.follow_create(user=alice, followed=bob)
    services.follow_create(user=bob, followed=alice)
    services.block_create(user=alice, blocked_player=carol)
    services.chat_settings_set(user=alice, free_chat=True, chat_sound=False)
    services.chat_settings_set(user=bob, free_chat=True, chat_sound=False)
    services.chat_say(user=alice, match_id=finished.pk, text="my secret words")
    services.report_create(reporter=alice, match_id=finished.pk, reason="stalling", details="slow")
    services.api_token_create(user=alice, name="my bot", scopes=["read"])
    services.player_language_set(user=alice, language="th")
    get_user_model().objects.filter(pk=alice.pk).update(email="alice@example.org")
    return finished


def test_deleting_takes_everything_but_the_matches_and_ratings_already_counted(alice, bob, carol):
    finished = a_life_on_the_site(alice, bob, carol)
    bobs_changes = list(RatingChange.objects.filter(player=bob).values_list("before", "after"))
    services.challenge_create(user=bob, challenged=alice)
    # Her training and her numbers: a streak, a flagged decision, the match's insights rows.
    PuzzleStreak.objects.create(user=alice, current=2, best=5)
    FlaggedDecision.objects.create(
        user=alice, match=finished, index=3, theme="play", loss=0.7, flag="mistake"
    )
    assert InsightHand.objects.filter(player=alice).exists()
    # A device she is notified on, and a notification sent to it.
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/alice",
                                    p256dh="k", auth="a", kinds="turn")  # fmt: skip
    PushSent.objects.create(user=alice, kind="turn", subject=finished.pk, mark=3)
    bobs_hands = InsightHand.objects.filter(player=bob).count()
    services.account_delete(user=alice, password=PASSWORD)

    gone = get_user_model().objects.get(pk=alice.pk)
    assert is_deleted(gone) and gone.username == f"deleted {alice.pk}"
    assert not gone.is_active and not gone.has_usable_password() and gone.email == ""
    assert not Follow.objects.filter(follower=gone).exists()
    assert not Follow.objects.filter(followed=gone).exists()
    assert not Block.objects.filter(blocker=gone).exists()
    assert not ApiToken.objects.filter(user=gone).exists()
    assert not PlayerSettings.objects.filter(user=gone).exists()
    assert not Challenge.objects.filter(challenged=gone).exists()
    assert not PuzzleStreak.objects.filter(user=gone).exists()
    assert not FlaggedDecision.objects.filter(user=gone).exists()
    assert not InsightHand.objects.filter(player=gone).exists()
    assert not PushSubscription.objects.filter(user=gone).exists()
    assert not PushSent.objects.filter(user=gone).exists()
    assert InsightHand.objects.filter(player=bob).count() == bobs_hands > 0  # his stay
    line = ChatLine.objects.get(author=gone)
    assert line.text == "" and line.removed_at is not None  # the words are gone
    assert not ChatLine.objects.filter(text__contains="secret").exists()
    # What the opponent's history and the moderators need stays.
    assert Match.objects.get(pk=finished.pk).status == MatchStatus.FINISHED
    assert list(RatingChange.objects.filter(player=bob).values_list("before", "after")) == (
        bobs_changes
    )
    assert RatingChange.objects.filter(player=gone).exists()
    assert PlayerRating.objects.filter(user=gone).exists()  # counted; off the leaderboard
    assert Report.objects.get(reporter=gone).details == "slow"
    logged = AccountEvent.objects.get(kind=AccountEvent.Kind.ACCOUNT_DELETED)
    assert logged.user_number == alice.pk
    # Deleted once: a second time is refused.
    with pytest.raises(NotAllowed):  # no password is hers any more
        services.account_delete(user=gone, password=PASSWORD)


def test_a_match_in_play_is_resigned_and_the_opponent_rated_as_for_a_resignation(alice, bob):
    match = both_acted(start(alice, bob, rated=True))
    seek = services.match_create(user=alice)
    bob_before = PlayerRating.objects.filter(user=bob).first()
    assert bob_before is None  # the initial rating: no rated match yet
    services.account_delete(user=alice, password=PASSWORD)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == EndReason.RESIGNED and match.winner_id == bob.pk
    change = RatingChange.objects.get(match=match, player=bob)
    assert change.delta > 0  # won, as a resignation is rated
    assert Match.objects.get(pk=seek.pk).status == MatchStatus.ABORTED


def test_a_match_not_begun_is_called_off(alice, bob):
    match = start(alice, bob)
    services.account_delete(user=alice, password=PASSWORD)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ABORTED


def test_a_wrong_password_changes_nothing(alice, bob):
    services.follow_create(user=alice, followed=bob)
    with pytest.raises(NotAllowed) as refused:
        services.account_delete(user=alice, password="not hers")
    assert refused.value.code == "leaving_password_wrong"
    alice.refresh_from_db()
    assert alice.username == "alice" and alice.is_active and alice.check_password(PASSWORD)
    assert Follow.objects.filter(follower=alice).exists()
    assert not NameReservation.objects.exists()


def test_the_name_is_refused_at_sign_up_until_the_delay_has_passed(alice, settings):
    settings.DELETED_NAME_DAYS = 30
    services.account_delete(user=alice, password=PASSWORD)
    reservation = NameReservation.objects.get()
    assert timedelta(days=29) < reservation.until - timezone.now() <= timedelta(days=30)
    for name in ("alice", "ALICE", "a1ice", "alice_"):
        assert names.refusal(name) is not None, name
    NameReservation.objects.update(until=timezone.now() - timedelta(seconds=1))  # 30 days on
    assert names.refusal("alice") is None
    again = services.player_signup(username="alice", password="a brand new one 7")
    assert again.pk != alice.pk


def test_an_account_deleted_already_is_refused(alice):
    services.account_delete(user=alice, password=PASSWORD)
    gone = get_user_model().objects.get(pk=alice.pk)
    gone.set_password(PASSWORD)  # as if a stale object still had it
    with pytest.raises(Conflict):
        services.account_delete(user=gone, password=PASSWORD)


def test_the_sweep_takes_files_past_their_day_and_names_past_their_delay(alice, bob):
    services.account_delete(user=alice, password=PASSWORD)
    services.data_export_request(user=bob)
    assert services.leaving_sweep() == 0  # the name waits, the file is not made yet
    DataExport.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    NameReservation.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert services.leaving_sweep() == 2
    assert not DataExport.objects.exists() and not NameReservation.objects.exists()
