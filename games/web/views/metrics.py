"""``/metrics``: the site's figures in Prometheus's text format, for the operator's scraper only.

Off unless ``METRICS_TOKEN`` is set (404, said in words); then answered only to a request that
carries it (``Authorization: Bearer <token>``, compared in constant time: 401 without one, 403
with another). What every process counted comes from ``games.metrics``; the queue and the
workers are read here, at the scrape, by the process scraped (two queries), as is its own
database pool."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily

from ... import metrics
from ...db import selectors

TOKEN_SCHEME = "bearer"  # noqa: S105 - the scheme's name, not a secret


def _words(text: str, status: int) -> HttpResponse:
    return HttpResponse(text + "\n", status=status, content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
def metrics_page(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        return _words("Metrics are off on this site: its operator has set no METRICS_TOKEN.", 404)
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != TOKEN_SCHEME or not given.strip():
        refused = _words(
            "The metrics are for the site's operator: send the metrics token "
            "(Authorization: Bearer <token>).",
            401,
        )
        refused["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return refused
    if not hmac.compare_digest(given.strip().encode(), token.encode()):
        return _words("That is not this site's metrics token.", 403)
    metrics.pool_seen(getattr(connection, "pool", None))  # the scraped process's own, now
    scraped_now = CollectorRegistry()
    scraped_now.register(QueueCollector())
    body = generate_latest(metrics.registry()) + generate_latest(scraped_now)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


class QueueCollector:
    """The task queues and the workers' heartbeats, read from the database at each scrape."""

    def collect(self):
        now = timezone.now()
        due = GaugeMetricFamily(
            "euchre_tasks_due", "Tasks due now and not yet taken by a worker, by queue",
            labels=["queue"],
        )  # fmt: skip
        lag = GaugeMetricFamily(
            "euchre_tasks_lag_seconds", "How long the oldest due task has waited, by queue",
            labels=["queue"],
        )  # fmt: skip
        for queue in selectors.task_queues(now=now):
            due.add_metric([queue.name], queue.due)
            lag.add_metric([queue.name], queue.lag)
        beats = GaugeMetricFamily(
            "euchre_worker_beat_age_seconds",
            "Seconds since each live task worker's last heartbeat (one silent for "
            "WORKER_DEAD_AFTER_SECONDS drops out)",
            labels=["worker", "host", "pid"],
        )
        workers = [worker for worker in selectors.workers_health(now=now) if worker.alive]
        for worker in workers:
            labels = [worker.worker_id, worker.host, str(worker.pid)]
            beats.add_metric(labels, worker.silent_seconds)
        alive = GaugeMetricFamily("euchre_workers_alive", "Task workers with a recent heartbeat")
        alive.add_metric([], len(workers))
        return [due, lag, beats, alive]
