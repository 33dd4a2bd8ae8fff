"""``Match.state`` decodes a match's snapshot once for each snapshot the instance holds: reads
of the same snapshot share one decode, and a new snapshot (a move saved, a read from the
database, any assignment) is decoded afresh, so a state older than the snapshot is never
returned."""

from __future__ import annotations

import pytest

from games import services
from games.engine import apply, legal_actions, state_from_json, state_to_json
from games.models import Match
from games.models import match as match_module

pytestmark = pytest.mark.django_db


@pytest.fixture
def decodes(monkeypatch) -> list[dict]:
    """The snapshots ``Match.state`` decodes, in order: the real decoder, wrapped to count."""
    seen: list[dict] = []

    def counted(snapshot: dict):
        seen.append(snapshot)
        return state_from_json(snapshot)

    monkeypatch.setattr(match_module, "state_from_json", counted)
    return seen


def start(creator, joiner, **options) -> Match:
    """A match in play, made as players make one: opened, then joined."""
    return services.match_join(
        user=joiner, match_id=services.match_create(user=creator, **options).pk
    )


def first_move(match: Match) -> str:
    return str(legal_actions(match.state)[0])


def test_reading_the_state_again_and_again_decodes_the_snapshot_once(alice, bob, decodes):
    match = Match.objects.get(pk=start(alice, bob, move_seconds=30).pk)
    decodes.clear()
    states = [match.state, match.state, match.state]
    assert match.deadline is not None  # reads the state for the seat to act
    assert len(decodes) == 1
    assert states[0] is states[1] is states[2]
    assert states[0] == state_from_json(match.snapshot)


def test_a_move_saved_and_read_back_gives_the_instance_the_new_state(alice, bob, decodes):
    match = start(alice, bob)
    before = match.state
    moved = services.move_apply(
        user=match.players[before.turn], match_id=match.pk, action=first_move(match),
        version=match.version,
    )  # fmt: skip
    assert match.state is before  # this instance's snapshot has not changed
    decoded = len(decodes)
    match.refresh_from_db()
    assert match.state == moved.state != before
    assert len(decodes) == decoded + 1


def test_the_service_that_moves_returns_a_match_whose_state_is_the_move(alice, bob, decodes):
    # With a move clock, the service reads the locked match's deadline (its state) before the
    # move, then gives it the new snapshot: the state kept from the first read must not stay.
    match = start(alice, bob, move_seconds=30)
    action = legal_actions(match.state)[0]
    moved = services.move_apply(
        user=match.players[match.state.turn], match_id=match.pk, action=str(action),
        version=match.version,
    )  # fmt: skip
    assert moved.match.state == moved.state == apply(match.state, action) != match.state


def test_each_snapshot_assigned_is_decoded_afresh_even_an_equal_copy(alice, bob, decodes):
    match = start(alice, bob)
    first = match.state
    later = services.move_apply(
        user=match.players[first.turn], match_id=match.pk, action=first_move(match),
        version=match.version,
    ).state  # fmt: skip
    decodes.clear()

    match.snapshot = state_to_json(later)
    assert match.state == later and match.state == later
    assert len(decodes) == 1

    match.snapshot = dict(match.snapshot)  # equal, but another object: decoded again
    assert match.state == later
    assert len(decodes) == 2

    match.snapshot = None
    assert match.state is None
    assert len(decodes) == 2
