"""What an operator reads of the sockets with LOG_FORMAT=json, from a real server's log: a
match page's socket connecting (its kind, under the id its upgrade request carried), each
frame it refused (by the refusal's code, never the frame), the client's disconnect with its
close code; the API's socket refusing frames the same way; and an exception no consumer
handled (the channel layer's Redis away) recorded for the health page."""

from __future__ import annotations

import json
import uuid

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from games.engine import legal_actions
from games.models import ServerError
from tests.support.api import token_for
from tests.support.matches import start
from tests.support.players import session_cookie
from tests.support.servers import Server, free_port, server_env

pytestmark = pytest.mark.django_db(transaction=True)

NEVER = 15  # seconds: a frame or a line lost, where it comes in milliseconds


def frame_with(socket, text: str) -> str:
    while text not in (frame := socket.recv(timeout=NEVER)):
        pass
    return frame


def socket_line(server: Server, request_id: str, message: str) -> dict:
    """The server's next JSON line about a socket under ``request_id`` saying ``message``."""
    while True:
        line = json.loads(server.wait_for_line(request_id))
        if line["message"] == message:
            assert line["logger"] == "games.sockets" and line["event"] == "socket"
            return line


def test_a_match_sockets_connect_refused_frame_and_disconnect_are_logged_under_its_id(alice, bob):
    match = start(alice, bob, move_seconds=None)
    server = Server(server_env(LOG_FORMAT="json")).start()
    request_id = "ws-" + uuid.uuid4().hex
    path = f"/ws/matches/{match.pk}/"
    try:
        headers = {"Cookie": session_cookie(alice), "Origin": server.url}
        with connect(
            server.ws_url + path, additional_headers={**headers, "X-Request-ID": request_id}
        ) as socket:
            frame_with(socket, 'id="board"')
            connected = socket_line(server, request_id, "socket connected")
            assert (connected["kind"], connected["path"]) == ("match", path)
            assert connected["level"] == "INFO"

            socket.send("{not a move")
            assert "That move could not be read" in frame_with(socket, "data-error")
            refused = socket_line(server, request_id, "frame refused")
            assert (refused["path"], refused["refused"]) == (path, "unreadable")
            assert "not a move" not in json.dumps(refused)  # never the frame itself

            socket.close(code=1001)  # the browser left the page
        gone = socket_line(server, request_id, "socket disconnected")
        assert (gone["kind"], gone["path"], gone["code"]) == ("match", path, 1001)
        assert gone["seconds"] >= 0
    finally:
        server.stop()


def test_the_api_socket_logs_each_frame_it_refuses_by_the_code_it_answered(alice, bob):
    match = start(alice, bob, move_seconds=None)
    mover = match.players[match.state.turn]
    server = Server(server_env(LOG_FORMAT="json")).start()
    request_id = "api-" + uuid.uuid4().hex
    path = f"/api/v1/ws/matches/{match.pk}"
    try:
        headers = {"Authorization": f"Bearer {token_for(mover)}", "X-Request-ID": request_id}
        with connect(server.ws_url + path, additional_headers=headers) as socket:
            assert json.loads(frame_with(socket, '"type":"state"'))["version"] == match.version
            connected = socket_line(server, request_id, "socket connected")
            assert (connected["kind"], connected["path"]) == ("stream", path)
            late = {"action": str(legal_actions(match.state)[0]), "version": match.version - 1}
            answers = []
            for sent in ("{not a move", json.dumps(late)):
                socket.send(sent)
                answers.append(json.loads(frame_with(socket, '"type": "error"'))["code"])
            assert answers == ["unreadable", "stale"]
            logged = [socket_line(server, request_id, "frame refused") for _ in answers]
            assert [line["refused"] for line in logged] == answers
            assert {line["path"] for line in logged} == {path}
    finally:
        server.stop()


def test_a_socket_whose_channel_layer_does_not_answer_is_recorded_as_a_server_error():
    # A real failure no consumer handles: a socket's channel is made in the channel layer
    # before its consumer runs, and the layer's Redis does not answer (nothing listens there).
    closed = free_port()
    server = Server(server_env(REDIS_URL=f"redis://127.0.0.1:{closed}/12")).start()
    request_id = "health-" + uuid.uuid4().hex
    headers = {"Origin": server.url, "X-Request-ID": request_id}
    try:
        with pytest.raises(InvalidStatus) as refused:
            connect(server.ws_url + "/ws/health/", additional_headers=headers)
    finally:
        server.stop()
    assert refused.value.response.status_code == 500  # the upgrade failed, as daphne says it
    error = ServerError.objects.get()
    assert (error.kind, error.path, error.request_id) == ("socket", "/ws/health/", request_id)
    assert error.exception == "redis.exceptions.ConnectionError" and error.status is None
