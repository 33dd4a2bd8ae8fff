"""The account page's section: sessions (where the player is logged in, each one's device and
times, this device marked; ending one asks first: ``?end=<id>`` or ``?end=others``)."""

from __future__ import annotations

from django.http import HttpRequest

from ...db.selectors.account_sessions import account_sessions
from ...realtime.sessions import session_is_users


def listed(request: HttpRequest) -> list[dict]:
    """The player's sessions as the list shows them (never their keys): this one first, then
    the last seen first."""
    current = request.session.session_key
    shown = [
        {
            "id": row.pk,
            "user_agent": row.user_agent,
            "created_at": row.created_at,
            "last_seen": row.last_seen,
            "current": row.session_key == current,
        }
        for row in account_sessions(user=request.user)
        # Ended by a password change (or a suspension) but not yet expired: not a session.
        if session_is_users(row.session_key, request.user.pk)
    ]
    shown.sort(key=lambda session: not session["current"])  # stable: the last seen first
    return shown


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_sessions.html``) reads: the sessions,
    and the one the player asked to end, to confirm."""
    shown = listed(request)
    asked = request.GET.get("end", "")
    return {
        "sessions": shown,
        "session_ending": next((s for s in shown if str(s["id"]) == asked), None),
        "sessions_ending_others": asked == "others" and len(shown) > 1,
    }
