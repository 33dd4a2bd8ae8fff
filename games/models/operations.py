"""How the site runs: the errors it answered (each 5xx, and each exception a request, a socket
or a task did not handle), for the operators' health page."""

from __future__ import annotations

from django.db import models


class ServerError(models.Model):
    """One error the site answered. No secret is kept: the path without its query string (and
    a token in it replaced by its name), the exception's class and the start of its message;
    never a body, a cookie or a header's value. Old rows are swept by the workers."""

    class Kind(models.TextChoices):
        REQUEST = "request", "request"
        SOCKET = "socket", "socket"
        TASK = "task", "task"

    at = models.DateTimeField(db_index=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    status = models.PositiveSmallIntegerField(null=True, blank=True)  # a request's answer
    method = models.CharField(max_length=8, blank=True)
    path = models.CharField(max_length=200, blank=True)  # a task's: its function's path
    request_id = models.CharField(max_length=64, blank=True, db_index=True)
    exception = models.CharField(max_length=200, blank=True)  # its class, module and all
    message = models.CharField(max_length=200, blank=True)
    process = models.CharField(max_length=100, blank=True)  # host:pid

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.status or ''} {self.path} at {self.at:%Y-%m-%d %H:%M:%S}"
