"""Computer players: legal, blind to hidden cards, and playing the way each strength promises."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.bots import STRENGTHS, choose
from games.bots.seen import seen_from
from games.engine import Rules, apply, legal_actions, new_match, view_for
from games.engine.cards import CODES, cards_in
from games.engine.state import Action
from games.engine.view import hidden_cards, shown_from_last_hand
from tests.support.positions import bidding, codes_in, position

RULE_SETS = [
    Rules(deck=24),
    Rules(deck=32),
    Rules(deck=25),
    Rules(deck=25, stick_the_dealer=True, dealer_must_take_up=True),
]


def positions(rules: Rules, matches: int, seed: int):
    """Every position of a few random matches (random seats move them on)."""
    rng = random.Random(seed)
    for number in range(matches):
        state = new_match(seed * 100 + number, rules)
        while not state.is_over:
            yield state
            state = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.deck}-{r.stick_the_dealer}")
def test_every_bot_only_ever_chooses_a_legal_action(rules):
    rng = random.Random(7)
    checked = 0
    for state in positions(rules, matches=4, seed=rules.deck):
        seat = state.turn
        legal = {str(a) for a in legal_actions(state)}
        for strength in STRENGTHS:
            assert choose(strength, view_for(state, seat), rng) in legal
        checked += 1
    assert checked > 100


def test_bots_play_whole_matches_against_each_other_to_the_end():
    rng = random.Random(3)
    for first, second in [("easy", "hard"), ("hard", "medium")]:
        state = new_match(11, Rules(target=5))
        while not state.is_over:
            strength = (first, second)[state.turn]
            act = choose(strength, view_for(state, state.turn), rng)
            state = apply(state, Action.parse(state.turn, act))
        assert max(state.scores) >= 5


def _values(obj):
    """Every value inside a view, however deeply nested."""
    if dataclasses.is_dataclass(obj):
        for field in dataclasses.fields(obj):
            yield from _values(getattr(obj, field.name))
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from _values(key)
            yield from _values(value)
    elif isinstance(obj, (tuple, list)):
        for value in obj:
            yield from _values(value)
    else:
        yield obj


def test_what_a_bot_is_given_holds_no_hidden_card():
    seen_views = []

    def spy(view, rng):
        seen_views.append(view)
        return rng.choice(view.legal_actions)

    rng = random.Random(5)
    for state in positions(Rules(deck=25), matches=2, seed=5):
        seat = state.turn
        spy(view_for(state, seat), rng)
        view = seen_views[-1]
        hidden = hidden_cards(state, seat) - shown_from_last_hand(state, seat)
        shown = set()
        for value in _values(view):
            assert not hasattr(value, "hands"), "a view must not carry a state"
            if isinstance(value, str):
                shown |= codes_in(value)
        assert not shown & hidden
        assert hidden, "the opponent's hand is always hidden"


def test_two_deals_that_look_the_same_from_a_seat_get_the_same_decision():
    # The stock and the opponent's hand differ; the seat's view does not: neither may the move.
    one = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH", dealer=1)
    other = bidding(hands=("JH JD AH 9C TS", "QD KD 9S TC AS"), upcard="KH", dealer=1)
    assert view_for(one, 0) == view_for(other, 0)
    for strength in STRENGTHS:
        assert choose(strength, view_for(one, 0), random.Random(1)) == choose(
            strength, view_for(other, 0), random.Random(1)
        )


def test_a_bot_does_not_decide_for_the_seat_that_is_waiting():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH", dealer=1)
    with pytest.raises(ValueError, match="whose turn it is"):
        choose("easy", view_for(state, 1), random.Random(1))


def test_the_seat_knows_the_opponent_is_void_in_a_suit_it_failed_to_follow():
    # Spades trump. Seat 0 led the ace of clubs; seat 1 threw a heart: it has no club.
    state = position(hands=("AC KD 9D", "TH 9H AD"), trump="S", leader=0)
    state = apply(state, Action.parse(0, "play:AC"))
    state = apply(state, Action.parse(1, "play:TH"))
    hands = [
        codes_of(hand)
        for hand in seen_from(view_for(state, 0)).opponent_hands(random.Random(2), 200)
    ]
    assert all(not hand & {"KC", "QC", "TC", "9C"} for hand in hands)
    # The jack of clubs is the left bower, a spade: it may still be there.
    assert any("JC" in hand for hand in hands)


def codes_of(mask: int) -> set[str]:
    return {CODES[c] for c in cards_in(mask)}


def test_the_dealer_who_took_the_upcard_is_assumed_to_hold_it():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH", dealer=1)
    state = apply(state, Action.parse(0, "pass"))
    state = apply(state, Action.parse(1, "accept"))
    state = apply(state, Action.parse(1, "discard:9D"))
    seen = seen_from(view_for(state, 0))
    hands = seen.opponent_hands(random.Random(3), 50)
    assert hands and all("KH" in codes_of(hand) for hand in hands)
    assert all(len(codes_of(hand)) == 5 for hand in hands)


# Medium: the rules of thumb.


def test_medium_orders_up_with_both_bowers_and_passes_with_nothing():
    strong = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH", dealer=1)
    weak = bidding(hands=("9C TC 9S TD QD", "QS KS 9D TH AC"), upcard="KH", dealer=1)
    assert choose("medium", view_for(strong, 0), random.Random(1)) == "order_up"
    assert choose("medium", view_for(weak, 0), random.Random(1)) == "pass"


def test_medium_leads_trump_when_it_made_trump():
    state = position(hands=("JH AH AC KD 9S", "QS KS 9D TH QC"), trump="H", leader=0, maker=0)
    assert choose("medium", view_for(state, 0), random.Random(1)) == "play:JH"


def test_medium_wins_a_trick_as_cheaply_as_it_can():
    state = position(hands=("KS 9S", "AS QS AH"), trump="H", leader=0, maker=0, trick="JS")
    assert choose("medium", view_for(state, 1), random.Random(1)) == "play:QS"


def test_medium_keeps_the_left_bower_and_gives_away_a_low_side_card():
    # Defending with no ace to cash: lead the lowest side card, not the left bower.
    state = position(hands=("JD KC 9S", "AS KS QH"), trump="H", leader=0, maker=1)
    assert choose("medium", view_for(state, 0), random.Random(1)) == "play:9S"


def test_medium_throws_off_its_lowest_side_card_when_it_cannot_win():
    state = position(hands=("AS KS", "9C TD"), trump="H", leader=0, maker=0, trick="AS")
    assert choose("medium", view_for(state, 1), random.Random(1)) == "play:9C"


# Hard: the exact search.


def test_hard_draws_the_last_trump_before_cashing_its_aces():
    # Hearts trump, hard (seat 0) made it and leads. Leading the right bower first pulls the
    # opponent's one trump and all five tricks follow (a march); an ace first lets it be ruffed.
    state = position(
        hands=("JH AS AC AD KD", "9H QS QC TD 9D"), trump="H", leader=0, maker=0, upcard="9C"
    )
    assert choose("hard", view_for(state, 0), random.Random(1)) == "play:JH"


def test_hard_orders_up_a_laydown_and_passes_a_hopeless_hand():
    laydown = bidding(hands=("JH JD AH KH QH", "QS KS 9D TH AC"), upcard="9H", dealer=1)
    hopeless = bidding(hands=("9C TC 9S TD QD", "QS KS 9D TH AC"), upcard="KH", dealer=1)
    assert choose("hard", view_for(laydown, 0), random.Random(1)) == "order_up"
    assert choose("hard", view_for(hopeless, 0), random.Random(1)) == "pass"
