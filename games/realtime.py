"""Pushes to the browsers: after a commit, every socket watching a match re-renders its board.

Broadcasts go through the channel layer (Redis in production, so every server process
hears them). They are sent only after the transaction commits, and a failing layer (Redis
down) never fails the move itself: the move is saved and answered over http, and the sockets
resynchronise when the layer is back (see ``consumers.Heartbeat``).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db.models import DateTimeField

from . import selectors
from .models import Match, MatchStatus

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
User = get_user_model()

# The server's event loop, where the sockets' consumers run (remembered by the first socket).
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    """Called on the server's loop: a broadcast from a thread of our own is sent from there."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def _run(coroutine_function, *args) -> None:
    """Start a layer call from synchronous code.

    Threads that asgiref started for the server (sync views, ``database_sync_to_async``) hand
    the call to the server's loop and go on without waiting for it: the thread is the
    process's one database thread, and the next move should not queue behind a Redis round
    trip. Calls handed over in order go out in order (the loop runs them first come, first
    served, and the layer sends one at a time). A thread of our own (the computer's timer)
    would get a new loop from ``async_to_sync``, and the in-memory layer's queues, bound to
    the server's loop, would not wake the waiting sockets: such a call is sent to that loop too.
    """
    loop = _server_loop
    if loop is not None and not loop.is_closed():
        if not loop.is_running():  # stopped, not yet closed: the server is shutting down
            raise ServerStopping
        try:
            current = asyncio.get_running_loop()
        except RuntimeError:
            current = None
        if current is None:
            asyncio.run_coroutine_threadsafe(coroutine_function(*args), loop)
            return
    async_to_sync(coroutine_function)(*args)


class ServerStopping(RuntimeError):
    """The server's loop has stopped (a shutdown): nothing can be sent from it any more."""


def match_group(match_id: int) -> str:
    return f"match_{match_id}"


def broadcast(
    match_id: int, *, lobby: bool = False, presence: bool = False, match=None, opened: str = ""
) -> None:
    """Tell every socket on the match (and the lobby, when the match list changed).

    A match in play travels with the news (``match_event``): each socket renders its viewer's
    board from it without going back to the database.
    """
    layer = get_channel_layer()
    event = {"type": "match.changed", "presence": presence, "opened": opened}
    if presence:  # who is connected just changed: not what this process remembers
        selectors.forget_presence(match_id)
    if match is not None and match.status == MatchStatus.ACTIVE:
        event["match"] = match_event(match)
        event["present"] = sorted(selectors.present_user_ids(match_id=match_id))
    try:
        _run(_group_send, layer, match_group(match_id), event, f"match {match_id}")
        if lobby:
            _run(_group_send, layer, LOBBY_GROUP, {"type": "lobby.changed"}, "the lobby")
    except ServerStopping:  # its sockets are closing anyway (presence elsewhere: next push)
        log.info("server stopping: match %s not pushed", match_id)
    except Exception:  # sent here and now (no server loop to hand it to), and it failed
        log.warning("could not push match %s to its sockets", match_id, exc_info=True)


async def _group_send(layer, group: str, event: dict, what: str) -> None:
    try:
        await twice(layer.group_send, group, event)
    except Exception:  # the layer is down: the move is saved; sockets catch up at heartbeat
        log.warning("could not push %s to its sockets", what, exc_info=True)


async def twice(layer_call, *args) -> None:
    """A channel layer call, tried once more if it fails: after a Redis restart the first call
    on each pooled connection meets a dead one, and the second goes out on a fresh one."""
    try:
        await layer_call(*args)
    except Exception:
        await layer_call(*args)


def match_event(match: Match) -> dict:
    """The match as a push carries it (msgpack-able): its row, and its players' ids and names."""
    row = {}
    for field in Match._meta.concrete_fields:
        value = getattr(match, field.attname)
        row[field.attname] = value.isoformat() if isinstance(value, datetime) else value
    return {"row": row, "players": [[p.pk, p.username] if p else None for p in match.players]}


def match_from_event(data: dict) -> Match:
    """The match that ``match_event`` packed, with its players attached (only ids and names:
    all a board shows of them)."""
    row = dict(data["row"])
    for field in Match._meta.concrete_fields:
        if isinstance(field, DateTimeField) and row[field.attname] is not None:
            row[field.attname] = datetime.fromisoformat(row[field.attname])
    match = Match(**row)
    match._state.adding = False
    players = [User(pk=p[0], username=p[1]) if p else None for p in data["players"]]
    match.player0, match.player1 = players
    return match


def group_push(group: str, event: dict) -> None:
    """Send ``event`` to every socket in ``group`` from synchronous code; a failing layer is
    logged, never raised (games.sessions sends its news to a player's sockets this way)."""
    try:
        _run(_group_send, get_channel_layer(), group, event, group)
    except ServerStopping:  # its sockets are closing anyway
        log.info("server stopping: %s not sent to %s", event["type"], group)
    except Exception:
        log.warning("could not send %s to %s", event["type"], group, exc_info=True)
