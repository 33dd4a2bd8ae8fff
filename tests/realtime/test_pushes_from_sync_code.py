"""A change made by synchronous code that no server loop serves still reaches the sockets,
even in a thread where an event loop of another's is running: Playwright's sync API keeps one
in the browser tests' main thread, where their matches are set up (seen in CI: "could not push
match 18", the push lost)."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest
import redis.asyncio.connection
from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction

from games.services import events

pytestmark = pytest.mark.django_db(transaction=True)

NEVER = 30  # seconds: a push lost, where it arrives in milliseconds


def heard_by(group: str, work) -> dict:
    """What a socket in ``group`` receives when ``work()`` runs in this thread while an event
    loop runs here (and waits for it: the loop does nothing else meanwhile, as Playwright's)."""

    async def main():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        work()
        return await asyncio.wait_for(layer.receive(channel), NEVER)  # lost: fails, not hangs

    return asyncio.run(main())


def test_news_sent_from_sync_code_under_a_running_loop_reaches_the_group():
    news = {"type": "user.changed", "goto": 3}

    heard = heard_by(events.user_group(7), lambda: events.send_to_group(events.user_group(7), news))

    assert heard == news


def test_a_match_change_committed_under_a_running_loop_reaches_its_sockets(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # as the browser tests' process

    def change():
        try:
            with transaction.atomic():
                events.send_event_on_commit(11, version=4)
        finally:  # the coroutine's context has a connection of its own (asgiref's Local)
            connection.close()

    heard = heard_by(events.match_group(11), change)

    assert (heard["type"], heard["match_id"], heard["version"]) == ("match.changed", 11, 4)


def test_a_push_from_a_thread_asgiref_once_ran_sync_code_in_still_goes_out():
    """asgiref leaves the loop of an ended ``async_to_sync`` call in the thread's locals (its
    sync code ran in this thread): that loop runs no more, and a push was dropped as if the
    server were stopping (seen in CI, once another test had used the test client here)."""
    async_to_sync(sync_to_async(lambda: None))()
    stale = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    assert stale is not None and not stale.is_running()
    news = {"type": "user.changed", "goto": 4}

    heard = heard_by(events.user_group(8), lambda: events.send_to_group(events.user_group(8), news))

    assert heard == news


def test_pushes_from_sync_code_share_one_connection_to_redis(monkeypatch):
    """The task worker pushes every computer move from synchronous code: the pushes go out on
    the process's push loop, over the connection the first opened (a loop, a thread and a
    connection each, before: bench/pushes.py)."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL: runs in CI's PostgreSQL + Redis pass")
    opened = []  # the threads that opened a connection
    connect = redis.asyncio.connection.Connection._connect

    async def counted(self):
        opened.append(threading.current_thread())
        return await connect(self)

    group = events.user_group(9)
    events.send_to_group(group, {"type": "user.changed"})  # the push loop's first: it connects
    monkeypatch.setattr(redis.asyncio.connection.Connection, "_connect", counted)
    news = [{"type": "user.changed", "goto": number} for number in range(5)]

    def push_all():
        for one in news:
            events.send_to_group(group, one)

    heard = heard_by(group, push_all)

    assert heard == news[0]  # they went out (the first heard; the rest follow it)
    # Only the listener connected (this thread's loop, as a socket's server does).
    assert [thread.name for thread in opened if thread is not threading.current_thread()] == []
