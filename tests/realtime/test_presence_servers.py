"""Presence across real processes: two web processes behind nginx with the site's own config
(deploy/nginx.conf), PostgreSQL and Redis. A player's board shows the opponent "at the table"
within a second of the opponent's socket opening on either process (the one the front sends
the match to, or the other: a failover, or ``uvicorn --workers`` on one port), and "away"
within two seconds of its closing."""

from __future__ import annotations

import asyncio
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from games import services
from tests.support.environment import missing
from tests.support.players import Player, session_cookie
from tests.support.servers import Front, Server, nginx, server_env

pytestmark = pytest.mark.django_db(transaction=True)
PRESENCE = re.compile(r'data-presence="(\w+)"')


async def until_shown(player: Player, presence: str, timeout: float) -> float:
    """Seconds until ``player``'s board shows the opponent as ``presence`` ("here", "away")."""
    began = time.perf_counter()
    async with asyncio.timeout(timeout):
        while PRESENCE.search(player.board).group(1) != presence:
            frame = await player.ws.recv()
            if 'id="board"' in frame:
                player.board = frame
    return time.perf_counter() - began


def test_the_opponent_arriving_or_leaving_on_either_process_shows_at_once(alice, bob):
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        pytest.skip("needs DATABASE_URL and REDIS_URL: runs in CI's PostgreSQL + Redis pass")
    if nginx() is None:
        missing("nginx (Debian's nginx-light)")
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    cookies = session_cookie(alice), session_cookie(bob)
    with ThreadPoolExecutor(2) as starting:
        servers = list(starting.map(Server.start, [Server(server_env()), Server(server_env())]))
    front = Front([s.port for s in servers]).start()
    try:

        async def scenario() -> list[tuple[float, float]]:
            a = await Player("alice", cookies[0]).connect(front, match.pk)
            assert PRESENCE.search(a.board).group(1) == "away"
            timings = []
            for server in servers:  # one of them is alice's process, the other is not
                b = Player("bob", cookies[1])
                await b.connect(server, match.pk)
                arrived = await until_shown(a, "here", timeout=5)
                await b.close()
                left = await until_shown(a, "away", timeout=5)
                timings.append((arrived, left))
            await a.close()
            return timings

        timings = asyncio.run(scenario())
    finally:
        front.stop()
        for server in servers:
            server.stop()
    # Each process showed the arrival, then the leaving (until_shown waits for each in turn);
    # how soon is a figure of bench/load (its seating's "presence news"), not a pass/fail.
    assert len(timings) == 2
