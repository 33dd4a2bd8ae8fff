"""A socket lives no longer than the session it was opened with.

Each player's sockets (match and lobby) are in a group of their own. When a session ends (log-out)
or may have ended (a password change or reset, a suspension), the news goes to that group after the
commit, and each socket checks its session again and closes with 4401 if it is over. Every frame a
socket acts on checks the session too, so nothing is done for a player whose session ended even if
the news was lost on the way (the channel layer down).
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from . import services
from .realtime import group_push


def user_group(user_id: int) -> str:
    return f"user_{user_id}"


def session_user_id(session_key: str | None) -> int | None:
    """The id of the player whose session this still is, or None: the session is gone (logged
    out), its password hash no longer matches (the password changed), or the player may no
    longer log in (suspended). Read afresh from the session store and the database: this is the
    check Django's authentication makes on every request."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    user = auth.get_user(SimpleNamespace(session=store))
    return user.pk if user.is_authenticated else None


def sessions_check(user_id: int, renamed: tuple[str, str] | None = None) -> None:
    """After the commit: every socket of this player checks its session (and closes if it
    ended). ``renamed``: (old key, new key) of the session that changed the password (Django
    gave it a new key and brought its hash up to date): its sockets follow it and stay."""
    event = {"type": "session.check", "renamed": list(renamed) if renamed else None}
    transaction.on_commit(lambda: group_push(user_group(user_id), event))


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs) -> None:
    # Sent before Django empties the session: the sockets of this session close at once
    # without a check (which could still find it valid).
    if user is not None and request is not None and request.session.session_key:
        event = {"type": "session.ended", "session_key": request.session.session_key}
        group_push(user_group(user.pk), event)


@receiver(services.player_suspended)
def _suspended(sender, player_id: int, **kwargs) -> None:
    group_push(user_group(player_id), {"type": "session.check"})
