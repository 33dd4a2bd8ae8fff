"""A socket's session, read the way each frame it acts on checks it."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone


def session_row(*, session_key: str, user_id: int) -> tuple[str, str | None] | None:
    """The live session's data and, if the player is active, their password hash, or None
    if the session has expired or is gone: one statement, written once (it runs for every
    move made over a socket: ``games.realtime.sessions``)."""
    with connection.cursor() as cursor:
        cursor.execute(_session_sql(), [user_id, session_key, timezone.now()])
        return cursor.fetchone()


@cache
def _session_sql() -> str:
    quote = connection.ops.quote_name
    users = get_user_model()._meta
    sessions = Session._meta
    user_column = {f.name: quote(f.column) for f in users.concrete_fields}
    session_column = {f.name: quote(f.column) for f in sessions.concrete_fields}
    # Names from the models' metadata, quoted; every value is a parameter.
    return (
        f"SELECT s.{session_column['session_data']}, u.{user_column['password']}"  # noqa: S608
        f" FROM {quote(sessions.db_table)} s"
        f" LEFT JOIN {quote(users.db_table)} u"
        f" ON u.{quote(users.pk.column)} = %s AND u.{user_column['is_active']}"
        f" WHERE s.{session_column['session_key']} = %s"
        f" AND s.{session_column['expire_date']} > %s"
    )
