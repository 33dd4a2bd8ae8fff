"""Real task workers: what happens because time passed survives a killed web server and a
killed worker, happens once with two workers, and needs no page open and no cron."""

from __future__ import annotations

import random
import re
import signal
from datetime import timedelta

import pytest
from django.db import OperationalError, connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.engine import legal_actions
from games.models import EndReason, Match, MatchStatus, Move
from games.tasks import clock_expire, computer_move
from tests.support.matches import both_acted, start
from tests.support.players import moves_are_whole, post_move, session_cookie
from tests.support.servers import Server, Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def reread(match: Match) -> Match:
    return Match.objects.select_related("player0", "player1").get(pk=match.pk)


FINISHED = re.compile(r"Task id=(\S+) path=\S+ state=(?:SUCCESSFUL|FAILED)")


def finished(worker: Worker, task=computer_move, timeout: float = 15) -> str:
    """The id of the next ``task`` the worker says it has finished (its log line comes once
    the task's writes and its own row are committed)."""
    while True:
        line = worker.wait_for_line(f"path={task.module_path} state=", timeout)
        if said := FINISHED.search(line):
            return said[1]


def reread_until(worker: Worker, match: Match, ready, task=computer_move, timeout=15) -> Match:
    """The match once ``ready``: read again each time the worker has finished a ``task``."""
    while not ready(match := reread(match)):
        finished(worker, task, timeout)
    return match


def computer_moves_all_run(worker: Worker) -> None:
    """Every computer move queued has run: none is left to land a second move for a version
    (the proof of "exactly once", where waiting a while would only make it likely). Those
    queued now are each seen finished in the worker's log (one finished before this read is
    not queued), then those they queued in turn."""
    left = DBTaskResult.objects.filter(
        task_path=computer_move.module_path,
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
    )
    while queued := {str(pk) for pk in left.values_list("pk", flat=True)}:
        while queued:
            queued.discard(finished(worker))


def humans_turn(alice, strength: str = "medium") -> Match:
    """A match against the computer, with the computer's opening moves (if it acts first)
    made by a worker, so that it is the person's turn."""
    match = services.match_create_computer(user=alice, strength=strength)
    if match.state.turn == 1:
        worker = Worker(server_env()).start()
        try:
            match = reread_until(worker, match, lambda m: m.state.turn == 0)
        finally:
            worker.stop()
    return match


def computer_moves(match: Match) -> list[int]:
    return list(Move.objects.filter(match=match, seat=1).values_list("seq", flat=True))


def test_a_server_killed_right_after_a_move_leaves_the_computers_answer_to_a_worker(alice):
    match = humans_turn(alice)
    env = server_env(COMPUTER_MOVE_DELAY_SECONDS="0.2")
    server = Server(env).start()
    try:
        while reread(match).state.turn == 0:  # as a player would, until the computer is to act
            made = post_move(server, session_cookie(alice), match.pk)
        server.kill()  # SIGKILL: no chance to run anything after the answer
    finally:
        server.stop()
    assert reread(match).version == made and reread(match).state.turn == 1
    restarted = Server(env).start()  # and nobody opens a page
    worker = Worker(env).start()
    try:
        answered = reread_until(worker, match, lambda m: m.state.turn == 0 or m.is_over)
        computer_moves_all_run(worker)
    finally:
        worker.stop()
        restarted.stop()
    assert made in computer_moves(answered)  # the computer answered the move the server took
    assert reread(match).version == answered.version
    moves_are_whole(match)


def test_a_worker_killed_mid_task_leaves_the_task_to_another_worker(alice, settings):
    settings.COMPUTER_MOVE_DELAY = 0.1
    match = humans_turn(alice, strength="hard")
    rng = random.Random(5)
    worker = Worker(server_env()).start()
    try:
        for _attempt in range(10):  # until the worker is caught with a task under way
            match = reread(match)
            match = services.move_apply(
                user=alice, match_id=match.pk,
                action=str(rng.choice(legal_actions(match.state))), version=match.version,
            ).match  # fmt: skip
            if match.state.turn != 1:
                continue
            worker.wait_for_line("state=RUNNING")
            worker.process.send_signal(signal.SIGSTOP)  # frozen where it is
            try:
                task = DBTaskResult.objects.get(args_kwargs__args=[match.pk, match.version])
                mid_task = task.status == TaskResultStatus.RUNNING
                if mid_task and reread(match).version == match.version:
                    break
            except OperationalError:  # SQLite: frozen in its write, the database is locked
                pass
            worker.process.send_signal(signal.SIGCONT)  # it had finished: try the next turn
            match = reread_until(worker, match, lambda m: m.state.turn == 0 or m.is_over)
        else:
            pytest.fail("the worker was never caught mid-task")
        worker.kill()  # SIGKILL mid-task: the task stays RUNNING, taken by a dead worker
        assert DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.RUNNING
        worker = Worker(server_env()).start()
        while finished(worker) != str(task.pk):  # queued again once its worker is seen dead
            pass
        assert DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.SUCCESSFUL
        computer_moves_all_run(worker)
    finally:
        worker.stop()
    assert computer_moves(match).count(match.version) == 1  # made exactly once
    moves_are_whole(match)


def test_two_workers_make_one_move_per_version(alice):
    match = humans_turn(alice, strength="easy")
    since = timezone.now()
    first = Worker(server_env()).start()
    workers = [first, Worker(server_env(), lines=first.lines).start()]  # heard as one
    rng = random.Random(7)
    try:
        for _ in range(8):
            match = reread_until(first, match, lambda m: m.state.turn == 0 or m.is_over)
            if match.is_over:
                break
            match = services.move_apply(
                user=alice, match_id=match.pk,
                action=str(rng.choice(legal_actions(match.state))), version=match.version,
            ).match  # fmt: skip
            for _duplicate in range(3):  # the same task queued again: a retry, a sweep
                computer_move.enqueue(match.pk, match.version)
        computer_moves_all_run(first)
    finally:
        for worker in workers:
            worker.stop()
    ran = DBTaskResult.objects.filter(started_at__gte=since)
    assert len({w for task in ran for w in task.worker_ids}) == 2  # both took tasks
    moves_are_whole(match)


def test_a_ten_second_clock_runs_out_with_no_page_open_and_no_cron(alice, bob):
    match = both_acted(start(alice, bob, move_seconds=10))  # past the longer first moves
    late = match.players[match.state.turn]
    worker = Worker(server_env()).start()
    try:
        ended = reread_until(worker, match, lambda m: m.is_over, task=clock_expire, timeout=20)
    finally:
        worker.stop()
    assert ended.status == MatchStatus.FINISHED and ended.end_reason == EndReason.TIMEOUT
    assert ended.winner_id != late.pk
    took = ended.finished_at - ended.turn_started_at
    assert timedelta(seconds=10) <= took < timedelta(seconds=12)
    assert timezone.now() - ended.finished_at < timedelta(seconds=10)


def test_a_worker_outlives_a_lost_database_connection_and_answers_the_next_move(alice):
    """The database dropped every connection (what a PostgreSQL restart does): db_worker's
    loop ended on its next query, and the worker process with it."""
    if connection.vendor != "postgresql":
        pytest.skip("terminating connections needs PostgreSQL: runs in CI's DATABASE_URL pass")
    match = humans_turn(alice)
    # libpq names the worker's connections after PGAPPNAME: those are the ones dropped.
    env = server_env(COMPUTER_MOVE_DELAY_SECONDS="0.1", PGAPPNAME="worker-under-test")
    worker = Worker(env).start()
    try:
        worker.wait_for_line("Starting worker")
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = 'worker-under-test'"
            )
            assert cursor.fetchone()[0] >= 1
        worker.wait_for_line("the database is away")
        rng = random.Random(3)
        while match.state.turn == 0:  # the person's moves, until the computer is to act
            match = services.move_apply(
                user=alice, match_id=match.pk,
                action=str(rng.choice(legal_actions(match.state))), version=match.version,
            ).match  # fmt: skip
        answered = reread_until(worker, match, lambda m: m.version > match.version)
        assert answered.move_count == match.move_count + 1  # the computer's, made by the worker
        assert worker.process.poll() is None  # still running
    finally:
        worker.stop()
    moves_are_whole(match)


def test_the_worker_looks_for_due_tasks_five_times_a_second_by_default():
    # As OPERATING.md starts it (no --interval): a computer's reply waits at most 0.2 s past its
    # delay for an idle worker to find it (db_worker's own default is a second).
    from games.management.commands.run_worker import Command

    parser = Command().create_parser("manage.py", "run_worker")
    assert parser.parse_args([]).interval == 0.2
    assert parser.parse_args(["--interval", "1"]).interval == 1
