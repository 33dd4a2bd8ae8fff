"""Pushes to the browsers: after a commit, every socket watching a match re-renders its board.

``send_event_on_commit`` is the only way a match's change reaches the sockets (a player's own
news, challenges and sessions, goes to their group the same way). The event is lean: the
match's id and version, and whether who is connected changed; never a card, the seed or anything
else a viewer may not see, because it travels through Redis to every server process. There the
match's room reads the match back once per event and each kind of viewer's board is rendered
once (``games.realtime.room``). A move made in a server process is handed to that process's
rooms as it commits, before its push (``hand_in_on_commit``): they never read it back.

Events go out only after the transaction commits (nobody sees a change that was rolled back),
and a failing layer (Redis down) never fails the change itself: the sockets resynchronise by
version when the layer is back (``games.realtime.tables``: the heartbeat).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.core import signing
from django.db import transaction

from .. import metrics

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match_{match_id}"


def lobby_user_group(user_id: int) -> str:
    """The lobby sockets of one player: their own lists changed."""
    return f"lobby_user_{user_id}"


def user_group(user_id: int) -> str:
    """All of one player's sockets (match, lobby, and every page's ``/ws/me/``): their
    challenges, where to go when a match starts for them, and whether their session ended."""
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


# What takes a match's new table in this process before any push goes out: the rooms of a
# server process (games.realtime.tables registers them as it loads). A move made here is then
# never read back here; the worker, with no rooms, has none.
_hands: list[Callable[[Any], None]] = []


def hand_in_here(take: Callable[[Any], None]) -> None:
    """``take(moved)`` is called with every move committed in this process (``Moved``)."""
    if take not in _hands:
        _hands.append(take)


def hand_in_on_commit(moved) -> None:
    """Once the current transaction commits, hand the move (``services.Moved``) to what takes
    it in this process: called before the change's ``send_event_on_commit``, it goes first."""
    if _hands:
        transaction.on_commit(lambda: _hand_in(moved))


def _hand_in(moved) -> None:
    for take in _hands:
        try:
            take(moved)
        except Exception:  # the move is saved; the push that follows makes the room read it
            log.warning("match %s: table not handed in", moved.match.pk, exc_info=True)


def send_user_event_on_commit(user_ids: tuple[int, ...], *, goto: int | None = None) -> None:
    """Once the current transaction commits, tell these players' pages that their challenges
    changed, and (``goto``: a match id) to go to the match that just started for them."""
    event = {"type": "user.changed", "goto": goto}
    transaction.on_commit(lambda: _send_to_users(user_ids, event))


def arena_group(arena_id: int) -> str:
    """The pages of one arena (its standings, time and state, pushed when they change)."""
    return f"arena_{arena_id}"


def arena_changed_on_commit(arena_id: int) -> None:
    """Once the current transaction commits, tell the arena's pages that it changed (a match
    of it began or ended, a player joined or paused, it started or ended)."""
    event = {"type": "arena.changed", "arena_id": arena_id}
    transaction.on_commit(lambda: send_to_group(arena_group(arena_id), event))


def chat_changed_on_commit(match_id: int, line_id: int, *, removed: bool = False) -> None:
    """Once the current transaction commits, tell the match's pages that a line was said (or
    removed): lean, its id alone; each page reads what its reader may see."""
    event = {"type": "chat.changed", "match_id": match_id, "line": line_id, "removed": removed}
    transaction.on_commit(lambda: send_to_group(match_group(match_id), event))


def arena_chat_on_commit(arena_id: int, line_id: int, *, removed: bool = False) -> None:
    """Once the current transaction commits, tell the arena's pages that a line of its chat
    was said (or removed): lean, as ``chat_changed_on_commit``."""
    event = {"type": "arena.chat", "arena_id": arena_id, "line": line_id, "removed": removed}
    transaction.on_commit(lambda: send_to_group(arena_group(arena_id), event))


def api_account_group(user_id: int) -> str:
    """One player's API account streams (http and websocket): news that no page shows."""
    return f"api_account_{user_id}"


def account_changed_on_commit(user_ids: tuple[int, ...]) -> None:
    """Once the current transaction commits, tell these players' API account streams that
    their news changed (a rematch offer of theirs made or gone: the pages hear of it through
    the match)."""
    groups = [api_account_group(pk) for pk in user_ids if pk]
    transaction.on_commit(lambda: _send_to_groups(groups, {"type": "account.changed"}))


def _send_to_groups(groups: list[str], event: dict) -> None:
    for group in groups:
        send_to_group(group, event)


def follows_changed_on_commit(user_ids: tuple[int, ...]) -> None:
    """Once the current transaction commits, tell these players' pages that their list of the
    players they follow changed (one followed came online, or they followed or blocked)."""
    if user_ids:
        event = {"type": "follows.changed"}
        transaction.on_commit(lambda: _send_to_users(user_ids, event))


def _send_to_users(user_ids: tuple[int, ...], event: dict) -> None:
    for user_id in user_ids:
        send_to_group(user_group(user_id), event)


# With the in-memory channel layer (the embedded defaults of `make run`, no Redis) a task
# worker's layer is its own: nothing it sends there reaches the server's sockets. Such a
# worker hands its pushes to the server instead (``relay_to``, set by ``run_worker``), as a
# signed post that the server sends on through its own layer (``web.views.relay``).
RELAY_SALT = "games.events.relay"
RELAY_PATH = "/internal/pushes"
_relay: dict[str, str] = {}


def relay_to(url: str) -> None:
    """From now on this process's pushes go to the server at ``url`` (a worker's, under the
    embedded defaults)."""
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"PUSH_RELAY_URL must be the server's http(s) address, not {url!r}")
    _relay["url"] = url.rstrip("/") + RELAY_PATH


def relay_body(pushes: list[tuple[str, dict]]) -> str:
    """``pushes`` (group, event) as a relay posts them: signed with the site's key."""
    return signing.dumps([list(push) for push in pushes], salt=RELAY_SALT, compress=True)


def relayed(pushes: list[tuple[str, dict]]) -> None:
    """Post ``pushes`` (group, event) to the server this process relays to."""
    request = urllib.request.Request(  # noqa: S310 - relay_to took only http(s)
        _relay["url"],
        data=relay_body(pushes).encode(),
        method="POST",
        headers={"Content-Type": "text/plain"},
    )
    with urllib.request.urlopen(request, timeout=5) as answer:  # noqa: S310 - as above
        answer.read()


def relayed_pushes(body: str) -> list[tuple[str, dict]]:
    """The pushes a relay's post carries; ``signing.BadSignature`` if it is not one of ours
    (a wrong key, altered, or older than a minute)."""
    pushes = signing.loads(body, salt=RELAY_SALT, max_age=60)
    return [(str(group), dict(event)) for group, event in pushes]


def _send(
    match_id: int, *, version, lobby: tuple, presence: bool, opened: str, watch: bool = False
) -> None:
    event = {
        "type": "match.changed",
        "match_id": match_id,
        "version": version,
        "presence": presence,
        "opened": opened,
    }
    if metrics.ON and version is not None:  # its commit, now: the rooms time their pushes
        event["at"] = round(time.time(), 4)
    layer = get_channel_layer()
    loop = _serving_loop()
    if loop is not None:  # a thread serving the server's loop: a view, a consumer's database call
        # Handed to the loop without waiting for it: this thread is the process's one database
        # thread, and the next move should not queue behind a Redis round trip. Pushes handed
        # over in order go out in order (the loop runs them first come, first served).
        pushing = _pushing(layer, match_group(match_id), event, lobby, watch)
        loop.call_soon_threadsafe(loop.create_task, pushing)
        return
    try:  # the task worker, or a script: no server loop here
        if _relay:
            relayed(_match_pushes(match_group(match_id), event, lobby, watch))
            return
        _wait_for(_group_send, layer, match_group(match_id), event, lobby, watch)
    except Exception:  # the layer is down: the change is saved; sockets catch up by version
        log.warning("could not push match %s to its sockets", match_id, exc_info=True)


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop this thread serves (a server's, for a view or a consumer's
    database call), or None. asgiref leaves the last one in the thread's locals after the
    call that set it has ended (a test's async_to_sync, a script's): one no longer running is
    none, and the push is waited for here instead of being dropped."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def _wait_for(push: Callable, *args) -> None:
    """Runs ``push`` to its end from synchronous code that no running server loop serves (the
    task worker, a script, a server's database thread as it stops), on the process's push loop
    (``_push_loop``): its channel layer connections are kept from one push to the next. Any
    thread may wait on it, even one running an event loop of its own (Playwright's sync API
    keeps one in the browser tests' main thread) or one whose locals still name a loop that
    stopped (asgiref's ``async_to_sync`` would hand the push to that loop and wait for ever)."""
    asyncio.run_coroutine_threadsafe(push(*args), _push_loop()).result()


_pusher: dict[str, Any] = {}
_pusher_lock = threading.Lock()


def _push_loop() -> asyncio.AbstractEventLoop:
    """The event loop, in a thread of its own, that runs this process's pushes from
    synchronous code. ``async_to_sync`` made a loop, a thread and a connection to Redis for
    each push: the task worker's every computer move paid for all three (bench/pushes.py)."""
    with _pusher_lock:
        if _pusher.get("pid") != os.getpid() or not _pusher["thread"].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="pushes", daemon=True)
            thread.start()
            _pusher.update(pid=os.getpid(), loop=loop, thread=thread)
        return _pusher["loop"]


async def _pushing(layer, group: str, event: dict, lobby: tuple, watch: bool) -> None:
    try:
        await _group_send(layer, group, event, lobby, watch)
    except Exception:  # the layer is down: the change is saved; sockets catch up by version
        log.warning("could not push %s to its sockets", group, exc_info=True)


async def _group_send(layer, group: str, event: dict, lobby: tuple, watch: bool = False) -> None:
    for to, news in _match_pushes(group, event, lobby, watch):
        await twice(layer.group_send, to, news)


def _match_pushes(group: str, event: dict, lobby: tuple, watch: bool) -> list[tuple[str, dict]]:
    """A match's change as the groups hear it, in order: the match's sockets, then the
    players' own lists (a lobby socket knows its player's open matches before the shared list
    comes: it leaves them out of it), then the shared list."""
    pushes = [(group, event)]
    pushes += [(lobby_user_group(user_id), {"type": "lobby.mine"}) for user_id in lobby]
    if lobby or watch:
        shared = {
            "type": "lobby.changed",
            "match_id": event["match_id"],
            "version": event["version"],
        }
        pushes.append((LOBBY_GROUP, shared))
    return pushes


async def twice(layer_call, *args) -> None:
    """A channel layer call, tried once more if it fails: after a Redis restart the first call
    on each pooled connection meets a dead one, and the second goes out on a fresh one."""
    try:
        await layer_call(*args)
    except Exception:
        await layer_call(*args)


def sessions_check_on_commit(user_id: int, renamed: tuple[str, str] | None = None) -> None:
    """After the commit, every socket of this player checks its session again and closes if it
    ended (a password change or reset, a suspension). ``renamed``: (old key, new key) of the
    session that changed the password (Django gave it a new key): its sockets follow it."""
    event = {"type": "session.check", "renamed": list(renamed) if renamed else None}
    transaction.on_commit(lambda: send_to_group(user_group(user_id), event))


def api_token_group(token_id: int) -> str:
    """The API streams (http and websocket) opened with one token: closed when it is revoked."""
    return f"api_token_{token_id}"


def token_revoked_on_commit(token_id: int) -> None:
    """After the commit, every stream opened with this token closes."""
    event = {"type": "token.revoked", "token_id": token_id}
    transaction.on_commit(lambda: send_to_group(api_token_group(token_id), event))


def send_to_group(group: str, event: dict) -> None:
    """Send ``event`` to every socket in ``group`` now (from synchronous code): what the
    pushes after a commit do, for news that is not a match's."""
    layer = get_channel_layer()
    loop = _serving_loop()
    if loop is not None:  # a thread serving the server's loop: handed over, not waited for
        loop.call_soon_threadsafe(loop.create_task, _pushing_to(layer, group, event))
        return
    try:
        if _relay:
            relayed([(group, event)])
            return
        _wait_for(twice, layer.group_send, group, event)
    except Exception:  # the layer is down: each socket checks its session on its next frame
        log.warning("could not send %s to %s", event["type"], group, exc_info=True)


async def _pushing_to(layer, group: str, event: dict) -> None:
    try:
        await twice(layer.group_send, group, event)
    except Exception:
        log.warning("could not send %s to %s", event["type"], group, exc_info=True)
