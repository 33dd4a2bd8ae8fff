"""The match page's socket in Chromium, served by docs/OPERATING.md's web process as it is
written (uvicorn with the site's websocket protocol): Chromium takes the site's compression
window (permessage-deflate, a 16 KB window for what the server sends), and both players
play over it, each move pushed to the other's page."""

from __future__ import annotations

import pytest

from euchre_site import wsprotocol
from tests.support.browser import act_in_turn
from tests.support.matches import start
from tests.support.servers import Uvicorn, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def test_chromium_takes_the_compression_window_and_plays_over_it(
    new_page, alice, bob, django_db_blocker
):
    match = start(alice, bob, seed=11)
    with django_db_blocker.unblock():
        server = Uvicorn(server_env(MOVE_LIMIT_PER_10_SECONDS="1000")).start()
    try:
        pages, opened, agreed = {}, {}, {}
        for user in (alice, bob):
            page = new_page(logged_in=user)
            # Each socket the page opens, and the handshake's answer as Chromium received it
            # (Chromium fails the socket if it cannot take what the server agreed to).
            devtools = page.context.new_cdp_session(page)
            devtools.send("Network.enable")
            devtools.on(
                "Network.webSocketCreated", lambda e: opened.update({e["requestId"]: e["url"]})
            )
            devtools.on(
                "Network.webSocketHandshakeResponseReceived",
                lambda e: agreed.update({e["requestId"]: e["response"]}),
            )
            page.goto(f"{server.url}/matches/{match.pk}/")
            pages[user.username] = page
        for _ in range(4):  # each move made over the mover's socket, pushed to the other's
            act_in_turn(pages, match.pk)
        path = f"/ws/matches/{match.pk}/"
        assert sum(path in url for url in opened.values()) == 2
        assert agreed.keys() == opened.keys()  # every socket of the pages (the match's, /ws/me/...)
        for response in agreed.values():
            assert response["status"] == 101
            headers = {name.lower(): value for name, value in response["headers"].items()}
            extensions = headers["sec-websocket-extensions"]
            assert "permessage-deflate" in extensions
            assert f"server_max_window_bits={wsprotocol.SERVER_WINDOW_BITS}" in extensions
    finally:
        for page in pages.values():
            page.close()  # its socket closed, and its row gone, before the server stops
        server.stop()
