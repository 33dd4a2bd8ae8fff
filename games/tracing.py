"""What an operator follows a request by: its id (nginx's ``X-Request-ID``, or one made here),
held in a context variable while the request, the socket or the task it queued is served; the
log lines in JSON (``LOG_FORMAT=json``), each carrying that id; and the version this process
runs, read once at its start.

Imported by the logging configuration, before the apps are loaded: nothing of the models here.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import socket
import uuid
from datetime import UTC, datetime
from pathlib import Path

# The id of the request (or socket, or task) being served; "" outside one.
REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")

# What a well-formed id may be (nginx's $request_id is 32 hex digits): anything else in the
# header is replaced by an id of our own, so no header smuggles text into the logs.
WELL_FORMED = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{7,63}")

STARTED_AT = datetime.now(UTC)  # when this process started (the module is imported at set-up)
PROCESS = f"{socket.gethostname()}:{os.getpid()}"
ROOT = Path(__file__).resolve().parent.parent


def request_id_from(header: str | None) -> str:
    """The id given in an ``X-Request-ID`` header if it is well formed, else a new one."""
    if header and WELL_FORMED.fullmatch(header):
        return header
    return uuid.uuid4().hex


def process_name() -> str:
    """host:pid of this process (read each time: a forked process has a pid of its own)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _git_commit(root: Path) -> str:
    """The commit checked out in ``root``, read from ``.git`` without running git; "" if none."""
    git = root / ".git"
    try:
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head[:12]
        ref = head[5:]
        loose = git / ref
        if loose.exists():
            return loose.read_text().strip()[:12]
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0][:12]
    except OSError:
        pass
    return ""


def _version() -> str:
    return os.environ.get("SITE_VERSION", "").strip() or _git_commit(ROOT) or "unknown"


VERSION = _version()  # read once: the code running is the code this process started with


# The attributes every LogRecord has; anything else on one was given by ``extra=``.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the request id being served, the
    fields a line was given (``extra={...}``), and an exception's class and traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "") or REQUEST_ID.get(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        if record.exc_info and record.exc_info[0] is not None:
            line["exception"] = record.exc_info[0].__name__
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def logging_config(log_format: str, level: str) -> dict:
    """The LOGGING setting: today's text lines, or JSON ones (``log_format == "json"``), of
    the ``games`` logger, Django's request errors and, in JSON, the task worker's own lines
    (each task's start and end, with the id of the request that queued it)."""
    handler = {"class": "logging.StreamHandler"}
    loggers = {
        "django.request": {"handlers": ["console"], "level": "ERROR"},
        "games": {"handlers": ["console"], "level": level},
    }
    config = {"version": 1, "disable_existing_loggers": False, "loggers": loggers}
    if log_format == "json":
        handler["formatter"] = "json"
        config["formatters"] = {"json": {"()": JsonLines}}
        # The worker adds a text handler of its own to these only if they have none.
        for name in ("django_tasks", "django_tasks_db"):
            loggers[name] = {"handlers": ["console"], "level": "INFO", "propagate": False}
        # Not passed on to the root logger too: a server (daphne) gives it text lines.
        for logger in loggers.values():
            logger["propagate"] = False
    config["handlers"] = {"console": handler}
    return config
