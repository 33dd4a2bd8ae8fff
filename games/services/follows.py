"""Follows and blocks: a player follows another to find them again (online now, a challenge
away, told when they open a match); a block keeps a player's challenges, follows and joins out.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..errors import LimitReached, NotAllowed
from ..models import Block, Challenge, Follow, is_computer, is_guest
from . import events, throttle

# The most players one may follow (each of their arrivals is a push to this player's list).
FOLLOWS_CAP = 500
# The most followers told at once of a player's arrival or seek (their lists also refresh
# themselves every minute).
FOLLOWERS_TOLD = 2000
# Follows, unfollows and blocks a player may make in 10 minutes (each is pushed).
CHANGES_PER_10_MINUTES = 60


def _checked(user, player, self_code: str) -> None:
    if player.pk == user.pk:
        raise NotAllowed(self_code)
    if is_guest(user):
        raise NotAllowed("guest_account")  # a guest's list would end with its visit
    if not player.is_active or is_computer(player) or is_guest(player):
        raise NotAllowed("not_followable", player=player.username)
    throttle.limit("follow", user, CHANGES_PER_10_MINUTES, 600)


def blocked(*, by, player) -> bool:
    """Whether ``by`` has blocked ``player``."""
    return Block.objects.filter(blocker=by, blocked=player).exists()


def follow_create(*, user, followed, notify: bool = False) -> Follow:
    """``user`` follows ``followed`` (again: ``notify`` changes). Refused if ``followed``
    blocked them."""
    _checked(user, followed, "follow_self")
    if blocked(by=followed, player=user):
        raise NotAllowed("follow_blocked", player=followed.username)
    with transaction.atomic():
        count = Follow.objects.filter(follower=user).count()
        follow, created = Follow.objects.get_or_create(
            follower=user, followed=followed, defaults={"notify": notify}
        )
        if created and count >= FOLLOWS_CAP:
            raise LimitReached("follows_cap", count=FOLLOWS_CAP)  # rolls the row back
        if not created and follow.notify != notify:
            follow.notify = notify
            follow.save(update_fields=["notify"])
        events.follows_changed_on_commit((user.pk,))
    return follow


def follow_delete(*, user, followed) -> None:
    """``user`` no longer follows ``followed`` (nothing to do if they did not)."""
    with transaction.atomic():
        Follow.objects.filter(follower=user, followed=followed).delete()
        events.follows_changed_on_commit((user.pk,))


def block_create(*, user, blocked_player) -> Block:
    """``user`` blocks ``blocked_player``: the follows between them end, and so do the
    challenges between them still waiting (theirs declined, the player's own withdrawn)."""
    _checked(user, blocked_player, "block_self")
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=user, blocked=blocked_player)
        between = Q(follower=user, followed=blocked_player) | Q(
            follower=blocked_player, followed=user
        )
        Follow.objects.filter(between).delete()
        now = timezone.now()
        waiting = Challenge.objects.filter(status=Challenge.Status.PENDING)
        waiting.filter(challenger=blocked_player, challenged=user).update(
            status=Challenge.Status.DECLINED, answered_at=now
        )
        waiting.filter(challenger=user, challenged=blocked_player).update(
            status=Challenge.Status.CANCELLED, answered_at=now
        )
        pair = (user.pk, blocked_player.pk)
        events.send_user_event_on_commit(pair)  # their challenge banners
        events.follows_changed_on_commit(pair)
    return block


def block_delete(*, user, blocked_player) -> None:
    """``user`` no longer blocks ``blocked_player`` (the follows that ended stay ended)."""
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked=blocked_player).delete()
        events.follows_changed_on_commit((user.pk,))


def followers_told_of_seek_on_commit(player_id: int) -> None:
    """``player_id`` opened a match in the lobby, or one of theirs left it (joined, called
    off): the banners of those who follow them and asked to be told change."""
    ids = Follow.objects.filter(followed_id=player_id, notify=True).values_list(
        "follower_id", flat=True
    )
    events.send_user_event_on_commit(tuple(ids[:FOLLOWERS_TOLD]))


def followers_told_of_arrival_on_commit(player_id: int) -> None:
    """``player_id`` came online: the lists of those who follow them show it."""
    ids = Follow.objects.filter(followed_id=player_id).values_list("follower_id", flat=True)
    events.follows_changed_on_commit(tuple(ids[:FOLLOWERS_TOLD]))
