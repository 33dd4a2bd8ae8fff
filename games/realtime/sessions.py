"""A socket lives no longer than the session it was opened with.

Each player's sockets (match and lobby) are in a group of their own (``events.user_group``).
When a session ends (log-out) or may have ended (a password change or reset, a suspension:
``events.sessions_check_on_commit``), the news goes to that group after the commit, and each
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
from django.dispatch import receiver
from django.utils.crypto import constant_time_compare

from .. import caches
from ..db.selectors.sessions import session_row
from ..models import DELETED_USERNAME
from ..services import events


def session_is_users(session_key: str | None, user_id: int) -> bool:
    """Whether the session ``session_key`` is still the player ``user_id``'s: it exists and
    has not expired (it is gone after a log-out), it was logged in as that player through one
    of our backends, the player may still log in (not suspended) and its password hash still
    verifies the session (no password change since). This is the check Django's authentication
    makes on every request (``auth.get_user``), in one query rather than two: every frame a
    socket acts on makes it. A session row and password hash already verified together are
    not decoded and hashed again (the query still runs each time)."""
    if not session_key:
        return False
    row = session_row(session_key=session_key, user_id=user_id)
    if row is None or row[1] is None:
        return False
    if _verified.get((session_key, user_id)) == row:
        return True
    if not _verifies(row[0], row[1], user_id):
        return False
    if len(_verified) > 10_000:
        _verified.clear()
    _verified[(session_key, user_id)] = row
    return True


def is_suspended(user_id: int) -> bool:
    """Whether the player may no longer log in (a moderator suspended them; a deleted
    account's sockets only end, as a log-out's do)."""
    inactive = get_user_model().objects.filter(pk=user_id, is_active=False)
    return inactive.exclude(username__startswith=DELETED_USERNAME.format("")).exists()


# (session key, player id) -> the (session data, password hash) found to verify.
_verified: dict[tuple[str, int], tuple[str, str]] = {}


def _verifies(session_data: str, password: str, user_id: int) -> bool:
    data = SessionStore().decode(session_data)
    if data.get(auth.BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    if str(data.get(auth.SESSION_KEY)) != str(user_id):
        return False
    user = get_user_model()(pk=user_id, password=password)
    verifies = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    session_hash = data.get(auth.HASH_SESSION_KEY) or ""
    return any(constant_time_compare(session_hash, good) for good in verifies)


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs) -> None:
    # Sent before Django empties the session: the sockets of this session close at once
    # without a check (which could still find it valid).
    if user is not None and request is not None and request.session.session_key:
        event = {"type": "session.ended", "session_key": request.session.session_key}
        events.send_to_group(events.user_group(user.pk), event)


caches.register("verified sessions", _verified.clear)
