"""What the admin's health page shows (``euchre_site.admin``: staff only): the task workers
alive and dead and what each runs, each queue's due tasks and the lag of the oldest, the
sockets open by kind, the errors of the last hour, and the version this process runs."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from ... import tracing
from ...db import selectors


def health_context() -> dict:
    now = timezone.now()
    workers = selectors.workers_health()
    sockets = selectors.sockets_open()
    return {
        "now": now,
        "workers": workers,
        "workers_alive": sum(worker.alive for worker in workers),
        "queues": selectors.task_queues(now=now),
        "sockets": sorted(sockets.items()),
        "sockets_total": sum(sockets.values()),
        "errors": selectors.errors_recent(hours=1),
        "version": tracing.VERSION,
        "started_at": tracing.STARTED_AT,
        "process": tracing.process_name(),
        "metrics_url": reverse("metrics"),
        "metrics_on": bool(settings.METRICS_TOKEN),
    }
