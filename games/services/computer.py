"""The computer's turns in matches against the computer.

A change that leaves the computer to act queues ``tasks.computer_move`` in its own transaction;
a worker process runs it after a short delay (so the computer's card appears a beat after the
player's). The bot chooses from its seat's view only (``games.bots``), and the choice is made
like any player's move (``matches.move_on_locked``): the push, the version check and the move
log are the same, and a task for a version that has passed does nothing. The match is read
once, locked, for the whole turn.
"""

from __future__ import annotations

import random

from django.db import transaction

from .. import bots
from ..engine import view_for
from ..errors import NotFound
from ..models import MatchStatus
from .core import match_locked
from .matches import move_on_locked

_rng = random.SystemRandom()


def play_turn(match_id: int, *, version: int | None = None) -> bool:
    """Make the computer's move in ``match_id`` if it is its turn and the match is still at
    ``version`` (any version when None); True if a move was made."""
    with transaction.atomic():
        try:
            match = match_locked(match_id)  # one read: a resignation meanwhile waits, or won
        except NotFound:
            return False
        if not match.computer or match.status != MatchStatus.ACTIVE:
            return False
        if version is not None and match.version != version:
            return False  # a later change queued its own task
        state = match.state
        if state.turn != 1:
            return False
        rng = random.Random(_rng.getrandbits(64))
        choice = bots.choose(match.computer, view_for(state, 1), rng)
        moved = move_on_locked(match, 1, choice, match.version, way="computer")
        return moved is not None  # None: time ran out
