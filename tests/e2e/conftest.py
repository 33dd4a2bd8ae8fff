"""Browser tests: Debian's Chromium driven by Playwright against a real server process.

They run in a pytest process of their own (``-m e2e``): Playwright's sync API keeps an event
loop in the main thread, where Django refuses ORM calls. The server is daphne in a subprocess,
pointed at the test database, so each test sees the site exactly as a player would.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import missing

# Playwright's sync API keeps an event loop open in this thread, and Django then refuses the
# ORM calls that pytest-django's own fixtures make here (database set-up and flush). Nothing
# else runs in this process: the site itself is the server subprocess.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env() -> dict[str, str]:
    """The environment of a server process that uses this test run's database."""
    env = {**os.environ, "DEBUG": "0", "PYTHONUNBUFFERED": "1"}
    env.setdefault("SECRET_KEY", "test-only-not-secret")
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(name)
    else:
        url = os.environ["DATABASE_URL"]
        env["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + name
    return env


class Server:
    def __init__(self, env: dict[str, str]):
        self.env = env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "euchre_site.asgi:application"], cwd=ROOT, env=self.env
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not answer within 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        env = server_env()
    server = Server(env)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        missing(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, request):
    """Pages in fresh browser contexts (one per player); each is photographed at the end."""
    contexts = []

    def make(width: int = 1000, height: int = 800):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        return context.new_page()

    yield make
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for number, context in enumerate(contexts):
        for page in context.pages:
            page.screenshot(
                path=str(SCREENSHOTS / f"{request.node.name}-{number}.png"), full_page=True
            )
        context.close()
