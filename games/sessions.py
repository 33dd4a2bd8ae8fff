"""A socket lives no longer than the session it was opened with.

Each player's sockets (match and lobby) are in a group of their own (``realtime.user_group``).
When a session ends (log-out) or may have ended (a password change or reset, a suspension:
``realtime.sessions_check_on_commit``), the news goes to that group after the commit, and each
socket checks its session again and closes with 4401 if it is over. Every frame a socket acts
on checks the session too, so nothing is done for a player whose session ended even if the
news was lost on the way (the channel layer down).
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from . import realtime


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


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs) -> None:
    # Sent before Django empties the session: the sockets of this session close at once
    # without a check (which could still find it valid).
    if user is not None and request is not None and request.session.session_key:
        event = {"type": "session.ended", "session_key": request.session.session_key}
        realtime.send_to_group(realtime.user_group(user.pk), event)
