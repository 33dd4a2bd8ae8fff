"""What every page's frame needs: the player's table look (theme, four-colour deck), read from
the session, where it is copied from the player's settings on first use; whether the
visitor plays as a guest (the header offers "Keep my games" and "Log in"); and the count of
matches waiting for the player's move (the header's badge)."""

from __future__ import annotations

from ..db import selectors
from .middleware import SESSION_GUEST

SESSION_LOOK = "look"
DEFAULT_LOOK = {"theme": "auto", "four_colour": False}


def table_look(request) -> dict:
    session = getattr(request, "session", None)
    user = getattr(request, "user", None)
    look = session.get(SESSION_LOOK) if session is not None else None
    if look is None and user is not None and user.is_authenticated:
        look = selectors.table_look(user=user)
        session[SESSION_LOOK] = look
    return {"look": look or DEFAULT_LOOK}


def turns_waiting(request) -> dict:
    """How many of the player's matches wait for their move (read only if the page shows it;
    the page's own socket keeps it current: realtime.lobby.UserConsumer)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"turns_waiting": lambda: selectors.my_turn_matches(user=user).count()}


def guest(request) -> dict:
    session = getattr(request, "session", None)
    user = getattr(request, "user", None)
    playing = user is not None and user.is_authenticated and session is not None
    return {"guest": playing and SESSION_GUEST in session}
