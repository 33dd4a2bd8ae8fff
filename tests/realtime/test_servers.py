"""Real server processes: two of them sharing PostgreSQL and Redis, a SIGKILL in the middle of
a match, and Redis going away. Nothing acknowledged may be lost or applied twice."""

from __future__ import annotations

import asyncio
import os
import shutil
import time

import pytest
import websockets

from games import services
from games.models import Match
from tests.support.environment import missing
from tests.support.players import Player, moves_are_whole, play_moves, post_move, session_cookie
from tests.support.servers import Server, free_port, redis_started, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def new_match(alice, bob) -> Match:
    return services.match_join(user=bob, match_id=services.match_create(user=alice).pk)


def test_a_move_through_one_server_reaches_a_socket_on_the_other(alice, bob):
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        pytest.skip("needs DATABASE_URL and REDIS_URL: runs in CI's PostgreSQL + Redis pass")
    match = new_match(alice, bob)
    cookies = session_cookie(alice), session_cookie(bob)
    first, second = Server(server_env()).start(), Server(server_env()).start()
    try:

        async def scenario():
            a = await Player("alice", cookies[0]).connect(first, match.pk)
            b = await Player("bob", cookies[1]).connect(second, match.pk)
            version = await play_moves([a, b], 6)  # each move made on one server, seen on both
            await a.close()
            await b.close()
            return version

        assert asyncio.run(scenario()) == 7
    finally:
        first.stop()
        second.stop()
    moves_are_whole(match)


def test_a_killed_server_comes_back_and_both_players_continue(alice, bob):
    match = new_match(alice, bob)
    cookies = session_cookie(alice), session_cookie(bob)
    port = free_port()
    server = Server(server_env(), port=port).start()
    try:

        async def scenario():
            a = await Player("alice", cookies[0]).connect(server, match.pk)
            b = await Player("bob", cookies[1]).connect(server, match.pk)
            before = await play_moves([a, b], 5)
            server.kill()  # SIGKILL mid-match
            # ``kill`` waited for the process to exit: the port is free to listen on again
            # (daphne's listening socket is made with SO_REUSEADDR).
            restarted = Server(server_env(), port=port).start()
            a = await Player("alice", cookies[0]).connect(restarted, match.pk)
            b = await Player("bob", cookies[1]).connect(restarted, match.pk)
            assert a.version == b.version == before  # the same state as before the kill
            after = await play_moves([a, b], 5)
            await a.close()
            await b.close()
            restarted.stop()
            return before, after

        before, after = asyncio.run(scenario())
        assert after == before + 5
    finally:
        server.stop()
    moves_are_whole(match)


def test_a_stopped_server_says_goodbye_for_its_sockets_and_exits(alice, bob):
    """SIGTERM (a deploy, an operator's restart) with players connected: the server closes
    their sockets and exits by itself. It used to hang at exit when a socket's goodbye (its
    presence push) was still waiting for the server's loop, which had already stopped."""
    match = new_match(alice, bob)
    cookies = session_cookie(alice), session_cookie(bob)
    server = Server(server_env()).start()
    try:

        async def scenario():
            a = await Player("alice", cookies[0]).connect(server, match.pk)
            b = await Player("bob", cookies[1]).connect(server, match.pk)
            await play_moves([a, b], 2)
            assert await asyncio.to_thread(match.connections.count) == 2
            await a.close()  # its goodbye is still on its way when the server is told to stop
            server.process.terminate()
            await asyncio.to_thread(server.process.wait, 8)  # TimeoutExpired if it hangs
            with pytest.raises(websockets.ConnectionClosed):
                await b.ws.recv()

        asyncio.run(scenario())
    finally:
        server.stop()
    moves_are_whole(match)


async def post_next_move(server: Server, players: list[Player], match_id: int) -> int:
    for player in players:
        made = await asyncio.to_thread(post_move, server, player.cookie, match_id)
        if made is not None:
            return made
    raise AssertionError("nobody has a move to make")


def test_moves_are_saved_while_redis_is_down_and_pushes_resume(alice, bob, tmp_path):
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        missing("redis-server (apt-get install redis-server)")
    port = free_port()
    redis_args = [redis_server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    redis_args += ["--appendonly", "no", "--dir", str(tmp_path)]
    redis = redis_started(redis_args)
    # A heartbeat far longer than the test: every board that arrives came through the layer.
    env = server_env(REDIS_URL=f"redis://127.0.0.1:{port}/0", REALTIME_HEARTBEAT_SECONDS="300")
    server = Server(env).start()
    match = new_match(alice, bob)
    cookies = session_cookie(alice), session_cookie(bob)
    try:

        async def scenario():
            nonlocal redis
            players = [
                await Player(name, cookie).connect(server, match.pk)
                for name, cookie in zip(("alice", "bob"), cookies, strict=True)
            ]
            await play_moves(players, 2)
            redis.kill()
            redis.wait()
            # Saved and answered while the layer is down; its push is lost.
            await post_next_move(server, players, match.pk)
            redis = redis_started(redis_args)
            # Once the server's subscriber is back, a move's push reaches both open sockets,
            # and the board it carries brings each up to date past the push they missed.
            # Moves made before the subscriber is back lose their pushes too: keep playing.
            deadline = time.monotonic() + 30
            while True:
                made = await post_next_move(server, players, match.pk)
                try:
                    for player in players:
                        await player.wait_for(made, timeout=2)
                    break
                except TimeoutError:
                    assert time.monotonic() < deadline, "pushes never resumed after Redis returned"
            assert [player.version for player in players] == [made, made]
            for player in players:
                await player.close()

        asyncio.run(scenario())
    finally:
        server.stop()
        redis.kill()
    moves_are_whole(match)
