"""Pushes to the browsers: after a commit, every socket watching a match re-renders its board.

Broadcasts go through the channel layer (Redis in production, so every server process
hears them). They are sent only after the transaction commits, and a failing layer (Redis
down) never fails the move itself: the move is saved and answered over http, and the sockets
resynchronise when the layer is back (see ``consumers.MatchConsumer.heartbeat``).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match_{match_id}"


def broadcast(match_id: int, *, lobby: bool = False, presence: bool = False) -> None:
    """Tell every socket on the match (and the lobby, when the match list changed)."""
    layer = get_channel_layer()
    event = {"type": "match.changed", "presence": presence}
    try:
        async_to_sync(layer.group_send)(match_group(match_id), event)
        if lobby:
            async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.changed"})
    except Exception:  # the layer is down: the move is saved; sockets resync later
        log.warning("could not push match %s to its sockets", match_id, exc_info=True)
