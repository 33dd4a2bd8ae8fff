"""Real server processes: two of them sharing PostgreSQL and Redis, a SIGKILL in the middle of
a match, and Redis going away. Nothing acknowledged may be lost or applied twice."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import subprocess
import time
import urllib.request

import pytest
from django.core.management import call_command

from games import services
from games.models import Match
from tests.conftest import missing
from tests.servers import Server, free_port, server_env

from .players import Player, play_moves, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def new_match(alice, bob) -> Match:
    return services.match_join(user=bob, match_id=services.match_create(user=alice).pk)


def moves_are_whole(match: Match) -> None:
    match.refresh_from_db()
    seqs = list(match.moves.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # none lost, none twice
    assert match.version == len(seqs) + 1
    out = io.StringIO()
    call_command("verify_matches", stdout=out)
    assert "all snapshots agree" in out.getvalue()


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
            restarted = Server(server_env(), port=port)
            for _ in range(50):  # the port can take a moment to be free again
                try:
                    restarted.start()
                    break
                except RuntimeError:
                    time.sleep(0.2)
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


def post_move(server: Server, cookie: str, match_id: int, action: str, version: int) -> int:
    """A move over plain http, the way the page's form posts it."""
    get = urllib.request.Request(f"{server.url}/matches/{match_id}/", headers={"Cookie": cookie})
    with urllib.request.urlopen(get, timeout=10) as response:
        token = response.headers.get_all("Set-Cookie")
    csrf = next(c.split(";")[0].split("=", 1)[1] for c in token if c.startswith("csrftoken="))
    body = f"action={action}&version={version}".encode()
    post = urllib.request.Request(
        f"{server.url}/matches/{match_id}/act",
        data=body,
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    with urllib.request.urlopen(post, timeout=10) as response:
        return response.status


def test_moves_are_saved_while_redis_is_down_and_pushes_resume(alice, bob, tmp_path):
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        missing("redis-server (apt-get install redis-server)")
    port = free_port()
    redis_args = [redis_server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    redis_args += ["--appendonly", "no", "--dir", str(tmp_path)]
    redis = subprocess.Popen(redis_args, stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    env = server_env(REDIS_URL=f"redis://127.0.0.1:{port}/0", REALTIME_HEARTBEAT_SECONDS="0.5")
    server = Server(env).start()
    match = new_match(alice, bob)
    cookies = session_cookie(alice), session_cookie(bob)
    try:

        async def scenario():
            nonlocal redis
            a = await Player("alice", cookies[0]).connect(server, match.pk)
            b = await Player("bob", cookies[1]).connect(server, match.pk)
            await play_moves([a, b], 2)
            redis.kill()
            redis.wait()
            mover, watcher = (a, b) if a.my_turn else (b, a)
            action = __import__("re").findall(r'name="action" value="([^"]+)"', mover.board)[0]
            status = await asyncio.to_thread(
                post_move, server, mover.cookie, match.pk, action, mover.version
            )
            assert status == 200  # saved and answered while the layer is down
            redis = subprocess.Popen(redis_args, stdout=subprocess.DEVNULL)
            # The watcher's socket stayed open through the outage and catches up by itself.
            await watcher.wait_for(mover.version + 1, timeout=15)
            assert watcher.version == mover.version + 1
            await a.close()
            await b.close()

        asyncio.run(scenario())
    finally:
        server.stop()
        redis.kill()
    moves_are_whole(match)
