"""The players one follows (online now or not), those one blocked, and the matches the
followed just opened."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from ...models import Block, Connection, Follow, Match, MatchStatus
from .connections import PRESENCE_TIMEOUT

# The banner shows at most this many matches opened by players one asked to be told of.
SEEKS_SHOWN = 3


@dataclass(frozen=True)
class Followed:
    """A player in one's list: whether they are online now (a socket or stream open), and
    whether one asked to be told when they open a match."""

    player: object
    online: bool
    notify: bool


def following(*, user) -> list[Followed]:
    """The players ``user`` follows, those online first, then by name."""
    follows = list(Follow.objects.filter(follower=user).select_related("followed"))
    since = timezone.now() - PRESENCE_TIMEOUT
    online = set(
        Connection.objects.filter(
            user_id__in=[follow.followed_id for follow in follows], seen_at__gte=since
        ).values_list("user_id", flat=True)
    )
    rows = [
        Followed(follow.followed, follow.followed_id in online, follow.notify)
        for follow in follows
        if follow.followed.is_active
    ]
    return sorted(rows, key=lambda row: (not row.online, row.player.username.casefold()))


def blocked_players(*, user) -> list:
    """The players ``user`` blocked, by name."""
    blocks = Block.objects.filter(blocker=user).select_related("blocked")
    return sorted((block.blocked for block in blocks), key=lambda p: p.username.casefold())


def follow_state(*, user, player) -> dict:
    """For ``player``'s profile seen by ``user``: whether they follow them (and are told of
    their matches), and whether they blocked them."""
    follow = Follow.objects.filter(follower=user, followed=player).first()
    return {
        "following": follow is not None,
        "notify": bool(follow and follow.notify),
        "blocking": Block.objects.filter(blocker=user, blocked=player).exists(),
        "followers": Follow.objects.filter(followed=player).count(),
    }


def followed_seeks(*, user) -> list[Match]:
    """Matches waiting in the lobby that players ``user`` follows (and asked to be told of)
    opened, the newest first."""
    told_of = Follow.objects.filter(follower=user, notify=True).values("followed")
    return list(
        Match.objects.filter(status=MatchStatus.OPEN, player0__in=told_of)
        .select_related("player0")
        .order_by("-created_at")[:SEEKS_SHOWN]
    )
