"""The move pipeline (games.web.moves) leaves nothing behind for the cyclic garbage collector: its
pauses stall every socket of a server process, and a move is the most frequent thing a
server does."""

from __future__ import annotations

import gc

import pytest

from games.engine import legal_actions
from games.web.moves import move_submit
from tests.support.matches import start

pytestmark = pytest.mark.django_db


def test_moves_leave_no_garbage_in_cycles(alice, bob):
    """(A refused move is not counted: an exception and its traceback are a cycle.)"""
    match = start(alice, bob)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds goes to gc.garbage, kept
    try:
        for _ in range(12):
            mover = match.players[match.state.turn]
            data = {"action": str(legal_actions(match.state)[-1]), "version": match.version}
            match = move_submit(user=mover, match_id=match.pk, data=data).match
        gc.collect()
        garbage = sorted({type(thing).__qualname__ for thing in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert match.move_count == 12
    assert garbage == []
