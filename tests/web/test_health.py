"""What an operator reads of the site's health: /healthz for the load balancer (ok, and a 503
naming the failing part, with real failures: a database or a Redis that does not answer), the
errors recorded (no query string), and the admin's health page with a real worker."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.models import ServerError, WorkerBeat
from games.tasks import computer_move
from tests.support.servers import Server, Worker, free_port, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def healthz(server: Server) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_healthz_is_ok_with_the_workers_alive_and_the_oldest_due_tasks_lag(client):
    now = timezone.now()
    WorkerBeat.objects.create(worker_id="a", host="h", pid=1, seen_at=now)
    late = computer_move.using(run_after=now - timedelta(seconds=30)).enqueue(1, 1)
    answer = client.get("/healthz").json()
    assert answer["status"] == "ok" and answer["database"] == answer["channel_layer"] == "ok"
    assert answer["workers"] == 1
    assert 30 <= answer["task_lag_seconds"] < 60
    DBTaskResult.objects.filter(pk=late.id).delete()
    assert client.get("/healthz").json()["task_lag_seconds"] == 0


def test_healthz_names_the_channel_layer_when_redis_does_not_answer():
    closed = free_port()  # nothing listens there
    server = Server(server_env(REDIS_URL=f"redis://127.0.0.1:{closed}/12")).start()
    try:
        status, answer = healthz(server)
    finally:
        server.stop()
    assert status == 503
    assert answer["status"] == "error" and answer["failing"] == ["channel_layer"]
    assert answer["database"] == "ok" and answer["channel_layer"].startswith("error: ")
    assert str(closed) not in json.dumps(answer)  # no address, no message: only its class


def test_healthz_names_the_database_when_it_does_not_answer(tmp_path):
    # A database file in a folder that does not exist: SQLite cannot open it. (PostgreSQL
    # away fails the same way, once the pool has waited its timeout for a connection.)
    env = server_env()
    env.pop("DATABASE_URL", None)
    env["SQLITE_PATH"] = str(tmp_path / "missing" / "db.sqlite3")
    server = Server(env).start()
    try:
        status, answer = healthz(server)
    finally:
        server.stop()
    assert status == 503
    assert answer["failing"] == ["database"] and answer["channel_layer"] == "ok"
    assert answer["database"] == "error: OperationalError"
    assert str(tmp_path) not in json.dumps(answer)


def test_a_server_error_is_recorded_without_its_query_string_and_answered_with_its_id(
    client, settings
):
    settings.ROOT_URLCONF = "tests.support.failing_urls"
    client.raise_request_exception = False
    response = client.get("/boom?token=hunter2", headers={"X-Request-ID": "req-0123456789ab"})
    assert response.status_code == 500
    assert response["X-Request-ID"] == "req-0123456789ab"
    error = ServerError.objects.get()
    assert (error.kind, error.status, error.method, error.path) == ("request", 500, "GET", "/boom")
    assert error.request_id == "req-0123456789ab"
    assert error.exception == "builtins.RuntimeError" and error.message == "the view fell over"
    assert "hunter2" not in str(vars(error))


def test_a_malformed_request_id_is_replaced_by_one_of_the_sites(client):
    response = client.get("/healthz", headers={"X-Request-ID": "bad id\nwith a newline"})
    made = response["X-Request-ID"]
    assert made and "\n" not in made and " " not in made
    assert client.get("/healthz")["X-Request-ID"] != made  # each request its own


def test_the_health_page_shows_a_real_worker_alive_then_dead_the_queues_and_the_errors(
    client, moderator, alice, settings
):
    worker = Worker(server_env()).start()
    try:
        line = worker.wait_for_line("Starting worker worker_id=")
    finally:
        worker.kill()
    worker_id = line.split("worker_id=")[1].split()[0]
    settings.ROOT_URLCONF = "tests.support.failing_urls"
    client.raise_request_exception = False
    client.get("/boom", headers={"X-Request-ID": "req-boom-000001"})
    # It had taken a task when it died.
    row = DBTaskResult.objects.get(pk=computer_move.enqueue(1, 1).id)
    row.claim(worker_id)
    page = moderator.client.get("/admin/health/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Task workers: 1 alive" in html and worker_id in html
    assert "computer_move" in html  # what it is running
    assert 'data-queue="default"' in html and 'data-queue="analysis"' in html
    assert "Errors in the last hour: 1" in html and "req-boom-000001" in html
    assert "/boom" in html
    assert "are off: <code>METRICS_TOKEN</code> is not set" in html
    settings.METRICS_TOKEN = "the-operators-token"
    html = moderator.client.get("/admin/health/").content.decode()
    assert "Prometheus scrapes <code>/metrics</code> with the operator's token" in html
    assert "the-operators-token" not in html
    # Its heartbeat made a minute old: dead.
    WorkerBeat.objects.filter(worker_id=worker_id).update(
        seen_at=timezone.now() - timedelta(minutes=1)
    )
    html = moderator.client.get("/admin/health/").content.decode()
    assert "Task workers: 0 alive" in html and '<span class="dead">dead</span>' in html
    # The admin's index leads there; a player is not let in.
    assert "/admin/health/" in moderator.client.get("/admin/").content.decode()
    alice_client = type(client)()
    alice_client.force_login(alice)
    assert alice_client.get("/admin/health/").status_code == 302  # to the admin's log-in
