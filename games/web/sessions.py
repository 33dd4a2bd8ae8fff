"""The player's sessions as the web sees them: the row of each made at log-in
(``user_logged_in``: the log-in form, sign-up, a guest's start, a forced log-in) and gone at
log-out, its "last seen" and renewed key noted at most every few minutes as pages are asked
for (``SessionSeen``), and the device cookie that tells a known browser from a new one.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from .. import services
from ..services import account_sessions
from .views.common import client_key

# In the session: [its row's id, the session key the row was last written with, when (Unix
# time)]: a request compares them without a query, and writes only when the key changed or
# the time is older than SEEN_EVERY.
SESSION_ROW = "account_session"
# The browser's device cookie: a random value, of which the player's known devices keep the
# hash; it lasts as long as browsers let a cookie last (400 days).
DEVICE_COOKIE = "device"
DEVICE_COOKIE_AGE = 400 * 24 * 3600
# Set on a request that logged in: the response checks (and sets) the device cookie.
_LOGGED_IN = "_account_logged_in"


def _user_agent(request) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:300]


def _address(request) -> str:
    return client_key(request) if request.META.get("REMOTE_ADDR") else ""


def _session_opened(request, user, logged_in: bool = True) -> None:
    session = request.session
    if session.session_key is None:  # flushed by the log-in (another player's session): a key
        session.save()
    row = account_sessions.account_session_open(
        user=user,
        session_key=session.session_key,
        user_agent=_user_agent(request),
        address=_address(request),
        logged_in=logged_in,
    )
    session[SESSION_ROW] = [row.pk, session.session_key, time.time()]


@receiver(user_logged_in, dispatch_uid="games.web.sessions.logged_in")
def _logged_in(sender, request, user, **kwargs) -> None:
    if request is None or not hasattr(request, "session"):
        return
    _session_opened(request, user)
    setattr(request, _LOGGED_IN, True)


@receiver(user_logged_out, dispatch_uid="games.web.sessions.logged_out")
def _logged_out(sender, request, user, **kwargs) -> None:
    # Sent before Django empties the session.
    if request is not None and request.session.session_key:
        account_sessions.account_session_close(session_key=request.session.session_key)


class SessionSeen:
    """After the page: a logged-in session's row follows its key (renewed by a password
    change) and its last visit, written at most every ``SEEN_EVERY`` seconds; a session from
    before the rows were kept gets one. After a log-in, the device cookie: known, or a new
    device (``services.account_sessions.device_login``), and kept for another 400 days."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not hasattr(request, "session"):
            return response
        if getattr(request, _LOGGED_IN, False):
            self.device_checked(request, response, user)
        mark, key = request.session.get(SESSION_ROW), request.session.session_key
        if key is None:
            return response
        if not mark:
            _session_opened(request, user, logged_in=False)
        elif mark[1] != key or time.time() - mark[2] > account_sessions.SEEN_EVERY:
            found = services.account_session_seen(user=user, session_id=mark[0], session_key=key)
            if found:
                request.session[SESSION_ROW] = [mark[0], key, time.time()]
            else:  # swept as expired: a new row
                _session_opened(request, user, logged_in=False)
        return response

    @staticmethod
    def device_checked(request, response, user) -> None:
        token = services.device_login(
            user=user,
            token=request.COOKIES.get(DEVICE_COOKIE),
            user_agent=_user_agent(request),
            address=_address(request),
        )
        response.set_cookie(
            DEVICE_COOKIE,
            token,
            max_age=DEVICE_COOKIE_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
