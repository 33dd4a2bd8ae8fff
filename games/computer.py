"""The computer's turns in matches against the computer.

After a commit leaves such a match waiting on the computer, ``wake`` starts a short timer
thread: it reads the match, lets the bot choose from its seat's view only (``games.bots``),
and applies the choice through ``services.move_apply`` like any player's move, so the push,
the version check and the move log are the same. The thread keeps the bot's thinking off the
server's event loop, and the delay makes the computer's card appear a beat after the player's.

Nothing is lost if a process dies before the computer moves: opening the match page, its
board or its socket wakes the computer again (``services.match_touch``), and so does
``expire_matches``. If two processes both wake it, the version check lets one move in.
"""

from __future__ import annotations

import logging
import random
import threading

from django.conf import settings
from django.db import close_old_connections

from . import bots, services
from .engine import view_for
from .models import Match, MatchStatus

log = logging.getLogger(__name__)

_waking: set[int] = set()  # matches with a timer running in this process
_lock = threading.Lock()
_rng = random.SystemRandom()


def wake(match_id: int) -> None:
    """Let the computer move in ``match_id`` soon, if it is its turn (at most one timer each)."""
    with _lock:
        if match_id in _waking:
            return
        _waking.add(match_id)
    timer = threading.Timer(settings.COMPUTER_MOVE_DELAY, _turn, args=(match_id,))
    timer.daemon = True
    timer.start()


def pending() -> int:
    """How many matches have the computer's move on a timer in this process."""
    with _lock:
        return len(_waking)


def _turn(match_id: int) -> None:
    done = False

    def release() -> None:
        # From here a commit may wake the computer again (and start the next timer), so this
        # timer must not clear the mark afterwards.
        nonlocal done
        done = True
        with _lock:
            _waking.discard(match_id)

    try:
        play_turn(match_id, before_apply=release)
    except Exception:  # a thread has nobody to raise to: log it, the next touch retries
        log.exception("the computer could not move in match %s", match_id)
    finally:
        if not done:
            release()
        close_old_connections()


def play_turn(match_id: int, before_apply=None) -> bool:
    """Make the computer's move in ``match_id`` if it is its turn; True if a move was made.

    ``before_apply`` runs once the move is chosen: the runner clears its timer there, so the
    commit of this move may wake the computer again when it is to act twice in a row.
    """
    match = Match.objects.select_related("player1").filter(pk=match_id).first()
    if match is None or not match.computer or match.status != MatchStatus.ACTIVE:
        return False
    state = match.state
    if state.turn != 1:
        return False
    choice = bots.choose(match.computer, view_for(state, 1), random.Random(_rng.getrandbits(64)))
    if before_apply is not None:
        before_apply()
    try:
        services.move_apply(
            user=match.player1, match_id=match_id, action=choice, version=match.version
        )
    except services.Conflict:
        return False  # somebody resigned, or another process's computer moved first
    return True
