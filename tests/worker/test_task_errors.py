"""A task that fails in a real worker is recorded for the health page's "errors in the last
hour" (a ``ServerError`` of kind task: the task's path, the exception, the id of the request
that queued it), and said in the worker's JSON log under that id; the worker goes on."""

from __future__ import annotations

import json
import uuid

import pytest

from games.models import ServerError
from games.tasks import challenge_lapse, clock_expire
from games.tracing import REQUEST_ID
from tests.support.servers import Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_task_that_fails_in_the_worker_is_recorded_under_the_id_that_queued_it():
    request_id = "req-" + uuid.uuid4().hex
    token = REQUEST_ID.set(request_id)  # queued as a request being served queues it
    try:
        failing = clock_expire.enqueue(1, "not a time")  # its due time cannot be read
    finally:
        REQUEST_ID.reset(token)
    worker = Worker(server_env(LOG_FORMAT="json")).start()
    try:
        line = json.loads(worker.wait_for_line(f"id={failing.id} path="))  # its start
        while line["message"].endswith("state=RUNNING"):
            line = json.loads(worker.wait_for_line(f"id={failing.id} path="))
        assert line["message"].endswith("state=FAILED") and line["level"] == "ERROR"
        assert line["request_id"] == request_id and line["exception"] == "ValueError"
        # A task queued after it ran is taken once the failure is recorded: its end says so.
        after = challenge_lapse.enqueue(0)
        worker.wait_for_line(f"id={after.id} path=games.tasks.challenge_lapse state=SUCCESSFUL")
    finally:
        worker.stop()
    error = ServerError.objects.get()
    assert (error.kind, error.path) == ("task", "games.tasks.clock_expire")
    assert (error.request_id, error.status) == (request_id, None)
    assert error.exception == "builtins.ValueError"
    assert "not a time" in error.message
