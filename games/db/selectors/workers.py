"""The task queue and the workers as an operator watches them: how many tasks are due in each
queue and how long the oldest has waited (the workers themselves: ``operations.workers_health``).
Read at a metrics scrape and by the health page and ``/healthz``: one query, on indexed columns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Min, Q
from django_tasks_db.models import DBTaskResult, get_date_max


@dataclass(frozen=True)
class Queue:
    name: str
    due: int  # tasks due now and not yet taken by a worker
    lag: float  # seconds the oldest of them has been due (0: none)


def task_queues(*, now: datetime) -> list[Queue]:
    """Every configured queue (and any other with a task due), with its due tasks and the lag
    of the oldest: one query. A task queued with no time to wait for is due from its
    enqueueing (django-tasks-db stores its ``run_after`` as the greatest date)."""
    never = get_date_max()
    rows = (
        DBTaskResult.objects.ready()
        .values("queue_name")
        .annotate(
            due=Count("id"),
            first_after=Min("run_after", filter=~Q(run_after=never)),
            first_queued=Min("enqueued_at", filter=Q(run_after=never)),
        )
    )
    found = {name: Queue(name, 0, 0.0) for name in _configured_queues()}
    for row in rows:
        since = min(t for t in (row["first_after"], row["first_queued"], now) if t is not None)
        lag = max(0.0, (now - since).total_seconds())
        found[row["queue_name"]] = Queue(row["queue_name"], row["due"], lag)
    return sorted(found.values(), key=lambda queue: queue.name)


def _configured_queues() -> list[str]:
    return list(settings.TASKS["default"].get("QUEUES") or ["default"])
