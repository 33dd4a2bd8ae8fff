"""Browser tests: Debian's Chromium driven by Playwright against a real server process.

They run in a pytest process of their own (``-m e2e``): Playwright's sync API keeps an event
loop in the main thread, where Django refuses ORM calls. The server is daphne in a subprocess,
pointed at the test database, so each test sees the site exactly as a player would.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db.models import Q
from django.test import Client
from django.utils import timezone

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, leave, shot
from tests.support.environment import missing
from tests.support.push_service import vapid_keys
from tests.support.second_factors import log_in
from tests.support.servers import Server, Worker, server_env


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Marks the test ``failed_setup`` / ``failed_call`` for ``new_page``'s screenshots."""
    report = yield
    if report.failed:
        setattr(item, f"failed_{report.when}", True)
    return report


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


def forget_rate_limits() -> None:
    """With Redis, the live server's rate-limit counts (sign-ups and log-ins from 127.0.0.1,
    moves) outlive a run: an earlier run's would refuse this one's players. Each run starts
    with none of its own prefix's."""
    if not settings.REDIS_URL:
        return
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter(f"{settings.REDIS_PREFIX}:*"):
        client.delete(key)


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        # The move limit (a person's pace; tests/web/test_limits.py) would hold back tests that
        # play whole matches as fast as a page can: past it, such a test only waits.
        # The computer answers after 0.2 s instead of its natural beat of 0.8 s: the tests
        # that play it whole hands wait less.
        env = server_env(MOVE_LIMIT_PER_10_SECONDS="1000", COMPUTER_MOVE_DELAY_SECONDS="0.2")
        # The settings' notification section as a site with Web Push keys shows it.
        env["VAPID_PUBLIC_KEY"], env["VAPID_PRIVATE_KEY"] = vapid_keys()
    forget_rate_limits()
    server = Server(env)
    server.start()
    # The computer's turns and the clocks, as `make run` has, its heartbeat at production's
    # pace: no browser test stops it, so none waits for it to be found dead.
    beats = {"WORKER_BEAT_SECONDS": "2", "WORKER_DEAD_AFTER_SECONDS": "10"}
    worker = Worker({**env, **beats}, server).start()
    yield server.url
    worker.stop()
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        missing(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop open in this thread, and Django then refuses
    # the ORM calls that pytest-django's own fixtures make here (test data, flush). Only the
    # browser tests' process needs this; the site itself is the server subprocess.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, request):
    """Pages in fresh browser contexts (one per player); each is photographed at the end.
    They run the site's service worker only if asked (``service_worker``): each fresh context
    installs it anew, fetching every static file of the site into its cache, and only the
    installed app (tests/e2e/test_installed_app.py) and the settings' Web Push section use
    it. A page without one is the site as a browser shows it before its worker is in."""
    contexts = []

    def make(width: int = 1000, height: int = 800, logged_in=None, service_worker=False, **options):
        """``options``: more of the browser context's (``timezone_id``...)."""
        context = browser.new_context(
            viewport={"width": width, "height": height},
            service_workers="allow" if service_worker else "block",
            **options,
        )
        contexts.append(context)
        if logged_in is not None:  # a session cookie, as if the user had logged in
            client = Client()
            log_in(client, logged_in)  # staff: verified by a second factor, the admin opens
            cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
            context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])
        page = context.new_page()
        # Leaving a match in play, a player's browser asks first (table.js); these pages leave
        # as a player who says yes (tests/e2e/test_leaving_in_browser.py says no).
        page.on("dialog", leave)
        return page

    yield make
    failed = any(getattr(request.node, f"failed_{when}", False) for when in ("setup", "call"))
    for number, context in enumerate(contexts):
        for page in context.pages:  # how each page looked at the end
            shot(page, f"{request.node.name}-{number}", force=failed)
        context.close()
    settle()


def settle(tasks_seconds: float = 3.0, sockets_seconds: float = 2.0) -> None:
    """Wait until the worker runs no task and has none due (at most ``tasks_seconds``) and
    the server has handled the closed sockets, their rows gone and none written for a
    moment (a socket whose page closed as it opened is recorded late, then removed), at most
    ``sockets_seconds`` (a few tests leave a socket that no page closed). The flush after
    each test empties every table at once: meeting their writes, PostgreSQL breaks the tie
    as a deadlock and the flush fails (seen in CI just after a whole match, and after a
    test that changes language page after page: each page's own socket is a row)."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from games.models import Connection

    began = time.monotonic()
    quiet = 0  # checks in a row that found no socket's row
    while time.monotonic() < began + tasks_seconds:
        due = Q(status=TaskResultStatus.READY, run_after__lte=timezone.now())
        working = DBTaskResult.objects.filter(due | Q(status=TaskResultStatus.RUNNING))
        quiet = 0 if Connection.objects.exists() else quiet + 1
        sockets = time.monotonic() < began + sockets_seconds and quiet < 4
        if not working.exists() and not sockets:
            return
        time.sleep(0.05)
