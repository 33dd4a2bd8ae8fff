"""The operator's metrics (``/metrics``): refused without the operator's token, and, scraped
while matches are played across web processes and a task worker, counting the moves by the
way they came in, the pushes' latencies and the sockets open, added up across the processes
(prometheus-client's multiprocess mode, one directory for them all)."""

from __future__ import annotations

import asyncio
import os

import pytest
from django.test import override_settings

from games import services
from tests.support.metrics import METRICS_TOKEN, scrape, scraped_until, value
from tests.support.players import Player, moves_are_whole, play_moves, post_move, session_cookie
from tests.support.servers import Server, Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = "euchre_moves_total"
PUSHES = "euchre_push_seconds_count"
SOCKETS = "euchre_sockets_open"


@override_settings(METRICS_TOKEN="")
def test_the_address_is_off_without_a_token_configured(client):
    answer = client.get("/metrics", HTTP_AUTHORIZATION="Bearer anything")
    assert answer.status_code == 404
    assert b"METRICS_TOKEN" in answer.content


@override_settings(METRICS_TOKEN=METRICS_TOKEN)
def test_the_address_is_refused_without_its_token_and_with_a_wrong_one(client):
    missing = client.get("/metrics")
    assert missing.status_code == 401
    assert b"metrics token" in missing.content
    assert missing["WWW-Authenticate"].startswith("Bearer")
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")
    assert wrong.status_code == 403
    assert b"not this site's metrics token" in wrong.content
    right = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {METRICS_TOKEN}")
    assert right.status_code == 200
    text = right.content.decode()
    assert right["Content-Type"].startswith("text/plain; version=")
    for name in ("euchre_moves_total", "euchre_tasks_due", "euchre_tasks_lag_seconds",
                 "euchre_workers_alive", "euchre_push_seconds"):  # fmt: skip
        assert f"# TYPE {name} " in text


def test_a_scrape_counts_moves_pushes_and_sockets_across_servers_and_a_worker(
    alice, bob, carol, tmp_path
):
    """Two web processes (one with the embedded defaults: their in-memory layer joins no two)
    and a task worker write into one directory; either process scraped adds them all up."""
    both = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    env = server_env(
        METRICS_TOKEN=METRICS_TOKEN, PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
        COMPUTER_MOVE_DELAY_SECONDS="0.05",
    )  # fmt: skip
    first = Server(env).start()
    second = Server(env).start() if both else first
    worker = Worker(env, server=None if both else first).start()
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    computer = services.match_create_computer(user=carol, strength="easy")
    cookies = session_cookie(alice), session_cookie(bob), session_cookie(carol)
    try:
        assert scrape(first, token=None)[0] == 401
        assert scrape(second, token="not-the-token")[0] == 403

        async def scenario():
            a = await Player("alice", cookies[0]).connect(first, match.pk)
            b = await Player("bob", cookies[1]).connect(second, match.pk)
            found = scraped_until(first, lambda m: value(m, SOCKETS, kind="match_player") == 2)
            pushed = value(found, PUSHES, viewer="player")

            await play_moves([a, b], 4)  # over the sockets, each seen by the other's server
            found = scraped_until(second, lambda m: (
                value(m, MOVES, way="page_socket") == 4
                and value(m, PUSHES, viewer="player") >= pushed + 4
            ))  # fmt: skip
            assert value(found, "euchre_http_responses_total", status="4xx") >= 2  # refusals

            made = await asyncio.to_thread(post_move, second, cookies[0], match.pk)
            made = made or await asyncio.to_thread(post_move, second, cookies[1], match.pk)
            await a.wait_for(made)
            await b.wait_for(made)
            scraped_until(first, lambda m: value(m, MOVES, way="page_form") == 1)

            await b.close()
            scraped_until(first, lambda m: value(m, SOCKETS, kind="match_player") == 1)

            # Against the computer: the worker moves, and the player's server pushes it.
            c = await Player("carol", cookies[2]).connect(first, computer.pk)
            found = scraped_until(second, lambda m: value(m, SOCKETS, kind="match_player") == 2)
            pushed = value(found, PUSHES, viewer="player")
            mine = theirs = 0
            while not (mine and theirs):
                target = c.version + 1
                if c.my_turn:
                    await c.act()
                    mine += 1
                else:
                    theirs += 1
                await c.wait_for(target, timeout=20)
            found = scraped_until(second, lambda m: (
                value(m, MOVES, way="computer") >= theirs
                and value(m, MOVES, way="page_socket") == 4 + mine
                and value(m, PUSHES, viewer="player") >= pushed + theirs
            ))  # fmt: skip
            assert value(found, "euchre_workers_alive") >= 1
            assert value(found, "euchre_tasks_lag_seconds", queue="default") >= 0
            await a.close()
            await c.close()
            scraped_until(second, lambda m: value(m, SOCKETS, kind="match_player") == 0)

        asyncio.run(scenario())
    finally:
        worker.stop()
        first.stop()
        second.stop()
    moves_are_whole(match)
