"""Follows and blocks: who may follow whom, what a block ends, and who hears of what."""

from __future__ import annotations

import pytest

from games import services
from games.db import selectors
from games.models import Challenge, Connection, Follow, MatchStatus
from games.services import follows
from tests.support.matches import start

pytestmark = pytest.mark.django_db


def names(rows) -> list[tuple[str, bool]]:
    return [(row.player.username, row.online) for row in rows]


def test_a_followed_player_is_listed_online_while_a_socket_of_theirs_is_open(alice, bob, carol):
    services.follow_create(user=alice, followed=bob)
    services.follow_create(user=alice, followed=carol)
    assert names(selectors.following(user=alice)) == [("bob", False), ("carol", False)]
    services.connection_open(user=carol, channel_name="carol-page", kind="page")
    assert names(selectors.following(user=alice)) == [("carol", True), ("bob", False)]
    services.connection_close(channel_name="carol-page")
    assert names(selectors.following(user=alice)) == [("bob", False), ("carol", False)]
    assert selectors.following(user=bob) == []  # following goes one way


def test_following_again_changes_only_whether_one_is_told(alice, bob):
    services.follow_create(user=alice, followed=bob)
    services.follow_create(user=alice, followed=bob, notify=True)
    assert Follow.objects.filter(follower=alice).count() == 1
    assert selectors.following(user=alice)[0].notify is True
    services.follow_delete(user=alice, followed=bob)
    assert selectors.following(user=alice) == []


def test_nobody_follows_themselves_or_the_computer(alice):
    with pytest.raises(services.NotAllowed) as refused:
        services.follow_create(user=alice, followed=alice)
    assert refused.value.code == "follow_self"
    computer = services.computer_user("easy")
    with pytest.raises(services.NotAllowed) as refused:
        services.follow_create(user=alice, followed=computer)
    assert refused.value.code == "not_followable"
    with pytest.raises(services.NotAllowed) as refused:
        services.block_create(user=alice, blocked_player=alice)
    assert refused.value.code == "block_self"


def test_a_block_ends_the_follows_and_the_waiting_challenges_between_the_two(alice, bob, carol):
    services.follow_create(user=alice, followed=bob)
    services.follow_create(user=bob, followed=alice)
    services.follow_create(user=carol, followed=alice)
    theirs = services.challenge_create(user=bob, challenged=alice)
    mine = services.challenge_create(user=alice, challenged=bob)
    services.block_create(user=alice, blocked_player=bob)
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [
        ("carol", "alice")
    ]
    theirs.refresh_from_db()
    mine.refresh_from_db()
    assert (theirs.status, mine.status) == (Challenge.Status.DECLINED, Challenge.Status.CANCELLED)
    assert [p.username for p in selectors.blocked_players(user=alice)] == ["bob"]


def test_a_blocked_player_cannot_challenge_follow_or_join_the_blocker(alice, bob):
    services.block_create(user=alice, blocked_player=bob)
    with pytest.raises(services.NotAllowed) as refused:
        services.challenge_create(user=bob, challenged=alice)
    assert (refused.value.code, refused.value.params) == ("challenge_blocked", {"player": "alice"})
    with pytest.raises(services.NotAllowed) as refused:
        services.follow_create(user=bob, followed=alice)
    assert refused.value.code == "follow_blocked"
    open_match = services.match_create(user=alice)
    with pytest.raises(services.NotAllowed) as refused:
        services.match_join(user=bob, match_id=open_match.pk)
    assert refused.value.code == "match_blocked"
    # The quick pairing passes her match by: bob opens his own instead.
    found = services.match_find(user=bob)
    assert found.pk != open_match.pk and found.player0 == bob and found.status == MatchStatus.OPEN
    services.block_delete(user=alice, blocked_player=bob)
    services.challenge_create(user=bob, challenged=alice)  # unblocked: allowed again


def test_the_blocker_may_still_follow_nobody_blocked_them(alice, bob):
    services.block_create(user=alice, blocked_player=bob)
    services.follow_create(user=alice, followed=bob)  # her block stops his follows, not hers
    assert names(selectors.following(user=alice)) == [("bob", False)]


def test_a_match_opened_by_a_followed_player_is_shown_only_to_those_who_asked(alice, bob, carol):
    services.follow_create(user=alice, followed=bob, notify=True)
    services.follow_create(user=carol, followed=bob)  # follows, not told
    opened = services.match_create(user=bob)
    assert [m.pk for m in selectors.followed_seeks(user=alice)] == [opened.pk]
    assert selectors.followed_seeks(user=carol) == []
    services.match_join(user=carol, match_id=opened.pk)
    assert selectors.followed_seeks(user=alice) == []  # taken: no longer waiting


def test_followers_are_told_once_when_a_player_comes_online(alice, bob, carol, monkeypatch):
    told = []
    monkeypatch.setattr(follows.events, "follows_changed_on_commit", told.append)
    services.follow_create(user=alice, followed=bob)
    services.follow_create(user=carol, followed=bob)
    told.clear()
    services.connection_open(user=bob, channel_name="bob-1", kind="page")
    services.connection_open(user=bob, channel_name="bob-2", kind="page")  # online already
    match = start(bob, alice)
    services.connection_open(user=bob, channel_name="bob-3", match_id=match.pk)
    assert [sorted(ids) for ids in told] == [sorted([alice.pk, carol.pk])]
    assert Connection.objects.filter(user=bob).count() == 3


def test_the_list_of_follows_is_capped(alice, bob, monkeypatch):
    monkeypatch.setattr(follows, "FOLLOWS_CAP", 0)
    with pytest.raises(services.LimitReached) as refused:
        services.follow_create(user=alice, followed=bob)
    assert refused.value.code == "follows_cap"
    assert not Follow.objects.exists()
