"""Who is there: players' open sockets and streams, and the task workers' heartbeats."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Connection(models.Model):
    """An open websocket or stream of a player: a match page's socket (presence, and the
    spectators it counts), any other page's socket, or an API stream. Every kind is capped per
    account, and those on a match per match (``services.presence``).

    Shared by every server process through the database. A process killed without closing its
    sockets leaves rows behind; ``seen_at`` (refreshed by a heartbeat) lets them age out.
    """

    class Kind(models.TextChoices):
        MATCH = "match", "match page"
        PAGE = "page", "other page"  # /ws/me/, /ws/lobby/
        STREAM = "stream", "API stream"  # websocket or http, of a match or the account

    match = models.ForeignKey(
        "games.Match", models.CASCADE, related_name="connections", null=True, blank=True
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MATCH)
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()
    # A match page's tab the player is not looking at (the page says so): their turn there is
    # a push notification (models.push), not only a sound in a tab they cannot see.
    hidden = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["match", "user", "seen_at"]),
            models.Index(fields=["user", "kind", "seen_at"]),
        ]

    def __str__(self) -> str:
        where = f"match {self.match_id}" if self.match_id else self.get_kind_display()
        return f"{self.user} on {where}"


class WorkerBeat(models.Model):
    """A task worker's heartbeat (``manage.py run_worker``): a worker silent for longer than
    ``WORKER_DEAD_AFTER_SECONDS`` is dead, and the tasks it had taken are queued again."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    queues = models.CharField(max_length=200, blank=True, default="")  # those it takes, by ","
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}"
