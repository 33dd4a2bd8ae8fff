"""Backups known to restore: a site with matches in play is backed up with the documented
procedure (``deploy/backup``), restored into a new database (``deploy/restore``), and there
every match verifies and play goes on from where it stood: a person's move taken by a server,
the computer's by a task worker from the restored queue. PostgreSQL in CI's first pass, the
SQLite of ``make run`` in its second (docs/OPERATING.md, "Backups and restores")."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from django.db import connection
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.models import Match
from games.tasks import clock_expire, computer_move
from tests.support.environment import missing
from tests.support.matches import both_acted, start, until
from tests.support.players import VERSION, page, post_move, session_cookie
from tests.support.servers import ROOT, Server, Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)  # the scripts and servers read the commits

FINISHED = re.compile(r"Task id=(\S+) path=\S+ state=(SUCCESSFUL|FAILED)")


def run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        command, cwd=ROOT, env={**env, "PYTHON": sys.executable},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.fixture
def new_database(transactional_db, tmp_path):
    """The environment of processes on a new, empty database (PostgreSQL: a database of its
    own, dropped after; SQLite: a new file) with a catalogues folder of its own."""
    env = server_env(LOCALE_PATH=str(tmp_path / "locale"))
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(tmp_path / "restored.sqlite3")
        yield env
        return
    for tool in ("pg_dump", "pg_restore", "psql"):
        if shutil.which(tool) is None:
            missing(f"{tool} (postgresql-client)")
    name = f"{connection.settings_dict['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    try:
        yield env
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def finished(worker: Worker, task_id) -> str:
    """How the task ``task_id`` ended, once the worker's log says it has."""
    while True:
        said = FINISHED.search(worker.wait_for_line("state=", timeout=60))
        if said and said[1] == str(task_id):
            return said[2]


def version_shown(server: Server, cookie: str, match: Match) -> int:
    html, _csrf = page(server, cookie, match.pk)
    return int(VERSION.search(html)[1])


def test_a_backup_of_a_site_in_play_restores_into_a_new_database_and_play_goes_on(
    new_database, tmp_path, django_user_model, alice, bob, carol
):
    dave = django_user_model.objects.create_user("dave", password="correct horse 4")
    erin = django_user_model.objects.create_user("erin", password="correct horse 5")
    # Two people in the middle of a hand (a card led), no clock.
    people = until(start(alice, bob, move_seconds=None), lambda state: state.trick)
    # Against the computer, its move waiting in the queue.
    computer = services.match_create_computer(user=carol, strength="easy")
    computer = until(computer, lambda state: state.turn == 1)
    waiting = DBTaskResult.objects.get(
        task_path=computer_move.module_path, status=TaskResultStatus.READY,
        args_kwargs__args=[computer.pk, computer.version],
    )  # fmt: skip
    # A clock running (an hour a move: it cannot run out during the test), its task queued.
    clocked = both_acted(start(dave, erin, move_seconds=3600))
    clock = DBTaskResult.objects.get(
        task_path=clock_expire.module_path, status=TaskResultStatus.READY,
        args_kwargs__args=[clocked.pk, clocked.clock_due.isoformat()],
    )  # fmt: skip
    cookies = {user.pk: session_cookie(user) for user in (alice, bob, carol, dave, erin)}
    stood = {match.pk: match.version for match in (people, computer, clocked)}

    archive = tmp_path / "site.tar.gz"
    made = run(["deploy/backup", str(archive)], server_env())
    assert made.returncode == 0, made.stderr
    assert archive.stat().st_mode & 0o077 == 0  # its owner's only: it holds password hashes
    restored = run(["deploy/restore", str(archive)], new_database)
    assert restored.returncode == 0, restored.stderr
    assert "catalogues restored" in restored.stdout
    for code in ("en", "my", "ht", "th", "so", "am"):
        po = f"{code}/LC_MESSAGES/django.po"
        assert (tmp_path / "locale" / po).read_bytes() == (ROOT / "locale" / po).read_bytes()
    again = run(["deploy/restore", str(archive)], new_database)
    assert again.returncode == 1 and "restore into a new" in again.stderr  # nothing overwritten

    migrated = run([sys.executable, "manage.py", "migrate", "--noinput"], new_database)
    assert migrated.returncode == 0, migrated.stderr  # as after a backup older than the code
    verified = run([sys.executable, "manage.py", "verify_matches"], new_database)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.strip() == "3 matches checked, all snapshots agree"

    server = Server(new_database).start()
    worker = None
    try:
        # The restored sessions still sign in (the same SECRET_KEY), each match shows where it
        # stood, and a person's next move is taken.
        for match in (people, clocked):
            to_act = cookies[match.players[match.state.turn].pk]
            assert version_shown(server, to_act, match) == stood[match.pk]
            assert post_move(server, to_act, match.pk) == stood[match.pk] + 1
            assert version_shown(server, to_act, match) == stood[match.pk] + 1
        # The computer's move, by a worker from the restored queue (the task queued before
        # the backup, by its id); then it is shown.
        assert version_shown(server, cookies[carol.pk], computer) == stood[computer.pk]
        worker = Worker(new_database, server=server).start()
        assert finished(worker, waiting.pk) == "SUCCESSFUL"
        assert version_shown(server, cookies[carol.pk], computer) > stood[computer.pk]
    finally:
        if worker is not None:
            worker.stop()
        server.stop()
    # The copy is a database of its own: nothing played there reached the original, whose
    # queue still holds both tasks.
    for match in (people, computer, clocked):
        assert Match.objects.get(pk=match.pk).version == stood[match.pk]
    assert DBTaskResult.objects.filter(
        pk__in=[waiting.pk, clock.pk], status=TaskResultStatus.READY
    ).count() == 2  # fmt: skip
