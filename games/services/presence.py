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
from .rematches import rematch_check_left


def connection_open(*, match_id: int, user, channel_name: str, capped: bool = True) -> Match:
    """A socket opened on the match: recorded for presence (when a player arrived, the match's
    other sockets hear of it). Returns the match as it stands, for the new socket's first board.

    Refused (TooOften) past ``SOCKETS_PER_PLAYER`` live sockets of this player, or past
    ``SOCKETS_PER_MATCH`` on the match for a spectator (its players always get in).
    ``capped=False``: a program's stream of its own match (``games.api``), which counts for
    presence but not against the cap a person's pages have; a bot may play many matches at
    once, and the API's request limit bounds its streams."""
    with transaction.atomic():
        # A player's sockets open one at a time, so their cap holds exactly; a match's holds
        # give or take the arrivals of the same instant.
        players_locked(user)
        live = Connection.objects.filter(seen_at__gte=timezone.now() - PRESENCE_TIMEOUT)
        if capped and live.filter(user=user).count() >= settings.SOCKETS_PER_PLAYER:
            raise TooOften("too_many_sockets")
        match = Match.objects.select_related("player0", "player1", "winner").get(pk=match_id)
        playing = match.seat_of(user) is not None
        cap = settings.SOCKETS_PER_MATCH  # counted no further: the cost does not grow with it
        if not playing and live.filter(match_id=match_id)[:cap].count() >= cap:
            raise TooOften("watchers_cap")
        # A channel name is new with every socket: a plain INSERT.
        Connection.objects.create(
            channel_name=channel_name, match_id=match_id, user=user, seen_at=timezone.now()
        )
        if playing:  # boards show whether the opponent is there; nobody is told of spectators
            events.send_event_on_commit(match_id, presence=True, opened=channel_name)
    return match


def connections_touch(*, channel_names: list[str]) -> None:
    """These sockets are still connected (a server's heartbeat, for all its sockets at once)."""
    Connection.objects.filter(channel_name__in=channel_names).update(seen_at=timezone.now())


def connection_close(*, match_id: int, channel_name: str, playing: bool = True) -> None:
    """``playing``: the socket was a player's (a spectator's going changes no board)."""
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        if playing:
            events.send_event_on_commit(match_id, presence=True)
    if playing:
        rematch_check_left(match_id)  # a rematch offer lapses when a player leaves
