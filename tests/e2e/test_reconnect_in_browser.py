"""The page says when it is offline, reconnects by itself and catches up on what it missed."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import services
from games.engine import legal_actions
from games.models import Match
from tests.support.servers import Server, free_port, server_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.engines]


def test_a_dropped_connection_shows_offline_then_reconnects_and_resynchronises(
    alice, bob, new_page
):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    port = free_port()
    restarted = None
    server = Server(server_env(), port=port).start()
    try:
        page = new_page(logged_in=alice)
        page.goto(f"{server.url}/matches/{match.pk}/")
        page.wait_for_selector("#board[data-version='1']")
        page.evaluate("window.sameDocument = true")

        server.kill()
        page.wait_for_selector("#live-status:not([hidden])")
        assert "Offline" in page.locator("#live-status").inner_text()

        # While alice is offline, a move is made (bob, or alice's own turn through the service).
        state = Match.objects.get(pk=match.pk).state

        def move_while_offline():
            try:
                services.move_apply(
                    user=match.players[state.turn], match_id=match.pk,
                    action=str(legal_actions(state)[0]), version=1,
                )  # fmt: skip
            finally:
                connection.close()  # this thread's connection, back before teardown

        with ThreadPoolExecutor(1) as pool:  # off the thread where Playwright runs its loop
            pool.submit(move_while_offline).result()

        # The killed server's process has exited (``kill`` waits for it): its port is free
        # to listen on again (daphne's listening socket is made with SO_REUSEADDR).
        restarted = Server(server_env(), port=port).start()
        # The board catches up on connect (or by the page's timed poll, while the socket's
        # reconnect is still backing off); "Offline" goes when the socket is back. The
        # timeouts are failure guards: the backoff grows to seconds after a few failures.
        page.wait_for_selector("#board[data-version='2']", timeout=30_000)
        page.wait_for_selector("#live-status[hidden]", state="attached", timeout=30_000)
        assert page.evaluate("window.sameDocument")
    finally:
        server.stop()
        if restarted is not None:  # a failed step must not leave it serving the test database
            restarted.stop()
