"""A move as the match page sends it, over http (a form post) or the socket (a JSON frame):
one pipeline for both. The data is read by the same form, counted against the player's move
limit, and applied by ``services.move_apply``; the edges word the refusals."""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.core.exceptions import ValidationError

from .. import metrics, services
from ..services import throttle
from .forms import MoveForm


class Unreadable(ValueError):
    """The data is not a move: no action, or a version that is not a whole number."""


def frame_of(text: str | None) -> dict:
    """A socket's text frame as a JSON object; Unreadable if it is not one: not JSON, nested
    deeper than the decoder goes (RecursionError, not a ValueError), or not an object."""
    try:
        content = json.loads(text or "")
    except (ValueError, RecursionError):
        raise Unreadable from None
    if not isinstance(content, dict):
        raise Unreadable
    return content


def move_submit(*, user, match_id: int, data: Mapping, way: str = "page_form") -> services.Moved:
    """Apply the move in ``data`` (``action``, ``version``) for ``user``. Raises Unreadable,
    throttle.Throttled or a services.GameError; nothing changes then. ``way``: the edge it
    came through, as the metrics count moves (``metrics.MOVE_WAYS``); a bot account's move
    from the page is refused (``services.move_apply``)."""
    move = _read(data)
    throttle.move(user)
    moved = services.move_apply(user=user, match_id=match_id, **move, way=way)
    metrics.moved(way)  # committed: move_apply's transaction is over
    return moved


def _read(data: Mapping) -> dict:
    """The move in ``data``, read as ``MoveForm`` reads it: each of the form's fields takes its
    value from the data and cleans it. Not through a bound form: it and its bound fields refer
    to each other, garbage that only the cyclic collector frees, in pauses every socket of the
    process waits through."""
    try:
        return {
            name: field.clean(field.widget.value_from_datadict(data, {}, name))
            for name, field in MoveForm.base_fields.items()
        }
    except ValidationError:
        raise Unreadable from None
