"""Following a request by its id with LOG_FORMAT=json: the server's one line for the request
(parsed), the id echoed in the answer, and the real worker's lines for the task that request
queued carrying the same id."""

from __future__ import annotations

import json
import urllib.request
import uuid

import pytest
from django_tasks_db.models import DBTaskResult

from games import services
from tests.support.players import ACTION, VERSION, session_cookie
from tests.support.servers import Server, Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def post_first_action(server, cookie: str, match_id: int, request_id: str) -> tuple[int, str]:
    """The first action the match page offers, posted as the page's form posts it, under
    ``request_id``; the answer's status and the id it echoed."""
    get = urllib.request.Request(f"{server.url}/matches/{match_id}/", headers={"Cookie": cookie})
    with urllib.request.urlopen(get, timeout=10) as response:
        set_cookies = response.headers.get_all("Set-Cookie")
        html = response.read().decode()
    csrf = next(c.split(";")[0].split("=", 1)[1] for c in set_cookies if "csrftoken=" in c)
    action, version = ACTION.findall(html)[0], VERSION.search(html).group(1)
    post = urllib.request.Request(
        f"{server.url}/matches/{match_id}/act?from=test",
        data=f"action={action}&version={version}".encode(),
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf}", "X-CSRFToken": csrf, "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded", "X-Request-ID": request_id,
        },
    )  # fmt: skip
    with urllib.request.urlopen(post, timeout=10) as response:
        return response.status, response.headers["X-Request-ID"]


def test_a_requests_id_is_logged_echoed_and_carried_into_the_workers_lines(alice, capfd):
    env = server_env(LOG_FORMAT="json", COMPUTER_MOVE_DELAY_SECONDS="0")
    server = Server(env).start()
    worker = Worker(env, server).start()
    try:
        match = services.match_create_computer(user=alice, strength="easy")
        cookie = session_cookie(alice)
        # The player moves until a move of theirs leaves the computer to act: that request
        # queued the computer's move.
        for _ in range(4):
            match.refresh_from_db()
            if match.state.turn != 0:  # the computer's turn: the worker plays it
                worker.wait_for_line("state=SUCCESSFUL")
                continue
            request_id = "test-" + uuid.uuid4().hex
            status, echoed = post_first_action(server, cookie, match.pk, request_id)
            assert (status, echoed) == (200, request_id)
            queued = DBTaskResult.objects.filter(args_kwargs__request_id=request_id)
            if queued.filter(task_path__endswith=".computer_move").exists():
                break
        else:
            pytest.fail("no move of the player's left the computer to act")
        line = json.loads(worker.wait_for_line(request_id))
        assert line["request_id"] == request_id and line["level"] == "INFO"
        assert "path=games.tasks.computer_move state=" in line["message"]
    finally:
        worker.stop()
        server.stop()
    logged = [json.loads(text) for text in capfd.readouterr().err.splitlines() if "{" in text[:1]]
    [request] = [line for line in logged if line.get("request_id") == request_id]
    assert request["event"] == "request" and request["logger"] == "games.requests"
    assert (request["method"], request["path"], request["status"]) == (
        "POST",
        f"/matches/{match.pk}/act",
        200,
    )  # its path without the query string
    assert request["user_id"] == alice.pk and request["duration_ms"] > 0
    assert "from=test" not in json.dumps(logged)
