"""The hint's reason follows the hand the way a teacher would put it."""

from __future__ import annotations

import random

from games.bots.hint import hint, why
from games.engine import view_for
from tests.support.positions import bidding, position


def test_both_bowers_order_it_up():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="9H", dealer=1)
    found = hint(view_for(state, 0), random.Random(1))
    assert found.action == "order_up"
    assert (found.reason, found.params) == ("both_bowers", {"suit": "H"})


def test_one_bower_and_the_other_trumps_are_counted_apart():
    state = bidding(hands=("JH AH KH 9C TS", "QS KS 9D TD AC"), upcard="9H", dealer=1)
    view = view_for(state, 0)
    assert why(view, "order_up") == ("bower_and_trumps", {"suit": "H", "count": 2})


def test_a_weak_hand_passes():
    state = bidding(hands=("9C TC 9S TS QD", "JH JD AH KH QH"), upcard="9H", dealer=1)
    assert hint(view_for(state, 0), random.Random(1)).reason == "pass_weak"


def test_a_card_that_wins_the_trick_and_one_that_cannot():
    state = position(hands=("AS 9C", "KS QH"), trump="H", leader=1, trick="KS")
    view = view_for(state, 0)
    assert why(view, "play:AS") == ("win", {"card": "AS"})
    state = position(hands=("9S 9C", "AS QH"), trump="H", leader=1, trick="AS")
    assert why(view_for(state, 0), "play:9S") == ("throw_low", {"card": "9S"})


def test_the_maker_is_told_to_lead_trump():
    state = position(hands=("JH 9C", "AS QS"), trump="H", leader=0, maker=0)
    assert why(view_for(state, 0), "play:JH") == ("lead_trump", {"card": "JH"})
