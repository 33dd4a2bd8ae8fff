"""What an operator graphs: the site's figures in Prometheus's text format (prometheus-client),
served at ``/metrics`` to whoever holds ``METRICS_TOKEN`` (``games.web.views.metrics``).

Every process counts for itself; with ``PROMETHEUS_MULTIPROC_DIR`` set (one fresh directory
for all the processes of a machine, made empty before they start: ``make run`` does it) each
writes its figures into files there, and whichever web process is scraped adds up those of
every web process and task worker. Without it a process's own registry is served (one process,
and a worker's figures are not seen). Counting is on when either is set; with neither, the
functions below return at once and nothing is counted.

Each function here is one increment or one observation: nothing on a move's path waits for
the database or the network. What needs a query (the queue, the workers' heartbeats) is read
at scrape time by the scraping process (``games.web.views.metrics``).

The names are stable: the health page and the operators' dashboards read them.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import time

from django.contrib.auth.signals import user_login_failed
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    multiprocess,
)

MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
ON = bool(MULTIPROC_DIR or os.environ.get("METRICS_TOKEN"))

disable_created_metrics()  # (a ``_created`` series beside each: the multiprocess mode has none)

if MULTIPROC_DIR:
    # A worker started before `make run` made it must not fail; emptying it is the starter's.
    os.makedirs(MULTIPROC_DIR, exist_ok=True)

# The ways a move comes in (``services.move_on_locked``'s callers): the match page's socket and
# its form post, the API's POST and its websocket, and the computer (a task worker). A clock
# that runs out ends the match (no move is forced), so it is not among them.
MOVE_WAYS = ("page_socket", "page_form", "api_post", "api_socket", "computer")
# The sockets and streams a server process holds open.
SOCKET_KINDS = ("match_player", "match_spectator", "me", "lobby", "api_websocket", "api_http")

MOVES = Counter("euchre_moves", "Moves applied (committed), by the way they came in", ["way"])
PUSH_SECONDS = Histogram(
    "euchre_push_seconds",
    "From a match change's commit to a socket or stream watching it being sent the new "
    "version (each viewer once per version), by the viewer's kind",
    ["viewer"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
SOCKETS = Gauge(
    "euchre_sockets_open", "Sockets and streams open now, by kind", ["kind"],
    multiprocess_mode="livesum",
)  # fmt: skip
ROOMS = Gauge(
    "euchre_rooms", "Match rooms held by the server processes (a match with a viewer here)",
    multiprocess_mode="livesum",
)  # fmt: skip
ANALYSIS_SECONDS = Histogram(
    "euchre_analysis_seconds",
    "Time to analyse a finished match (the analysis task)",
    buckets=(0.5, 1, 2.5, 5, 10, 20, 40, 80, 160),
)
RESPONSES = Counter(
    "euchre_http_responses", "Answers to http requests, by status class (2xx ... 5xx)", ["status"]
)
LOGIN_FAILURES = Counter("euchre_login_failures", "Failed log-ins (wrong name or password)")
THROTTLED = Counter("euchre_throttled", "Requests refused by a rate limit, by limit", ["limit"])
DB_POOL = Gauge(
    "euchre_db_pool_connections",
    "Each process's database pool: its connections (size), those idle (available), and "
    "requests waiting for one (waiting); refreshed at each realtime heartbeat, worker beat "
    "and scrape",
    ["state"],
    multiprocess_mode="livesum",
)


def moved(way: str) -> None:
    """A move came in ``way`` (``MOVE_WAYS``) and was committed."""
    if ON:
        MOVES.labels(way).inc()


def pushed(viewer: str, committed_at: float) -> None:
    """A viewer (``player``, ``spectator``, ``stream``) was sent the version committed at
    ``committed_at`` (``time.time()`` of the committing process: one clock per machine)."""
    if ON:
        PUSH_SECONDS.labels(viewer).observe(max(0.0, time.time() - committed_at))


def socket_opened(kind: str) -> None:
    if ON:
        SOCKETS.labels(kind).inc()


def socket_closed(kind: str) -> None:
    if ON:
        SOCKETS.labels(kind).dec()


def room_held(change: int) -> None:
    """A room was made (+1) or dropped (-1) in this process."""
    if ON:
        ROOMS.inc(change)


@contextlib.contextmanager
def analysis_timed():
    started = time.monotonic()
    try:
        yield
    finally:
        if ON:
            ANALYSIS_SECONDS.observe(time.monotonic() - started)


def answered(status: int) -> None:
    if ON:
        RESPONSES.labels(f"{status // 100}xx").inc()


def throttled(limit: str) -> None:
    if ON:
        THROTTLED.labels(limit).inc()


def pool_seen(pool) -> None:
    """This process's database pool (psycopg's ``ConnectionPool``, or None: SQLite) as it is
    now: three numbers from its counters, no query."""
    if ON and pool is not None:
        stats = pool.get_stats()
        DB_POOL.labels("size").set(stats.get("pool_size", 0))
        DB_POOL.labels("available").set(stats.get("pool_available", 0))
        DB_POOL.labels("waiting").set(stats.get("requests_waiting", 0))


def _login_failed(sender, **kwargs) -> None:
    if ON:
        LOGIN_FAILURES.inc()


user_login_failed.connect(_login_failed, dispatch_uid="games.metrics.login_failed")


def registry() -> CollectorRegistry:
    """What a scrape serves: every process's figures (multiprocess), or this process's."""
    if MULTIPROC_DIR:
        gathered = CollectorRegistry()
        multiprocess.MultiProcessCollector(gathered)
        return gathered
    from prometheus_client import REGISTRY

    return REGISTRY


def _gone() -> None:
    """A process that exits takes its live gauges (sockets, rooms, pool) with it. One killed
    (SIGKILL, a crash) leaves them until the directory is emptied at the next start."""
    multiprocess.mark_process_dead(os.getpid())


if MULTIPROC_DIR:
    atexit.register(_gone)
