"""How the site runs, for the operators' health page: the task workers (alive or dead, what
each is running), the sockets open by kind, and the errors answered lately. (The queues'
depth and lag: ``workers.task_queues``.)"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ...models import Connection, ServerError, WorkerBeat
from .connections import PRESENCE_TIMEOUT


@dataclass(frozen=True)
class WorkerHealth:
    worker_id: str
    host: str
    pid: int
    queues: str
    started_at: datetime
    silent_seconds: float  # since its last heartbeat
    alive: bool
    running: tuple[str, ...]  # the tasks it has taken and not finished (their paths)


@dataclass(frozen=True)
class ErrorCount:
    kind: str
    status: int | None
    count: int


@dataclass(frozen=True)
class RecentErrors:
    total: int
    counts: list[ErrorCount]  # by kind and status, most first
    last: list[ServerError]  # the latest, newest first


def workers_health(*, now: datetime | None = None) -> list[WorkerHealth]:
    """Every worker with a heartbeat row (a dead one's row stays a while: the sweep deletes
    it later), the latest beat first, and the tasks each is running (the health page; the
    metrics keep the live ones)."""
    now = now or timezone.now()
    dead_after = settings.WORKER_DEAD_AFTER_SECONDS
    running: dict[str, list[str]] = {}
    for path, worker_ids in DBTaskResult.objects.running().values_list("task_path", "worker_ids"):
        if worker_ids:
            running.setdefault(worker_ids[-1], []).append(path.rsplit(".", 1)[-1])
    found = []
    for beat in WorkerBeat.objects.order_by("-seen_at"):
        silent = max(0.0, (now - beat.seen_at).total_seconds())
        found.append(
            WorkerHealth(
                worker_id=beat.worker_id,
                host=beat.host,
                pid=beat.pid,
                queues=beat.queues,
                started_at=beat.started_at,
                silent_seconds=silent,
                alive=silent <= dead_after,
                running=tuple(running.get(beat.worker_id, ())),
            )
        )
    return found


def sockets_open() -> dict[str, int]:
    """The sockets and streams open now, by kind (``Connection``: the rows that a heartbeat
    kept fresh), every kind named even when none is open."""
    since = timezone.now() - PRESENCE_TIMEOUT
    counts = dict.fromkeys(Connection.Kind.values, 0)
    rows = Connection.objects.filter(seen_at__gte=since).values("kind").annotate(n=Count("pk"))
    for row in rows:
        counts[row["kind"]] = row["n"]
    return counts


def errors_recent(*, hours: float = 1, last: int = 20) -> RecentErrors:
    """The errors answered in the last ``hours``: counted by kind and status, and the latest."""
    since = timezone.now() - timedelta(hours=hours)
    recent = ServerError.objects.filter(at__gte=since)
    counts = [
        ErrorCount(row["kind"], row["status"], row["n"])
        for row in recent.values("kind", "status").annotate(n=Count("pk")).order_by("-n", "kind")
    ]
    return RecentErrors(
        total=sum(count.count for count in counts),
        counts=counts,
        last=list(recent.order_by("-at")[:last]),
    )
