"""Pushes to the browsers: after a commit, every socket watching a match re-renders its board.

``send_event_on_commit`` is the only way a change reaches the sockets. The event is lean: the
match's id and version, and whether who is connected changed; never a card, the seed or anything
else a viewer may not see, because it travels through Redis to every server process. Each
process reads the match back once per event and renders one board per kind of viewer
(``consumers.Boards``).

Events go out only after the transaction commits (nobody sees a change that was rolled back),
and a failing layer (Redis down) never fails the change itself: the sockets resynchronise by
version when the layer is back (``consumers.Heartbeat``).
"""

from __future__ import annotations

import logging

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import selectors

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match_{match_id}"


def lobby_user_group(user_id: int) -> str:
    """The lobby sockets of one player: their own lists changed."""
    return f"lobby_user_{user_id}"


def user_group(user_id: int) -> str:
    """Every page a player has open (``consumers.UserConsumer``): challenges, and where to go
    when a match starts for them."""
    return f"user_{user_id}"


def send_event_on_commit(
    match_id: int,
    *,
    version: int | None = None,
    lobby: tuple[int, ...] = (),
    presence: bool = False,
    opened: str = "",
    watch: bool = False,
) -> None:
    """Once the current transaction commits, tell every socket on the match and, when the
    lobby's lists changed, every lobby socket (``lobby``: the ids of the match's players, whose
    own lists changed too; ``watch``: only the list of matches to watch changed). ``version``:
    the match's version after the change (None when only who is connected changed);
    ``opened``: the socket whose arrival this is."""
    transaction.on_commit(
        lambda: _send(
            match_id, version=version, lobby=lobby, presence=presence, opened=opened, watch=watch
        )
    )


def send_user_event_on_commit(user_ids: tuple[int, ...], *, goto: int | None = None) -> None:
    """Once the current transaction commits, tell these players' pages that their challenges
    changed, and (``goto``: a match id) to go to the match that just started for them."""
    transaction.on_commit(lambda: _send_users(user_ids, goto))


def _send_users(user_ids: tuple[int, ...], goto: int | None) -> None:
    if _server_stopped():
        return
    event = {"type": "user.changed", "goto": goto}
    try:
        async_to_sync(_group_send_users)(get_channel_layer(), user_ids, event)
    except Exception:  # the layer is down: the pages see the challenge when they reconnect
        log.warning("could not push to users %s", user_ids, exc_info=True)


async def _group_send_users(layer, user_ids: tuple[int, ...], event: dict) -> None:
    for user_id in user_ids:
        await twice(layer.group_send, user_group(user_id), event)


def _send(
    match_id: int, *, version, lobby: tuple, presence: bool, opened: str, watch: bool = False
) -> None:
    if presence:  # who is connected just changed: not what this process remembers
        selectors.forget_presence(match_id)
    event = {
        "type": "match.changed",
        "match_id": match_id,
        "version": version,
        "presence": presence,
        "opened": opened,
    }
    if _server_stopped():
        log.info("server stopping: match %s not pushed", match_id)
        return
    layer = get_channel_layer()
    try:
        async_to_sync(_group_send)(layer, match_group(match_id), event, lobby, watch)
    except Exception:  # the layer is down: the change is saved; sockets catch up by version
        log.warning("could not push match %s to its sockets", match_id, exc_info=True)


def _server_stopped() -> bool:
    """True in a thread that serves the server's event loop (a consumer's database call) once
    that loop has stopped, as in a shutdown: ``async_to_sync`` would wait for it for ever, and
    the process could not exit. Its sockets are closing anyway."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop is not None and not loop.is_running()


async def _group_send(layer, group: str, event: dict, lobby: tuple, watch: bool = False) -> None:
    await twice(layer.group_send, group, event)
    # The players' own lists first: a lobby socket knows its player's open matches before the
    # shared list comes (it leaves them out of it).
    for user_id in lobby:
        await twice(layer.group_send, lobby_user_group(user_id), {"type": "lobby.mine"})
    if lobby or watch:
        shared = {
            "type": "lobby.changed",
            "match_id": event["match_id"],
            "version": event["version"],
        }
        await twice(layer.group_send, LOBBY_GROUP, shared)


async def twice(layer_call, *args) -> None:
    """A channel layer call, tried once more if it fails: after a Redis restart the first call
    on each pooled connection meets a dead one, and the second goes out on a fresh one."""
    try:
        await layer_call(*args)
    except Exception:
        await layer_call(*args)
