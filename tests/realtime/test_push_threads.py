"""Pushes from synchronous code reach the sockets whatever the thread: even one that runs an
event loop of its own."""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from games import realtime


def test_a_push_from_a_thread_that_runs_an_event_loop_is_not_lost():
    # Playwright's sync API (the browser tests' own process), a notebook: a service called
    # there, with a loop running in the thread, still pushes its news.
    layer = get_channel_layer()

    async def main():
        channel = await layer.new_channel()
        await layer.group_add("user_1", channel)
        realtime.send_to_group("user_1", {"type": "session.check", "renamed": None})
        return await asyncio.wait_for(layer.receive(channel), 5)

    assert asyncio.run(main())["type"] == "session.check"
