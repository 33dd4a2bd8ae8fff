"""Real server processes for tests: daphne subprocesses on the test database.

Each is started the way production starts one (``python -m daphne ... asgi:application``)
with DEBUG off, so tests see exactly what a player's browser would.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(**extra: str) -> dict[str, str]:
    """The environment of a server process that uses this test run's database."""
    env = {**os.environ, "DEBUG": "0", "PYTHONUNBUFFERED": "1", **extra}
    env.setdefault("SECRET_KEY", "test-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    env.setdefault("ANALYSIS_SAMPLES", "8")  # a worker analyses finished matches: keep it quick
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(name)
    else:
        url = os.environ["DATABASE_URL"]
        env["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + name
    return env


class Server:
    def __init__(self, env: dict[str, str], port: int | None = None):
        self.env = env
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> Server:
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "euchre_site.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not answer within 30 s")

    def kill(self) -> None:
        """SIGKILL: no chance to close a socket or finish a request."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Worker:
    """A task worker process (``manage.py run_worker``) on the test database. Its log lines
    (one when each task starts and ends) are collected as they come."""

    def __init__(self, env: dict[str, str]):
        self.env = {"WORKER_BEAT_SECONDS": "0.2", "WORKER_DEAD_AFTER_SECONDS": "1.5", **env}
        self.process: subprocess.Popen | None = None
        self.lines: queue.Queue[str] = queue.Queue()

    def start(self) -> Worker:
        command = [
            sys.executable,
            "manage.py",
            "run_worker",
            "--interval",
            "0.05",
            "--queue-name",
            "*",
        ]
        self.process = subprocess.Popen(
            [*command, "--no-startup-delay", "--verbosity", "1"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def wait_for_line(self, text: str, timeout: float = 15) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if text in line:
                return line
        raise AssertionError(f"the worker never logged {text!r}")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    stop = Server.stop
