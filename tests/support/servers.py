"""Real server processes for tests: daphne subprocesses on the test database, task workers,
and nginx in front of servers with the site's own front config (``deploy/nginx.conf``).

Each is started the way production starts one (``python -m daphne ... asgi:application``, or
docs/OPERATING.md's uvicorn command exactly: ``Uvicorn``) with DEBUG off, so tests see exactly
what a player's browser would.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
OPERATING = ROOT / "docs" / "OPERATING.md"


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
    """A web process: daphne on the test database (``Uvicorn``: production's command)."""

    listening = b"Listening on TCP address"  # what it logs once its socket listens

    def __init__(self, env: dict[str, str], port: int | None = None):
        self.env = env
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.log: threading.Thread | None = None
        self.lines: queue.Queue[str] = queue.Queue()  # its log, line by line (wait_for_line)

    def command(self) -> list[str]:
        daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        return [*daphne, "euchre_site.asgi:application"]

    def start(self) -> Server:
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        # Its log goes on to this process's stderr, where pytest shows it. It says it listens
        # once its socket does, the application imported; one silent for 30 s is killed.
        silent = threading.Timer(30, self.kill)
        silent.start()
        try:
            for line in self.process.stderr:
                os.write(2, line)
                self.lines.put(line.decode(errors="replace"))
                if self.listening in line:
                    passing = [self.process, self.lines]
                    self.log = threading.Thread(target=_pass_on, args=passing, daemon=True)
                    self.log.start()
                    return self
        finally:
            silent.cancel()
        self.process.stderr.close()
        code = self.process.wait()
        why = "was silent for 30 s" if code == -signal.SIGKILL else f"exited with {code}"
        raise RuntimeError(f"the server {why} before it listened")

    def wait_for_line(self, text: str, timeout: float = 15) -> str:
        """The next line of its log holding ``text`` (those before it are passed over)."""
        return _line_with(self.lines, text, timeout, "server")

    def kill(self) -> None:
        """SIGKILL: no chance to close a socket or finish a request."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        _logged(self)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        _logged(self)


class Uvicorn(Server):
    """A web process started with docs/OPERATING.md's command for one, word for word but its
    port (the first of its ``python -m uvicorn`` lines)."""

    listening = b"Uvicorn running on"

    def command(self) -> list[str]:
        return production_command(self.port)


def production_commands() -> list[str]:
    """docs/OPERATING.md's lines that start a web process (``python -m uvicorn ...``)."""
    lines = OPERATING.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if re.search(r"-m uvicorn\b", line)]


def production_command(port: int) -> list[str]:
    """docs/OPERATING.md's (first) command for a web process, on ``port``, run by this Python."""
    words = shlex.split(production_commands()[0].rstrip(" &"))
    words[0] = sys.executable  # .venv/bin/python
    words[words.index("--port") + 1] = str(port)
    return words


def _pass_on(process: subprocess.Popen, lines: queue.Queue[str]) -> None:
    with process.stderr as log:
        for line in log:
            os.write(2, line)
            lines.put(line.decode(errors="replace"))


def _line_with(lines: queue.Queue[str], text: str, timeout: float, who: str) -> str:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if text in line:
            return line
    raise AssertionError(f"the {who} never logged {text!r}")


def _logged(stopped) -> None:
    """Once a server has exited, all it logged has been passed on (``capfd`` reads it then).
    A worker or a front, stopped the same way, has no log of its own to pass on."""
    if log := getattr(stopped, "log", None):
        log.join(timeout=10)


class Worker:
    """A task worker process (``manage.py run_worker``) on the test database. Its log lines
    (one when each task starts and ends) are collected as they come."""

    def __init__(
        self,
        env: dict[str, str],
        server: Server | None = None,
        lines: queue.Queue[str] | None = None,
        interval: float = 0.05,
        verbosity: int = 1,
    ):
        self.env = {"WORKER_BEAT_SECONDS": "0.2", "WORKER_DEAD_AFTER_SECONDS": "1.5", **env}
        self.interval, self.verbosity = interval, verbosity
        if server is not None:  # its pushes reach that server's sockets (`make run` does this)
            self.env["PUSH_RELAY_URL"] = server.url
        self.process: subprocess.Popen | None = None
        # Another worker's ``lines``: the two are heard as one (a line from either).
        self.lines: queue.Queue[str] = queue.Queue() if lines is None else lines

    def start(self) -> Worker:
        command = [
            sys.executable,
            "manage.py",
            "run_worker",
            "--interval",
            str(self.interval),
            "--queue-name",
            "*",
        ]
        self.process = subprocess.Popen(
            [*command, "--no-startup-delay", "--verbosity", str(self.verbosity)],
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
        return _line_with(self.lines, text, timeout, "worker")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    stop = Server.stop


FRONT_CONFIG = ROOT / "deploy" / "nginx.conf"


def nginx() -> str | None:
    """Where nginx is (Debian's package puts it in /usr/sbin, off some users' PATH)."""
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    return found if os.access(found, os.X_OK) else None


class Front:
    """nginx on ``port`` with ``deploy/nginx.conf``, its upstream's servers replaced by
    ``upstreams`` (ports on 127.0.0.1). Its own files (main config, pid, log) go in a
    directory of its own. Used by tests/realtime/test_front.py and bench/load."""

    def __init__(self, upstreams: list[int], port: int | None = None):
        self.upstreams = upstreams
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.folder: Path | None = None

    def site_config(self) -> str:
        """``deploy/nginx.conf`` with this front's address and upstream servers."""
        text = FRONT_CONFIG.read_text()
        servers = "".join(f"    server 127.0.0.1:{port};\n" for port in self.upstreams)
        text, upstreams = re.subn(r"(?m)(?:^    server 127\.0\.0\.1:\d+;\n)+", servers, text)
        text, listens = re.subn(r"(?m)^    listen \d+;", f"    listen 127.0.0.1:{self.port};", text)
        if (upstreams, listens) != (1, 1):
            raise ValueError(f"{FRONT_CONFIG} no longer has one upstream and one listen line")
        return text

    def start(self) -> Front:
        folder = self.folder = Path(tempfile.mkdtemp(prefix="euchre-front-"))
        (folder / "site.conf").write_text(self.site_config())
        # As many sockets as a load test opens, each held twice (browser side, server side).
        (folder / "nginx.conf").write_text(
            f"worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
            "worker_rlimit_nofile 20000;\nevents { worker_connections 8192; }\n"
            f"http {{\n  access_log off;\n  include {folder}/site.conf;\n}}\n"
        )
        self.process = subprocess.Popen(
            [nginx() or "nginx", "-p", str(folder), "-e", str(folder / "error.log"),
             "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.process.stderr.read().strip()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not listen within 10 s")

    def stop(self) -> None:
        Server.stop(self)
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def redis_started(args: list[str]) -> subprocess.Popen:
    """``redis-server`` started with ``args``, returned once it says it takes connections (its
    own log line: no wait for a time); the rest of its log is read and dropped."""
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if "Ready to accept connections" in line:
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process
    raise RuntimeError(f"redis-server exited ({process.wait()}) before taking connections")
