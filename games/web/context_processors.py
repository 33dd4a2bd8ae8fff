"""What every page's frame needs: the player's table look (theme, four-colour deck), read from
the session, where it is copied from the player's settings on first use; and whether the
visitor plays as a guest (the header offers "Keep my games" and "Log in")."""

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


def guest(request) -> dict:
    session = getattr(request, "session", None)
    user = getattr(request, "user", None)
    playing = user is not None and user.is_authenticated and session is not None
    return {"guest": playing and SESSION_GUEST in session}
