"""What the load bench plays against: its own database, and the site's processes started as
production starts them (uvicorn web processes, nginx in front with ``deploy/nginx.conf``,
task workers), with the CPU time each has spent.

Nothing heavy is imported at module level: ``bench.load`` re-exports ``fresh_database`` for
bench/moves.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fresh_database(url: str, suffix: str = "bench") -> str:
    """Drop and create ``<name>_<suffix>`` next to the database ``url`` names; its URL."""
    import psycopg

    base, name = url.rsplit("/", 1)
    bench = f"{name}_{suffix}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{bench}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{bench}"')
    return f"{base}/{bench}"


def in_process_env(name: str) -> None:
    """This process set up to run the site's code itself (no server), production-style, on a
    database of its own (``<name>_<suffix>``, made afresh and migrated): DEBUG off, and no
    Redis, so pushes go nowhere and only this process's work is measured. Moves come back to
    back, far faster than the limit lets a player move: the limit is lifted, and still counted
    (in this process's memory). Exits if ``DATABASE_URL`` (PostgreSQL) is not set. Call it
    before ``django.setup()``."""
    env = {**os.environ, "DEBUG": "0", "DJANGO_SETTINGS_MODULE": "euchre_site.settings"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    if not env.get("DATABASE_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL): the benchmark runs production-style")
    env["DATABASE_URL"] = fresh_database(env["DATABASE_URL"], name)
    env["MOVE_LIMIT_PER_10_SECONDS"] = "1000000"
    env.pop("REDIS_URL", None)
    os.environ.clear()  # REDIS_URL gone from this process too, not only from the migration's
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def production_env(name: str = "bench") -> dict[str, str]:
    """The environment a bench serves the site with: docs/OPERATING.md's production settings on a
    database of its own (``<name>_<suffix>``, made afresh and migrated) and an emptied Redis
    database. Exits if ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` are not set."""
    url, redis = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not (url and redis):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark runs production-style")
    env = {**os.environ, "DATABASE_URL": fresh_database(url, name), "DEBUG": "0"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    env["DJANGO_SETTINGS_MODULE"] = "euchre_site.settings"
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(["redis-cli", "-u", redis, "flushdb"], check=False, capture_output=True)
    return env


def setup_matches(
    count: int, computer: str = "", api: bool = False, first: int = 0
) -> list[tuple[int, str, str]]:
    """``count`` active matches between fresh users (numbered from ``first``): (match id,
    cookie A, cookie B); against the computer of that strength if ``computer`` (cookie B
    empty); with ``api``, API tokens in place of the cookies."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services

    users = get_user_model().objects
    matches = []
    for number in range(first, first + count):
        a = users.create_user(f"load{number}a")
        b = users.create_user(f"load{number}b")
        if computer:
            match = services.match_create_computer(user=a, strength=computer)
        else:
            # No move clock: a slow seating must not end matches on time (a version with no move).
            opened = services.match_create(user=a, move_seconds=None)
            match = services.match_join(user=b, match_id=opened.pk)
        cookies = []
        for user in (a,) if computer else (a, b):
            if api:
                cookies.append(
                    services.api_token_create(user=user, name="load", scopes=["read", "play"])[1]
                )
                continue
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        matches.append((match.pk, cookies[0], cookies[1] if len(cookies) > 1 else ""))
    return matches


def stored_moves() -> dict[int, int]:
    """Each match's moves in the database: what the acknowledged moves are checked against."""
    from django.db.models import Count

    from games.models import Match

    return dict(Match.objects.annotate(n=Count("moves")).values_list("pk", "n"))


def start_server(
    port: int, workers: int, env: dict[str, str], deflate: bool = True
) -> subprocess.Popen:
    """``uvicorn --workers N`` on ``port``, started as docs/OPERATING.md starts it, once it answers
    ``/healthz``. ``deflate=False`` adds ``--ws-per-message-deflate false``, to measure what
    the compression costs (not what docs/OPERATING.md runs)."""
    # Exactly docs/OPERATING.md's command (its access log and permessage-deflate on, as operators
    # run it); its output goes to a file, not over the report.
    log = open(Path(tempfile.gettempdir()) / f"bench-uvicorn-{port}.log", "ab")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "euchre_site.asgi:served", "--factory",
         "--ws", "euchre_site.wsprotocol:WebSockets",
         "--host", "127.0.0.1", "--port", str(port), "--timeout-keep-alive", "75",
         *(["--workers", str(workers)] if workers > 1 else []),
         *([] if deflate else ["--ws-per-message-deflate", "false"])],
        cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    log.close()  # the server holds its own copy
    for _ in range(150):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    sys.exit("the server did not answer /healthz within 30 s")


def stop_server(server: subprocess.Popen) -> float:
    """SIGTERM to the server and its workers, as a deploy does; seconds until it exited."""
    began = time.perf_counter()
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:  # counted as 10 s: it needed a SIGKILL
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    return time.perf_counter() - began


def start_task_workers(count: int, env: dict[str, str]) -> list[subprocess.Popen]:
    """``count`` workers as docs/OPERATING.md runs them, once each has written its first heartbeat
    (it is then looking for tasks): in production they are up long before the players come."""
    from games.models import WorkerBeat

    command = [sys.executable, "manage.py", "run_worker"]  # as docs/OPERATING.md runs it
    before = WorkerBeat.objects.count()
    workers = [
        subprocess.Popen([*command, "--no-startup-delay", "-v0"], cwd=ROOT, env=env)
        for _ in range(count)
    ]
    deadline = time.monotonic() + 60
    while WorkerBeat.objects.count() < before + count:
        if time.monotonic() > deadline or any(w.poll() is not None for w in workers):
            raise RuntimeError("the task workers did not start")
        time.sleep(0.1)
    return workers


def process_cpu_seconds(root: int | None = None, name: str = "") -> float:
    """CPU time (user + system), from /proc, of process ``root`` and its children, or of every
    process called ``name`` (``postgres``: the database server, when it runs on this machine)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            called, fields = (entry / "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        fields = fields.split()
        pid, parent = int(entry.name), int(fields[1])
        if root in (pid, parent) or (name and called.split("(", 1)[1] == name):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Site:
    """The site as production serves it: ``workers`` web processes, either behind nginx
    (``front``: a process per port, deploy/nginx.conf sends every socket of a match to the
    same one) or sharing one port (``uvicorn --workers``: a match's sockets land on either),
    and ``task_workers`` task workers (the computer's moves)."""

    def __init__(self, env: dict[str, str], workers: int, front: bool, task_workers: int = 0):
        from tests.support.servers import free_port

        self.env = env
        self.per_port = 1 if front else workers
        self.ports = [free_port() for _ in range(workers // self.per_port)]
        self.with_front = front
        self.task_worker_count = task_workers
        self.servers: list[subprocess.Popen] = []
        self.task_workers: list[subprocess.Popen] = []
        self.front = None
        self.deflate = True

    def start(self) -> Site:
        from tests.support.servers import Front

        self.start_web()
        self.task_workers = start_task_workers(self.task_worker_count, self.env)
        if self.with_front:
            self.front = Front(self.ports).start()
        return self

    @property
    def base(self) -> str:
        return self.front.url if self.front else f"http://127.0.0.1:{self.ports[0]}"

    def start_web(self) -> None:
        self.servers = []  # filled as they start, so that stop() stops those that did
        for port in self.ports:
            self.servers.append(start_server(port, self.per_port, self.env, self.deflate))

    def restart(self) -> float:
        """A deploy: the web processes stopped (SIGTERM) and started again, nginx staying up.
        Seconds the slowest took to stop."""
        stopped_in = max(stop_server(server) for server in self.servers)
        self.start_web()
        return stopped_in

    def stop(self) -> None:
        for server in self.servers:
            stop_server(server)
        if self.front:
            self.front.stop()
        for worker in self.task_workers:
            worker.terminate()
            worker.wait()

    def pids(self) -> list[int]:
        """The web processes (each uvicorn's own: its workers are its children)."""
        return [server.pid for server in self.servers]

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of the web processes (``web``), nginx (``front``), PostgreSQL's
        processes on this machine (``database``) and the task workers (``workers``)."""
        return {
            "web": sum(process_cpu_seconds(server.pid) for server in self.servers),
            "front": process_cpu_seconds(self.front.process.pid) if self.front else 0.0,
            "database": process_cpu_seconds(name="postgres"),
            "workers": sum(process_cpu_seconds(worker.pid) for worker in self.task_workers),
        }
