"""Properties of whole random matches, for every deck and option (hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Rules, apply, legal_actions, new_match, replay, view_for
from games.engine.cards import CODES, DECKS, cards_in
from games.engine.state import FIELDS, Phase, UpcardFate, evolve
from games.engine.view import hidden_cards, shown_from_last_hand
from tests.support.positions import codes_in

rules_strategy = st.builds(
    Rules,
    deck=st.sampled_from([24, 25, 32]),
    target=st.sampled_from([1, 5, 7, 10, 11]),
    stick_the_dealer=st.booleans(),
    dealer_must_take_up=st.booleans(),
)


def conserved(state) -> bool:
    """Every card of the deck is in exactly one place."""
    places = [cards_in(state.hands[0]), cards_in(state.hands[1]), cards_in(state.stock)]
    places.append([c for trick in state.tricks for _, c in trick.plays])
    places.append([c for _, c in state.trick])
    if state.discard is not None:
        places.append([state.discard])
    if state.upcard_fate is not UpcardFate.TAKEN_UP:
        places.append([state.upcard])
    everything = [c for place in places for c in place]
    return sorted(everything) == sorted(DECKS[state.rules.deck])


def check_views(state) -> None:
    for seat in (0, 1, None):
        text = json.dumps(view_for(state, seat).as_dict())
        hidden = hidden_cards(state, seat) - shown_from_last_hand(state, seat)
        leaked = codes_in(text) & hidden
        assert not leaked, f"seat {seat} sees hidden {leaked}"


def play_out(seed: int, rules: Rules, choices: random.Random, check_every_step: bool):
    state = new_match(seed, rules)
    actions = []
    while state.phase is not Phase.MATCH_OVER:
        legal = legal_actions(state)
        assert legal, "a running hand always offers its seat something to do"
        seat = state.turn
        assert seat in (0, 1)
        assert legal_actions(state, seat ^ 1) == ()  # exactly one seat acts at a time
        assert all(a.seat == seat for a in legal)
        if check_every_step:
            assert state.__dict__.keys() == FIELDS  # no path wrote a misspelt field
            assert conserved(state)
            check_views(state)
            assert max(state.scores) < rules.target
        chosen = choices.choice(legal)
        actions.append(chosen)
        state = apply(state, chosen)
    return state, actions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**128), rules=rules_strategy, choice_seed=st.integers(0, 2**32))
def test_random_matches_keep_every_invariant(seed, rules, choice_seed):
    state, actions = play_out(seed, rules, random.Random(choice_seed), check_every_step=True)
    # The match ends exactly when a seat reaches the target, and that seat wins.
    assert state.phase is Phase.MATCH_OVER
    assert state.scores[state.winner] >= rules.target > state.scores[state.winner ^ 1]
    assert conserved(state)
    check_views(state)
    # Scores are the sum of the hands' points.
    assert tuple(map(sum, zip(*(r.points for r in state.results), strict=True))) == state.scores
    # A match is its seed, its options and its actions.
    assert replay(seed, rules, actions) == state


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), rules=rules_strategy, choice_seed=st.integers(0, 2**32))
def test_replaying_the_actions_reproduces_the_state(seed, rules, choice_seed):
    state, actions = play_out(seed, rules, random.Random(choice_seed), check_every_step=False)
    assert replay(seed, rules, actions) == state
    assert state.scores[state.winner] >= rules.target


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64), rules=rules_strategy, choice_seed=st.integers(0, 2**32))
def test_a_refused_action_leaves_the_state_untouched(seed, rules, choice_seed):
    choices = random.Random(choice_seed)
    state = new_match(seed, rules)
    from games.engine.state import _ACTIONS

    every = [a for seat in (0, 1) for a in _ACTIONS[seat].values()]
    for _ in range(40):
        if state.phase is Phase.MATCH_OVER:
            break
        legal = set(legal_actions(state))
        snapshot = dict(state.__dict__)
        for wrong in choices.sample([a for a in every if a not in legal], 5):
            try:
                apply(state, wrong)
            except ValueError:
                pass
            else:
                raise AssertionError(f"{wrong} was not legal but was applied")
            assert state.__dict__ == snapshot
        state = apply(state, choices.choice(sorted(legal, key=str)))


def test_a_misspelt_field_is_refused_not_added():
    state = new_match(1)
    with pytest.raises(TypeError, match="trumps"):
        evolve(state, {"trumps": 0})
    assert evolve(state, {"trump": 0}).trump == 0


def test_every_card_code_is_two_characters():
    assert all(len(code) == 2 for code in CODES)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**128), rules=rules_strategy, choice_seed=st.integers(0, 2**32))
def test_snapshots_round_trip_through_json(seed, rules, choice_seed):
    from games.engine import state_from_json, state_to_json

    choices = random.Random(choice_seed)
    state = new_match(seed, rules)
    for _ in range(choices.randrange(0, 120)):
        if state.phase is Phase.MATCH_OVER:
            break
        state = apply(state, choices.choice(legal_actions(state)))
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
