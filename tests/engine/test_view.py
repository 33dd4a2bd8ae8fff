"""``view_for``: what each seat and a spectator may see."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from games.engine import action, apply, legal_actions, new_match, view_for
from games.engine.view import hidden_cards
from tests.support.positions import bidding, codes_in, position


def test_a_seat_sees_its_own_cards_and_only_counts_the_opponents():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    view = view_for(state, 0)
    assert sorted(view.hand) == sorted("JH JD AH 9C TS".split())
    assert view.hand_sizes == (5, 5)
    text = json.dumps(view.as_dict())
    assert not codes_in(text) & set("QS KS 9D TH AC".split())


def test_a_spectator_sees_the_table_but_no_hand():
    state = position(hands=("9D AH", "9S TS"), trump="H", leader=0, trick="9D")
    view = view_for(state, None)
    assert view.hand == () and view.legal_actions == ()
    assert view.trick == ((0, "9D"),)
    assert codes_in(json.dumps(view.as_dict())) == {"9D", "9C"}  # the trick and the upcard


def test_the_view_lists_exactly_the_viewers_legal_actions():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    assert view_for(state, 0).legal_actions == ("pass", "order_up")
    assert view_for(state, 1).legal_actions == ()


def test_hand_is_shown_trump_first_highest_first_once_trump_is_known():
    state = position(hands=("9H JD AS JH TS KC", "9S"), trump="H", leader=0)
    assert view_for(state, 0).hand == ("JH", "JD", "9H", "KC", "AS", "TS")
    state = position(hands=("9H JD AS JH TS KC", "9S"), trump="S", leader=0)
    assert view_for(state, 0).hand == ("AS", "TS", "KC", "JD", "JH", "9H")


def test_the_stock_and_the_seed_never_reach_a_view():
    state = new_match(123456789)
    for seat in (0, 1, None):
        data = view_for(state, seat).as_dict()
        assert "seed" not in data and "stock" not in data
        assert "123456789" not in json.dumps(data)
        assert not codes_in(json.dumps(data)) & hidden_cards(state, seat)


def test_the_dealer_sees_the_discard_and_nobody_else_does():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    for text in ("order_up",):
        state = apply(state, action(0, text))
    state = apply(state, action(1, "take_up"))
    state = apply(state, action(1, "discard:AC"))
    assert view_for(state, 1).discard == "AC"
    assert "AC" not in codes_in(json.dumps(view_for(state, 0).as_dict()))
    assert "AC" not in codes_in(json.dumps(view_for(state, None).as_dict()))


def test_there_are_only_two_seats():
    with pytest.raises(ValueError, match="seat"):
        view_for(new_match(1), 2)


def test_a_view_as_plain_values_is_what_asdict_gives_through_whole_matches():
    # as_dict is hand-written for speed: it must give exactly dataclasses.asdict's values.
    rng = random.Random(5)
    for seed in range(4):
        state = new_match(seed)
        while not state.is_over:
            for seat in (0, 1, None):
                view = view_for(state, seat)
                assert repr(view.as_dict()) == repr(dataclasses.asdict(view))
            state = apply(state, rng.choice(legal_actions(state)))
