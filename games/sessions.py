"""A socket lives no longer than the session it was opened with.

Each player's sockets (match and lobby) are in a group of their own (``realtime.user_group``).
When a session ends (log-out) or may have ended (a password change or reset, a suspension:
``realtime.sessions_check_on_commit``), the news goes to that group after the commit, and each
socket checks its session again and closes with 4401 if it is over. Every frame a socket acts
on checks the session too, so nothing is done for a player whose session ended even if the
news was lost on the way (the channel layer down).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db.models import Subquery
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from . import realtime


def session_is_users(session_key: str | None, user_id: int) -> bool:
    """Whether the session ``session_key`` is still the player ``user_id``'s: it exists and
    has not expired (it is gone after a log-out), it was logged in as that player through one
    of our backends, the player may still log in (not suspended) and its password hash still
    verifies the session (no password change since). This is the check Django's authentication
    makes on every request (``auth.get_user``), in one query rather than two: every frame a
    socket acts on makes it."""
    if not session_key:
        return False
    users = get_user_model()._default_manager
    password = users.filter(pk=user_id, is_active=True).values("password")[:1]
    row = (
        Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now())
        .annotate(password=Subquery(password))
        .values_list("session_data", "password")
        .first()
    )
    if row is None or row[1] is None:
        return False
    data = SessionStore().decode(row[0])
    if data.get(auth.BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    if str(data.get(auth.SESSION_KEY)) != str(user_id):
        return False
    user = get_user_model()(pk=user_id, password=row[1])
    verifies = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    session_hash = data.get(auth.HASH_SESSION_KEY) or ""
    return any(constant_time_compare(session_hash, good) for good in verifies)


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs) -> None:
    # Sent before Django empties the session: the sockets of this session close at once
    # without a check (which could still find it valid).
    if user is not None and request is not None and request.session.session_key:
        event = {"type": "session.ended", "session_key": request.session.session_key}
        realtime.send_to_group(realtime.user_group(user.pk), event)
