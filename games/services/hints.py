"""Hints in casual matches against the computer: the hard computer's choice for the player's
turn, with a reason code (``games.presentation.hints`` words both). Asked over http (the Hint
button) or the socket (``{"hint": 1}``); refused, with a ``GameError``, anywhere else: rated
matches and matches between people never get one.

A hint is one decision of the hard bot from the player's own view (``view_for``: it sees no
more than the player does), a few milliseconds of search (at most about 60 ms), counted
against the player's move limit. It is the one search a web process runs: the answer is
wanted at once, and nothing is written.
"""

from __future__ import annotations

import random

from ..bots.hint import Hint, hint
from ..engine import view_for
from ..errors import Conflict, NotAllowed, NotFound
from ..models import Match, MatchStatus
from . import throttle


def hint_for(*, user, match_id: int) -> tuple[Match, Hint]:
    """The hint for ``user``'s turn in ``match_id``. Raises throttle.Throttled or a GameError
    (no such match, not playing, no hints in this match, not in play, not your turn)."""
    match = Match.objects.select_related("player0", "player1").filter(pk=match_id).first()
    if match is None:
        raise NotFound("no_such_match")
    seat = match.seat_of(user)
    if seat is None:
        raise NotAllowed("not_playing")
    if not match.computer or match.rated:
        raise NotAllowed("no_hints")
    if match.status != MatchStatus.ACTIVE:
        raise Conflict("not_in_play")
    if match.state.turn != seat:
        raise Conflict("hint_not_your_turn")
    throttle.move(user)
    return match, hint(view_for(match.state, seat), random.Random())
