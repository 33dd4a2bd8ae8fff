"""A move as the match page sends it, over http (a form post) or the socket (a JSON frame):
one pipeline for both. The data is read by the same form, counted against the player's move
limit, and applied by ``services.move_apply``; the edges word the refusals."""

from __future__ import annotations

from collections.abc import Mapping

from . import selectors, services, throttle
from .forms import MoveForm
from .models import Match


class Unreadable(ValueError):
    """The data is not a move: no action, or a version that is not a whole number."""


def move_submit(*, user, match_id: int, data: Mapping, api: bool = False) -> Match:
    """Apply the move in ``data`` (``action``, ``version``) for ``user``. Raises Unreadable,
    throttle.Throttled or a services.GameError; nothing changes then. A bot account moves
    only through the API (``api``)."""
    if not api and selectors.is_bot(user):
        raise services.NotAllowed("bot_api_only")
    form = MoveForm(data)
    if not form.is_valid():
        raise Unreadable
    throttle.move(user)
    return services.move_apply(user=user, match_id=match_id, **form.cleaned_data)
