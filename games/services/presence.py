"""Presence: one row per open match socket."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .. import realtime
from ..models import (
    Connection,
    Match,
)


def connection_open(*, match_id: int, user, channel_name: str) -> Match:
    """A socket opened on the match: recorded for presence (the match's other sockets hear of
    it). Returns the match as it stands, for the new socket's first board."""
    with transaction.atomic():
        # A channel name is new with every socket: a plain INSERT.
        Connection.objects.create(
            channel_name=channel_name, match_id=match_id, user=user, seen_at=timezone.now()
        )
        match = Match.objects.select_related("player0", "player1", "winner").get(pk=match_id)
        realtime.send_event_on_commit(match_id, presence=True, opened=channel_name)
    return match


def connections_touch(*, channel_names: list[str]) -> None:
    """These sockets are still connected (a server's heartbeat, for all its sockets at once)."""
    Connection.objects.filter(channel_name__in=channel_names).update(seen_at=timezone.now())


def connection_close(*, match_id: int, channel_name: str) -> None:
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        realtime.send_event_on_commit(match_id, presence=True)
