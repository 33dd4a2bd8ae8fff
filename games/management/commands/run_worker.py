"""Run the task worker: django-tasks-db's ``db_worker``, plus a heartbeat that makes it safe to
kill.

django-tasks-db marks a task RUNNING when a worker takes it and nothing puts it back if that
worker dies mid-task. Here every worker writes a heartbeat (``WorkerBeat``) from a thread of
its own, and sweeps: a RUNNING task whose worker has been silent for
``WORKER_DEAD_AFTER_SECONDS`` is queued again. Our tasks do nothing once their moment has
passed, so running one a second time is harmless. The sweep also forgets finished tasks after
``TASK_RESULTS_KEEP_HOURS`` and, once an hour, the guests not seen for ``GUEST_DAYS``
(``services.guests_sweep``) and every other kind of row past its retention
(``services.retention_sweep``), and a worker starting up queues the clock task of any clocked
match that has none (``services.clocks_resume``).

Start any number of workers on any number of machines (they share the queue through the
database): ``python manage.py run_worker``. Options are db_worker's (but ``--reload``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import socket
import threading
import time
from datetime import timedelta

import psycopg
from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
)
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from games import metrics, services
from games.models import WorkerBeat
from games.services import events
from games.services.operations import server_error_record
from games.tasks import request_id_of
from games.tracing import REQUEST_ID

log = logging.getLogger("games.worker")


def beat(worker_id: str, queues: str = "") -> None:
    """This worker is alive (and takes the tasks of ``queues``, for the health page)."""
    WorkerBeat.objects.update_or_create(
        worker_id=worker_id,
        defaults={
            "seen_at": timezone.now(),
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "queues": queues[:200],
        },
    )


def requeue_orphans() -> int:
    """Queue again every RUNNING task whose worker is dead; how many were."""
    dead_after = timedelta(seconds=settings.WORKER_DEAD_AFTER_SECONDS)
    alive = set(
        WorkerBeat.objects.filter(seen_at__gte=timezone.now() - dead_after).values_list(
            "worker_id", flat=True
        )
    )
    # A task taken a moment ago by a worker whose first beat is not in yet is left alone.
    running = DBTaskResult.objects.running().filter(started_at__lt=timezone.now() - dead_after)
    orphans = [
        task.pk
        for task in running.only("pk", "worker_ids")
        if not task.worker_ids or task.worker_ids[-1] not in alive
    ]
    if not orphans:
        return 0
    requeued = queue_again(orphans)
    log.warning("queued again %d task(s) of dead workers", requeued)
    return requeued  # (dead workers' beats: DEAD_WORKER_HOURS, services.retention)


def queue_again(pks: list) -> int:
    """Put these tasks back in the queue, those still RUNNING; how many were."""
    running = DBTaskResult.objects.filter(pk__in=pks, status=TaskResultStatus.RUNNING)
    return running.update(status=TaskResultStatus.READY, started_at=None)


# How often each worker sweeps away old guests: they are counted in days, and the sweep is
# idempotent (two workers sweeping at once remove each guest once).
GUEST_SWEEP_SECONDS = 3600.0


def prune_finished() -> int:
    """Forget finished tasks older than ``TASK_RESULTS_KEEP_HOURS``; how many."""
    keep = timedelta(hours=settings.TASK_RESULTS_KEEP_HOURS)
    old = DBTaskResult.objects.finished().filter(finished_at__lt=timezone.now() - keep)
    return old.delete()[0]


# The channel on which PostgreSQL tells the workers that a task was queued (games/migrations/
# 0045_task_wakeup.py), and how long a worker woken by it waits at most without a look (should a
# notice be missed: the listening connection lost and made again).
WAKE_CHANNEL = "games_tasks"
LONGEST_WAIT_LISTENING = 5.0


class Wakeup:
    """PostgreSQL's notices of tasks queued, on a connection of the worker's own: ``wait``
    returns at the first notice, or when the time it was given has passed."""

    def __init__(self) -> None:
        self.listening = None  # the connection that LISTENs, once made

    def ready(self) -> bool:
        """Whether this worker can be woken (PostgreSQL), making the connection if it has none
        (``Worker.interval`` then looks once more, for a task queued before it listened)."""
        if connection.vendor != "postgresql" or not settings.WORKER_LISTEN:
            return False
        if self.listening is None or self.listening.closed:
            params = connection.get_connection_params()
            for django_only in ("cursor_factory", "context"):
                params.pop(django_only, None)
            try:
                self.listening = psycopg.connect(**params, autocommit=True)
                self.listening.execute(f"LISTEN {WAKE_CHANNEL}")
            except psycopg.Error:
                log.warning("cannot listen for queued tasks: looking instead", exc_info=True)
                self.close()
                return False
        return True

    def wait(self, seconds: float) -> list[tuple[str, float | None]]:
        """The notices that come within ``seconds`` (at least one, unless none came): each task's
        queue and when it is due (seconds since the epoch; None: at once)."""
        try:
            heard = list(self.listening.notifies(timeout=seconds, stop_after=1))
            if heard:  # and the others that came meanwhile
                heard += self.listening.notifies(timeout=0)
        except psycopg.Error:
            log.warning("lost the connection that listens for queued tasks", exc_info=True)
            self.close()
            time.sleep(seconds)
            return []
        tasks = []
        for notice in heard:
            queue, _, due = notice.payload.partition(" ")
            tasks.append((queue, float(due) if due else None))
        return tasks

    def close(self) -> None:
        if self.listening is not None:
            with contextlib.suppress(psycopg.Error):
                self.listening.close()
        self.listening = None


class Worker(db_worker.Worker):
    """db_worker's, which looks for due tasks every ``interval`` seconds when it has none.
    This one waits instead until a task is due: PostgreSQL tells it of each task queued and
    when it is due (``Wakeup``), so that it starts a task due at once at once, and one due later
    (a computer's move, 0.8 s after the player's) on time, with no look in between. Without
    PostgreSQL's notices it looks every ``interval`` seconds, and sooner for a task due sooner."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.wakeup = Wakeup()

    @property
    def interval(self) -> float:
        """What db_worker sleeps when it found no task due. Woken by PostgreSQL, the worker
        waits here (until a notice or the next task due) and db_worker then sleeps nothing;
        otherwise until the next task due, at most the interval it was given."""
        if not self.longest_sleep:
            return 0.0  # (0: db_worker's "no startup delay", and a busy loop if asked for)
        was_listening = self.wakeup.listening is not None
        if self.batch or not self.wakeup.ready():
            return self.until_next_due(self.longest_sleep)
        if not was_listening:  # it listens from now on: one more look, for what came before
            return 0.0
        wait = self.until_next_due(max(self.longest_sleep, LONGEST_WAIT_LISTENING))
        log.debug("waiting for a task queued or due, at most %.2f s", wait)
        wake_at = time.time() + wait  # a task's run_after is of the clock of the one who queued
        while (left := wake_at - time.time()) > 0:
            for queue, due in self.wakeup.wait(left):
                if self.takes(queue):  # due later: no look until then
                    wake_at = min(wake_at, 0.0 if due is None else due)
        return 0.0

    @interval.setter
    def interval(self, value: float) -> None:
        self.longest_sleep = value

    def takes(self, queue: str) -> bool:
        """Whether this worker runs the tasks of ``queue``."""
        if queue in self.excluded_queue_names:
            return False
        return self.process_all_queues or queue in self.queue_names

    def until_next_due(self, longest: float) -> float:
        """Seconds until the next task of this worker's queues comes due, at most ``longest``."""
        now = timezone.now()
        horizon = now + timedelta(seconds=longest)
        soonest = (
            self.waiting.filter(run_after__gt=now, run_after__lt=horizon)
            .order_by("run_after")
            .values_list("run_after", flat=True)
            .first()
        )
        if soonest is None:
            return longest
        return min(longest, max(0.0, (soonest - now).total_seconds()))

    @property
    def waiting(self):
        """The tasks of this worker's queues not yet run, as db_worker's loop selects them."""
        tasks = DBTaskResult.objects.filter(
            status=TaskResultStatus.READY, backend_name=self.backend_name
        )
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        return tasks

    def run(self) -> None:
        beat(self.worker_id, self.queues_taken)  # before the first task: no sweep takes it for dead
        resumed = services.clocks_resume()
        if resumed:
            log.info("queued the clock task of %d match(es) that had none", resumed)
        if self.startup_delay and self.longest_sleep:  # db_worker's, which reads ``interval``
            time.sleep(random.random())  # noqa: S311 (workers started together look apart)
        self.startup_delay = False
        stop = threading.Event()
        if self.batch:  # runs what is due and exits: one sweep first, no heartbeat thread
            requeue_orphans()
            prune_finished()
            self._sweep_guests()
        else:
            threading.Thread(target=self._beat, args=(stop,), daemon=True, name="beat").start()
        try:
            self._run_while_the_database_comes_back()
        finally:
            stop.set()
            self.wakeup.close()
            with contextlib.suppress(DatabaseError):
                WorkerBeat.objects.filter(worker_id=self.worker_id).delete()

    def _run_while_the_database_comes_back(self) -> None:
        """db_worker's loop, taken up again when the database was away (a restart, a dropped
        connection): its loop ended on the first failed query, the worker with it, and under
        `make run` the whole site. The tasks wait in the database meanwhile."""
        while True:
            try:
                self.requeue_own()
                super().run()
                return
            except (OperationalError, InterfaceError):
                if self.batch or not self.running:
                    raise
                log.warning("the database is away: the worker tries again", exc_info=True)
                with contextlib.suppress(DatabaseError):
                    connection.close()
                time.sleep(max(self.longest_sleep, settings.WORKER_BEAT_SECONDS))

    def requeue_own(self) -> int:
        """Queue again the RUNNING tasks taken by this worker: called when it is running none
        (starting, or back after the database was away, which may have cut a task short or
        kept its end from being recorded). Running one again is harmless."""
        running = DBTaskResult.objects.running().only("pk", "worker_ids")
        return queue_again([t.pk for t in running if t.worker_ids[-1:] == [self.worker_id]])

    def run_task(self, db_task_result: DBTaskResult) -> None:
        # db_worker records the task's end by updating its row, and a failure there ended the
        # worker: with its row deleted meanwhile (a test's flush of the database did it), the
        # last worker of `make run` stopped, and with it the whole site. The task has run; if
        # its end could not be recorded, the worker says so and takes the next one. With the
        # database away, the loop above waits for it and then queues the task again.
        # Served under the id of the request that queued it: its log lines carry that id.
        token = REQUEST_ID.set(request_id_of(db_task_result))
        try:
            super().run_task(db_task_result)
            if db_task_result.status == TaskResultStatus.FAILED:
                last = (db_task_result.traceback.strip().splitlines() or [""])[-1]
                server_error_record(
                    kind="task",
                    path=db_task_result.task_path,
                    exception=db_task_result.exception_class_path,
                    message=last.partition(": ")[2],
                )
        except (OperationalError, InterfaceError):
            raise
        except DatabaseError:
            log.warning("could not record the end of task %s", db_task_result.pk, exc_info=True)
        finally:
            REQUEST_ID.reset(token)

    @property
    def queues_taken(self) -> str:
        """The queues this worker takes tasks from, as the health page shows them."""
        taken = "*" if self.process_all_queues else ",".join(self.queue_names)
        if self.excluded_queue_names:
            taken += " but " + ",".join(self.excluded_queue_names)
        return taken

    def _sweep_guests(self) -> None:
        """The guests not seen for ``GUEST_DAYS``, and every row past its retention, swept
        at most once an hour."""
        now = time.monotonic()
        if now < getattr(self, "guests_swept_at", -GUEST_SWEEP_SECONDS) + GUEST_SWEEP_SECONDS:
            return
        self.guests_swept_at = now
        swept = services.guests_sweep()
        if swept:
            log.info("swept %d guest(s) not seen for %d days", swept, settings.GUEST_DAYS)
        services.leaving_sweep()  # data files past their day, names free again
        swept = services.retention_sweep()  # every other kind of row past its time
        counts = ", ".join(f"{kind} {count}" for kind, count in swept.items()) or "nothing"
        log.info("retention sweep: %s", counts)

    def _beat(self, stop: threading.Event) -> None:
        while not stop.wait(settings.WORKER_BEAT_SECONDS):
            try:
                beat(self.worker_id, self.queues_taken)
                metrics.pool_seen(getattr(connection, "pool", None))  # its counters: no query
                requeue_orphans()
                prune_finished()
                self._sweep_guests()
            except Exception:  # the database is away: the next beat tries again
                log.warning("worker heartbeat failed", exc_info=True)
            finally:
                close_old_connections()
        connection.close()


class Command(db_worker.Command):
    help = "Run a task worker (the computer's turns, clocks) with a heartbeat and orphan sweep"

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        # db_worker looks for due tasks every second when idle: a computer's reply would wait
        # up to a second past its delay. Five looks a second cost an indexed query each.
        parser.set_defaults(interval=0.2)

    def handle(self, *, verbosity: int, queue_name: str, exclude_queues: str, **options) -> None:
        self.configure_logging(verbosity)
        if verbosity > 1:  # db_worker's own lines of debug, and this worker's (its waits)
            log.setLevel(logging.DEBUG)
        worker = Worker(
            queue_names=queue_name.split(","),
            excluded_queue_names=exclude_queues.split(",") if exclude_queues else [],
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
        )
        if threading.current_thread() is threading.main_thread():  # (tests run it in a thread)
            worker.configure_signals()
        if settings.PUSH_RELAY_URL and not options["batch"]:  # the embedded defaults
            events.relay_to(settings.PUSH_RELAY_URL)
        worker.run()
