"""The site, served the production way: a database of its own, ``uvicorn
euchre_site.asgi:served --factory`` with DEBUG off and Redis, one task worker beside it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .values import ROOT, SECRET_KEY

# ---------------------------------------------------------------------------------------------
# The site's processes


def fresh_database(base: str) -> str:
    try:
        from bench.load import fresh_database as fresh
    except Exception:  # bench/load is being reorganised: its two statements, here
        fresh = None
    if fresh is not None:
        return fresh(base, "fuzz")
    import psycopg

    server, name = base.rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}_fuzz" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}_fuzz"')
    return f"{server}/{name}_fuzz"


def site_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "HTTPS",
            "CSRF_TRUSTED_ORIGINS",
            "SQLITE_PATH",
            "PYTEST_XDIST_WORKER",
            "DJANGO_SETTINGS_MODULE",
            "REALTIME_CATCH_UP_SECONDS",
        }
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": SECRET_KEY,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_COLLECTED": "1",
            "REDIS_PREFIX": "fuzz",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
        }
    )
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    def __init__(self, env: dict[str, str], logs: Path):
        self.env, self.logs = env, logs
        self.port = free_port()
        self.server_log = logs / "server.log"
        self.worker_log = logs / "worker.log"
        self.processes: list[subprocess.Popen] = []

    def start(self) -> None:
        manage = [sys.executable, "manage.py"]
        with open(self.worker_log, "ab") as log:
            self.processes.append(
                subprocess.Popen(
                    [*manage, "run_worker"],
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        with open(self.server_log, "ab") as log:
            self.server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "euchre_site.asgi:served",
                    "--factory",
                    "--ws",
                    "euchre_site.wsprotocol:WebSockets",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(self.server)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                sys.exit(f"the server exited with {self.server.returncode}: {self.server_log}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=2).is_success:
                    return
            except httpx.HTTPError:
                pass  # not listening yet
            time.sleep(0.2)
        sys.exit("the server did not answer /healthz within 60 s")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def log_size(self) -> int:
        return self.server_log.stat().st_size

    def log_since(self, offset: int) -> str:
        with open(self.server_log, "rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", "replace")
