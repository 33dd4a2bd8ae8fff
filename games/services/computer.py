"""The computer's turns in matches against the computer.

A change that leaves the computer to act queues ``tasks.computer_move`` in its own transaction;
a worker process runs it after a short delay (so the computer's card appears a beat after the
player's). The bot chooses from its seat's view only (``games.bots``), and the choice goes
through ``move_apply`` like any player's move: the push, the version check and the
move log are the same, and a task for a version that has passed does nothing.
"""

from __future__ import annotations

import random

from .. import bots
from ..engine import view_for
from ..errors import Conflict
from ..models import Match, MatchStatus
from .matches import move_apply

_rng = random.SystemRandom()


def play_turn(match_id: int, *, version: int | None = None) -> bool:
    """Make the computer's move in ``match_id`` if it is its turn and the match is still at
    ``version`` (any version when None); True if a move was made."""
    match = Match.objects.select_related("player1").filter(pk=match_id).first()
    if match is None or not match.computer or match.status != MatchStatus.ACTIVE:
        return False
    if version is not None and match.version != version:
        return False  # a later change queued its own task
    state = match.state
    if state.turn != 1:
        return False
    choice = bots.choose(match.computer, view_for(state, 1), random.Random(_rng.getrandbits(64)))
    try:
        move_apply(user=match.player1, match_id=match_id, action=choice, version=match.version)
    except Conflict:
        return False  # somebody resigned, or another worker ran this task too
    return True
