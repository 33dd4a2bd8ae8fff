"""nginx in front of several web processes, with the site's own config (deploy/nginx.conf):
every request about one match reaches one process, the rest are spread, a process that is
down has its matches served by another, and a whole match is played through it."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from games import services
from tests.support.environment import missing
from tests.support.players import Player, play_moves, session_cookie
from tests.support.servers import Front, Server, nginx, server_env

# Every path about match <id> that the config routes by the match: the page's socket, the
# API's socket and stream, the match's page, board and move posts (the page's and the API's).
MATCH_PATHS = (
    "/ws/matches/{id}/",
    "/api/v1/ws/matches/{id}",
    "/api/v1/stream/matches/{id}",
    "/matches/{id}/",
    "/matches/{id}/board",
    "/matches/{id}/act",
    "/api/v1/matches/{id}/move",
)


@pytest.fixture
def front_needed():
    if nginx() is None:
        missing("nginx (Debian's nginx-light)")


class Named(ThreadingHTTPServer):
    """A stand-in web process: it answers every request with its own name, or with what
    ``answer`` makes of the request."""

    def __init__(self, name: str, answer: Callable[[BaseHTTPRequestHandler], str] | None = None):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                body = (answer(self) if answer else name).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


def answered_by(front: Front, path: str) -> str:
    with urllib.request.urlopen(front.url + path, timeout=5) as response:
        return response.read().decode()


def test_every_request_about_a_match_reaches_one_process_and_the_rest_are_spread(front_needed):
    processes = [Named("first"), Named("second")]
    front = Front([p.port for p in processes]).start()
    try:
        chosen = {}
        for match_id in range(1, 41):
            seen = {answered_by(front, path.format(id=match_id)) for path in MATCH_PATHS * 2}
            assert len(seen) == 1, f"match {match_id}'s requests went to {seen}"
            chosen[match_id] = seen.pop()
        assert set(chosen.values()) == {"first", "second"}  # the matches are shared out
        elsewhere = Counter(answered_by(front, "/lobby/") for _ in range(40))
        assert set(elsewhere) == {"first", "second"}

        # One process goes away: its matches are served by the other.
        gone = processes[0]
        gone.shutdown()
        gone.server_close()
        for match_id in range(1, 41):
            assert answered_by(front, f"/ws/matches/{match_id}/") == "second"
    finally:
        front.stop()
        for process in processes:  # shutting one down twice does nothing
            process.shutdown()
            process.server_close()


@pytest.mark.django_db(transaction=True)
def test_a_match_is_played_over_sockets_through_the_front(front_needed, alice, bob):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    cookies = session_cookie(alice), session_cookie(bob)
    with ThreadPoolExecutor(2) as starting:  # both at once: each takes a second or two
        servers = list(starting.map(Server.start, [Server(server_env()), Server(server_env())]))
    front = Front([s.port for s in servers]).start()
    try:

        async def scenario() -> int:
            # The upgrade, the Host the origin check compares, the cookie: all passed on.
            a = await Player("alice", cookies[0]).connect(front, match.pk)
            b = await Player("bob", cookies[1]).connect(front, match.pk)
            version = await play_moves([a, b], 6)  # each move pushed to the other player
            await a.close()
            await b.close()
            return version

        assert asyncio.run(scenario()) == 7
    finally:
        front.stop()
        for server in servers:
            server.stop()
    match.refresh_from_db()
    assert match.moves.count() == 6


def test_a_flood_of_api_streams_with_one_token_is_refused_by_the_front_in_words(front_needed):
    """Ten streams at once per token, then one a second: past that the front answers 429 with
    Retry-After and the site's own words for a rate limit, in the caller's language, without
    the request reaching a web process. Other tokens, and everything else, are let through."""
    from django.utils import translation

    from games.errors import Throttled
    from games.presentation import refusals

    process = Named("site")
    front = Front([process.port]).start()

    def get(path: str, token: str | None, language: str = "en") -> tuple[int, dict, bytes]:
        headers = {"Accept-Language": language}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(front.url + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as refused:
            return refused.code, dict(refused.headers), refused.read()

    try:
        answers = [get("/api/v1/stream/matches/7", "flood")[0] for _ in range(30)]
        assert answers[:10] == [200] * 10  # the burst, answered by the process
        assert answers.count(429) >= 18  # the rest (one more may come as a second passes)
        assert get("/api/v1/ws/account", "flood")[0] == 429  # both kinds of stream
        assert get("/api/v1/stream/account", "another")[0] == 200  # each token its own
        assert get("/api/v1/matches/7", "flood")[0] == 200  # other API requests: the site's
        assert all(get("/api/v1/stream/account", None)[0] == 200 for _ in range(20))
        for language in ("en", "my", "ht", "th", "so", "am"):
            status, headers, body = get("/api/v1/stream/account", "flood", f"{language}-XX,en")
            with translation.override(language):
                words = refusals.words(Throttled(retry_after=1))
            assert status == 429
            assert headers["Retry-After"] == "1"
            assert headers["Content-Type"].startswith("application/json")
            assert json.loads(body) == {"code": "too_many", "detail": words, "retry_after": 1}
    finally:
        front.stop()
        process.shutdown()
        process.server_close()


def token_headers(request: BaseHTTPRequestHandler) -> str:
    """The headers that carry a token, as the web process received them."""
    names = ("authorization", "sec-websocket-protocol")
    return json.dumps({name: request.headers.get_all(name) or [] for name in names})


def stream_opened(front: Front, headers: list[tuple[str, str]]) -> tuple[int, bytes]:
    """A stream's request with these header lines (a name may come twice), and its answer."""
    connection = http.client.HTTPConnection("127.0.0.1", front.port, timeout=5)
    try:
        connection.putrequest("GET", "/api/v1/stream/matches/7")
        for name, value in headers:
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


# One token as a program might send it: the scheme in any case, spaces or a tab after it,
# something after the token, or offered among other subprotocols in any order. Each request
# is spelt unlike any other ({n}: its number).
SPELLINGS = [
    ("Authorization", "Bearer flood"),
    ("Authorization", "bearer{spaces}flood"),
    ("Authorization", "BEARER\t{spaces}flood"),
    ("Authorization", "Bearer flood made-up-{n}"),
    ("Sec-WebSocket-Protocol", "made-up-{n}, euchre.token.flood, euchre.v1"),
    ("Sec-WebSocket-Protocol", "euchre.token.flood,made-up-{n}"),
    ("Sec-WebSocket-Protocol", "euchre.v1 ,\t{spaces}euchre.token.flood"),
]


def test_every_spelling_of_a_token_counts_against_its_one_stream_limit(front_needed):
    """The front limits streams by the token itself, however its header spells it: as many
    open as with one spelling (the site refuses those not spelt exactly, tests/api/
    test_bearer_header.py), the rest are refused."""
    site = Named("site")
    front = Front([site.port]).start()
    try:
        answers = []
        for n in range(30):
            name, value = SPELLINGS[n % len(SPELLINGS)]
            spelt = value.format(n=n, spaces=" " * (n + 1))
            answers.append(stream_opened(front, [(name, spelt)])[0])
        assert answers[:10] == [200] * 10  # the burst
        assert answers.count(429) >= 18  # the rest (one more may come as a second passes)
        assert stream_opened(front, [("Authorization", "Bearer another")])[0] == 200
        offered = ("Sec-WebSocket-Protocol", "made-up, euchre.token.yet-another")
        assert stream_opened(front, [offered])[0] == 200
    finally:
        front.stop()
        site.shutdown()
        site.server_close()


def test_a_second_subprotocol_line_reaches_the_site_only_as_the_front_counted_it(front_needed):
    """Subprotocols offered on two header lines: the site is sent the one line the front
    limited the request by, so a token on a line the front did not read never reaches it."""
    site = Named("site", answer=token_headers)
    front = Front([site.port]).start()
    try:
        seen = []
        for n in range(30):
            lines = [("Sec-WebSocket-Protocol", f"made-up-{n}")]
            lines.append(("Sec-WebSocket-Protocol", "euchre.v1, euchre.token.flood"))
            status, body = stream_opened(front, lines)
            if status == 200:
                seen.append(json.loads(body)["sec-websocket-protocol"])
        assert all(len(lines) == 1 for lines in seen)
        with_token = [lines for lines in seen if "euchre.token.flood" in lines[0]]
        assert len(with_token) <= 12  # the burst, one more as a second passes
    finally:
        front.stop()
        site.shutdown()
        site.server_close()
