"""A match's one public face: what anyone allowed to follow it may know (``PublicMatch``),
from which the boards (``games.presentation.board``), the API's JSON (``shapes``) and, checked
against it, the API's schema (``games.api.schemas``) are all made. No raw row goes past it:
the edges turn the match a service or a selector gave them into this, then show that.

    match    PublicMatch: the value, built once from a match read with ``PLAYERS``
    shapes   the API's JSON of it, of a seat's view, of a player and of a move
"""

from .match import PLAYERS, PublicMatch, RatingLine, view_of

__all__ = ["PLAYERS", "PublicMatch", "RatingLine", "view_of"]
