"""Presence: one row per open match socket."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..errors import TooOften
from ..models import Connection, Match
from . import events
from .core import players_locked
from .follows import followers_told_of_arrival_on_commit
from .rematches import rematch_check_left

# The cap on each kind of a player's open connections (settings), with the refusal's code.
CAPS = {
    Connection.Kind.MATCH: "SOCKETS_PER_PLAYER",
    Connection.Kind.PAGE: "PAGE_SOCKETS_PER_PLAYER",
    Connection.Kind.STREAM: "STREAMS_PER_ACCOUNT",
}


def connection_open(
    *, user, channel_name: str, match_id: int | None = None, kind: str = Connection.Kind.MATCH
) -> Match | None:
    """A socket or stream opened (``kind``; on the match ``match_id``, if any): recorded, for
    presence and for the caps. When a player arrived on their match, the match's other
    sockets hear of it. Returns the match as it stands.

    Refused (TooOften) past the cap on this player's live connections of this kind (a match
    page's sockets, other pages' sockets, API streams: ``CAPS``), or, for a spectator (a page
    or a program), past ``SOCKETS_PER_MATCH`` on the match (its players always get in)."""
    connection_room(user=user, kind=kind)  # at the cap: refused before any lock is taken
    with transaction.atomic():
        # A player's connections open one at a time, so their cap holds exactly; a match's
        # holds give or take the arrivals of the same instant.
        players_locked(user)
        live = Connection.objects.filter(seen_at__gte=timezone.now() - PRESENCE_TIMEOUT)
        cap = getattr(settings, CAPS[kind])
        if live.filter(user=user, kind=kind)[:cap].count() >= cap:
            raise TooOften("too_many_sockets")
        arriving = not live.filter(user=user).exists()  # nothing open: the player came online
        match = playing = None
        if match_id is not None:
            match = Match.objects.select_related("player0", "player1", "winner").get(pk=match_id)
            playing = match.seat_of(user) is not None
            watchers = settings.SOCKETS_PER_MATCH  # counted no further: the cost stays flat
            if not playing and live.filter(match_id=match_id)[:watchers].count() >= watchers:
                raise TooOften("watchers_cap")
        # A channel name is new with every socket: a plain INSERT.
        Connection.objects.create(
            channel_name=channel_name, match_id=match_id, user=user, kind=kind,
            seen_at=timezone.now(),
        )  # fmt: skip
        if playing:  # boards show whether the opponent is there; nobody is told of spectators
            events.send_event_on_commit(match_id, presence=True, opened=channel_name)
        if arriving:  # their followers' lists say so at once (a departure shows within a minute)
            followers_told_of_arrival_on_commit(user.pk)
    return match


def connection_room(*, user, kind: str) -> None:
    """Raise TooOften if ``user`` has as many live connections of ``kind`` as they may: one
    query, no lock, so that a flood of attempts past the cap costs the other players nothing
    (``connection_open`` checks again, under the player's lock, before it records one)."""
    live = Connection.objects.filter(seen_at__gte=timezone.now() - PRESENCE_TIMEOUT)
    cap = getattr(settings, CAPS[kind])
    if live.filter(user=user, kind=kind)[:cap].count() >= cap:
        raise TooOften("too_many_sockets")


def connections_touch(*, channel_names: list[str]) -> None:
    """These sockets are still connected (a server's heartbeat, for all its sockets at once)."""
    Connection.objects.filter(channel_name__in=channel_names).update(seen_at=timezone.now())


def connection_close(*, channel_name: str, match_id: int | None = None, playing: bool = True):
    """``playing``: the socket was a player's on the match (a spectator's going, or a socket
    of no match, changes no board)."""
    playing = playing and match_id is not None
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        if playing:
            events.send_event_on_commit(match_id, presence=True)
    if playing:
        rematch_check_left(match_id)  # a rematch offer lapses when a player leaves
