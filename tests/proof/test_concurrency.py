"""Many simultaneous submissions to one match on PostgreSQL: the same move many times,
different legal moves, illegal ones and the waiting player's, all released at once. Exactly
one legal move applies per version, in order, and the move log replays to the snapshot.

The counts are printed at the end of the module (tests/proof/conftest.py).
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from games import services
from games.engine import Action, legal_actions, replay, state_to_json
from games.models import Match, MatchStatus
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)
THREADS = 10
ROUNDS = 60


def submit_all_at_once(submissions) -> list[tuple[str, str]]:
    """(user, action, version) from one thread each, released together by a barrier."""
    barrier = threading.Barrier(len(submissions))
    outcomes: list[tuple[str, str]] = []
    lock = threading.Lock()

    def submit(user, action, version):
        barrier.wait()
        try:
            services.move_apply(user=user, match_id=match_id, action=action, version=version)
            outcome = "applied"
        except services.GameError as error:
            outcome = type(error).__name__
        finally:
            connection.close()
        with lock:
            outcomes.append((outcome, action))

    match_id = submissions[0][3]
    threads = [threading.Thread(target=submit, args=s[:3]) for s in submissions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(outcomes) == len(submissions), "a submission hung"
    return outcomes


def test_simultaneous_submissions_apply_exactly_the_legal_ones_in_order(alice, bob, figures):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: this runs in the DATABASE_URL pass of CI")
    rng = random.Random(8)
    match = start(alice, bob, move_seconds=None, target=5)
    submitted = 0
    applied_in_order = []
    for _ in range(ROUNDS):
        match = Match.objects.select_related("player0", "player1").get(pk=match.pk)
        if match.status != MatchStatus.ACTIVE:
            break
        state = match.state
        mover, waiting = match.players[state.turn], match.players[state.turn ^ 1]
        legal = [str(a) for a in legal_actions(state)]
        same = rng.choice(legal)
        batch = [(mover, same, match.version)] * 4  # a double click, and two more
        batch += [(mover, rng.choice(legal), match.version) for _ in range(3)]
        batch += [(mover, "play:JK" if "play:JK" not in legal else "order_up", match.version)]
        batch += [(waiting, rng.choice(legal), match.version)]  # out of turn
        batch += [(mover, same, match.version - 1)]  # stale
        assert len(batch) == THREADS
        outcomes = submit_all_at_once([(u, a, v, match.pk) for u, a, v in batch])
        submitted += len(batch)
        applied = [action for outcome, action in outcomes if outcome == "applied"]
        assert len(applied) == 1, outcomes
        assert applied[0] in legal
        refusals = {outcome for outcome, _ in outcomes if outcome != "applied"}
        assert refusals <= {"Conflict", "GameError", "NotAllowed"}
        applied_in_order.append(applied[0])
    match = Match.objects.get(pk=match.pk)
    moves = list(match.moves.order_by("seq").values_list("seq", "seat", "action"))
    assert [seq for seq, _, _ in moves] == list(range(1, len(moves) + 1))
    assert [action for _, _, action in moves] == applied_in_order
    rebuilt = replay(int(match.seed), match.rules, (Action.parse(s, a) for _, s, a in moves))
    assert state_to_json(rebuilt) == match.snapshot
    figures.update(
        {
            "submissions": submitted,
            f"rounds of {THREADS} at once": len(applied_in_order),
            "applied (one per version)": len(applied_in_order),
        }
    )
