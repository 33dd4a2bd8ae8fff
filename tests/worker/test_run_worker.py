"""The task worker's own duties, besides running tasks: taking back the tasks of dead workers,
forgetting old results, and giving every clocked match its clock task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from games.management.commands.run_worker import (
    WAKE_CHANNEL,
    Wakeup,
    Worker,
    prune_finished,
    queue_again,
    requeue_orphans,
)
from games.models import Match, MatchStatus, WorkerBeat
from games.tasks import challenge_lapse, computer_move
from tests.support.matches import start
from tests.support.servers import Worker as WorkerProcess
from tests.support.servers import server_env
from tests.support.tasks import queued, run_due_tasks

postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL's notices: runs in CI's DATABASE_URL pass (SQLite's workers look)",
)

pytestmark = pytest.mark.django_db


def taken(worker_id: str, seconds_ago: float) -> DBTaskResult:
    """A computer_move task that ``worker_id`` took ``seconds_ago``."""
    result = computer_move.enqueue(1, 1)
    row = DBTaskResult.objects.get(pk=result.id)
    row.claim(worker_id)
    DBTaskResult.objects.filter(pk=row.pk).update(
        started_at=timezone.now() - timedelta(seconds=seconds_ago)
    )
    return row


def in_this_process(worker_id: str) -> Worker:
    """The worker ``run_worker --batch`` builds, with this id, to call its steps directly."""
    return Worker(
        queue_names=["*"], excluded_queue_names=[], interval=0, batch=True,
        backend_name="default", startup_delay=False, max_tasks=None, worker_id=worker_id,
    )  # fmt: skip


def test_the_tasks_of_a_silent_worker_are_queued_again_and_a_live_ones_are_not():
    now = timezone.now()
    WorkerBeat.objects.create(worker_id="live", host="h", pid=1, seen_at=now)
    WorkerBeat.objects.create(worker_id="dead", host="h", pid=2, seen_at=now - timedelta(minutes=1))
    of_the_dead = taken("dead", seconds_ago=30)
    of_the_living = taken("live", seconds_ago=30)
    just_taken = taken("new-worker-without-a-beat-yet", seconds_ago=1)
    assert requeue_orphans() == 1
    status = dict(DBTaskResult.objects.values_list("pk", "status"))
    assert status[of_the_dead.pk] == TaskResultStatus.READY
    assert status[of_the_living.pk] == status[just_taken.pk] == TaskResultStatus.RUNNING
    assert requeue_orphans() == 0


def test_finished_tasks_are_forgotten_after_a_day():
    old, recent = computer_move.enqueue(1, 1), computer_move.enqueue(1, 2)
    for result, hours in ((old, 25), (recent, 23)):
        DBTaskResult.objects.filter(pk=result.id).update(
            status=TaskResultStatus.SUCCESSFUL, finished_at=timezone.now() - timedelta(hours=hours)
        )
    waiting = computer_move.enqueue(1, 3)
    assert prune_finished() == 1
    left = {str(pk) for pk in DBTaskResult.objects.values_list("pk", flat=True)}
    assert left == {recent.id, waiting.id}


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
def test_a_starting_worker_gives_a_clocked_match_without_a_clock_task_its_task(alice, bob):
    match = start(alice, bob)
    # As a match from before the clocks were tasks: no clock task waits for it.
    DBTaskResult.objects.all().delete()
    Match.objects.filter(pk=match.pk).update(clock_due=None)
    unclocked = start(bob, alice, move_seconds=None)
    run_due_tasks()
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.clock_due == match.deadline
    assert queued("clock_expire") == [(match.pk, match.clock_due.isoformat())]
    assert Match.objects.get(pk=unclocked.pk).clock_due is None


@pytest.mark.django_db(transaction=True)  # as a worker runs: not inside a test's transaction
def test_a_task_whose_row_is_gone_when_it_ends_does_not_stop_the_worker(caplog):
    """django-tasks-db records a task's end by updating its row; with the row deleted while
    the task ran, that update failed and the worker process ended (and with it `make run`)."""
    gone, next_one = computer_move.enqueue(1, 1), computer_move.enqueue(1, 2)
    worker = in_this_process("w")
    row = DBTaskResult.objects.get(pk=gone.id)
    row.claim("w")
    DBTaskResult.objects.filter(pk=row.pk).delete()
    worker.run_task(row)  # no match 1: the task returns False, and its end cannot be saved
    assert "could not record the end of task" in caplog.text
    worker.run_task(DBTaskResult.objects.get(pk=next_one.id))
    assert DBTaskResult.objects.get(pk=next_one.id).status == TaskResultStatus.SUCCESSFUL


@pytest.mark.django_db(transaction=True)
def test_a_worker_back_from_a_lost_database_queues_its_unfinished_task_again():
    """The database went away while the worker ran a task (its work may be lost, its end was
    not recorded): the task is still RUNNING, taken by a worker that is alive. Taking up its
    loop again, the worker queues it again; another worker's task is left alone."""
    worker = in_this_process("w")
    cut_short, elsewhere = taken("w", seconds_ago=0), taken("other", seconds_ago=0)
    assert worker.requeue_own() == 1
    status = dict(DBTaskResult.objects.values_list("pk", "status"))
    assert status[cut_short.pk] == TaskResultStatus.READY
    assert status[elsewhere.pk] == TaskResultStatus.RUNNING


def test_an_idle_worker_looks_again_when_the_next_task_comes_due_not_a_whole_interval_later():
    """A computer's move is due 0.8 s after the player's: a worker that slept its whole 0.2 s
    interval from its last look started it up to 0.2 s late (issue 36)."""
    worker = Worker(
        queue_names=["default"], excluded_queue_names=[], interval=0.2, batch=False,
        backend_name="default", startup_delay=False, max_tasks=None, worker_id="idle",
    )  # fmt: skip
    assert worker.until_next_due(0.2) == 0.2  # nothing waiting: the whole interval
    computer_move.using(run_after=timezone.now() + timedelta(seconds=5)).enqueue(1, 1)
    assert worker.until_next_due(0.2) == 0.2  # due after the interval: no sooner look
    computer_move.using(
        queue_name="analysis", run_after=timezone.now() + timedelta(seconds=0.05)
    ).enqueue(1, 1)
    assert worker.until_next_due(0.2) == 0.2  # another queue's task: not this worker's
    computer_move.using(run_after=timezone.now() + timedelta(seconds=0.08)).enqueue(1, 2)
    assert 0 < worker.until_next_due(0.2) <= 0.08  # the next look is when it comes due
    assert in_this_process("batch").interval == 0  # --interval 0 stays 0


def notices(listening, sentinel: str) -> list[str]:
    """What ``listening`` hears until ``sentinel``, which the test sends itself: the notices of
    every transaction committed before it come first (PostgreSQL sends them in commit order)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [WAKE_CHANNEL, sentinel])
    heard = []
    for notice in listening.notifies(timeout=30):  # a failure guard: the sentinel comes at once
        if notice.payload == sentinel:
            return heard
        heard.append(notice.payload)
    raise AssertionError(f"the sentinel never came back; heard {heard}")


@postgresql
@pytest.mark.django_db(transaction=True)  # a notice is sent as its transaction commits
def test_a_task_queued_again_or_brought_forward_wakes_the_workers_and_one_taken_does_not():
    """Each notice says the task's queue and when it is due (nothing: at once)."""
    wakeup = Wakeup()
    assert wakeup.ready()  # PostgreSQL: it listens
    try:
        result = computer_move.enqueue(1, 1)
        assert notices(wakeup.listening, "after the task was queued") == ["default "]
        row = DBTaskResult.objects.get(pk=result.id)
        row.claim("a worker")  # RUNNING: nothing for the others to wake for
        assert notices(wakeup.listening, "after the task was taken") == []
        assert queue_again([row.pk]) == 1  # its worker died: READY again
        assert notices(wakeup.listening, "after the task was queued again") == ["default "]
        due = timezone.now() + timedelta(hours=1)
        later = computer_move.using(run_after=due, queue_name="analysis").enqueue(1, 4)
        [said] = notices(wakeup.listening, "after a task due later was queued")
        queue, when = said.split(" ")
        assert queue == "analysis" and float(when) == pytest.approx(due.timestamp(), abs=1e-3)
        DBTaskResult.objects.filter(pk=later.id).update(run_after=get_date_max())
        assert notices(wakeup.listening, "after it was brought forward") == ["analysis "]
        with transaction.atomic():  # two due at once in one transaction: one notice (the
            computer_move.enqueue(1, 2)  # same words are sent once), and one look finds both
            computer_move.enqueue(1, 3)
        assert notices(wakeup.listening, "after two tasks were queued") == ["default "]
    finally:
        wakeup.close()


@postgresql
def test_a_worker_that_begins_to_listen_looks_once_more_before_it_waits():
    """A task queued after its last look but before it listened sent a notice it never heard."""
    worker = Worker(
        queue_names=["default"], excluded_queue_names=[], interval=0.2, batch=False,
        backend_name="default", startup_delay=False, max_tasks=None, worker_id="new",
    )  # fmt: skip
    try:
        assert worker.interval == 0.0  # a look at once, not a wait
        assert worker.wakeup.listening is not None  # and it listens from now on
    finally:
        worker.wakeup.close()


def test_a_worker_told_not_to_listen_looks_every_interval(settings):
    """Behind a pooler in transaction mode LISTEN hears nothing: WORKER_LISTEN=0."""
    settings.WORKER_LISTEN = False
    worker = Worker(
        queue_names=["default"], excluded_queue_names=[], interval=0.2, batch=False,
        backend_name="default", startup_delay=False, max_tasks=None, worker_id="deaf",
    )  # fmt: skip
    assert not worker.wakeup.ready()
    assert worker.interval == 0.2  # nothing waiting: a look after the whole interval
    assert worker.wakeup.listening is None  # and no connection made to listen on


@postgresql
@pytest.mark.django_db(transaction=True)
def test_an_idle_worker_starts_a_task_as_it_is_queued_not_at_its_next_look():
    """A worker that looks for work every ten minutes still starts a task the moment it is
    queued: PostgreSQL wakes it (on SQLite it looks every --interval, 0.2 s by default)."""
    worker = WorkerProcess(server_env(), interval=600, verbosity=2).start()
    try:
        for number in range(2):  # idle from its start, then idle after a task
            worker.wait_for_line("waiting for a task queued or due, at most 600.00 s")
            result = challenge_lapse.enqueue(10_000 + number)  # no such challenge: done at once
            assert "state=RUNNING" in worker.wait_for_line(f"Task id={result.id} ", timeout=60)
            assert "state=SUCCESSFUL" in worker.wait_for_line(f"Task id={result.id} ")
    finally:
        worker.stop()
