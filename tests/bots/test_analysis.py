"""The match analysis: its values equal brute force, a bad move is flagged, the figures add up."""

from __future__ import annotations

import itertools
import random
from statistics import mean

import pytest

from games.bots import choose
from games.bots.analysis import (
    Decision,
    Option,
    accuracy,
    analyse,
    decide,
    flag_of,
    perfect_value,
)
from games.engine import Rules, apply, legal_actions, new_match, view_for
from games.engine.cards import DECK_MASKS, EFFECTIVE_SUIT, SUIT_MASK, cards_in
from games.engine.rules import STUCK_FROM_DEAL
from games.engine.state import Action, Phase, UpcardFate, evolve
from tests.support.positions import bidding


def brute_force(state, seat):
    """Points of the hand for ``seat`` less the opponent's: plain minimax over every legal
    action through the engine, to the end of the hand (no solver, no search shortcut)."""
    number = state.hand_number
    values = []
    for act in legal_actions(state):
        after = apply(state, act)
        if after.hand_number != number or after.is_over:
            points = after.results[-1].points
            values.append(points[seat] - points[seat ^ 1])
        else:
            values.append(brute_force(after, seat))
    return max(values) if state.turn == seat else min(values)


def brute_force_after(state, act, seat):
    after = apply(state, act)
    if after.hand_number != state.hand_number or after.is_over:
        points = after.results[-1].points
        return points[seat] - points[seat ^ 1]
    return brute_force(after, seat)


def late_positions(rules, cards_left, count, seed):
    """Play positions of random matches where the seat to act holds ``cards_left`` cards."""
    rng = random.Random(seed)
    found = []
    for number in itertools.count():
        state = new_match(seed * 1000 + number, rules)
        while not state.is_over and len(found) < count:
            if state.phase is Phase.PLAY and len(state.hand_cards(state.turn)) == cards_left:
                if len(legal_actions(state)) > 1:
                    found.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
        if len(found) >= count:
            return found


def consistent_hands(state, seat):
    """Every opponent hand that fits what ``seat`` has seen of this hand, worked out from the
    state's record: not a card it holds, saw played, saw turned up or discarded; none of a
    suit the opponent failed to follow; the upcard, if the opponent dealt and took it up and
    has not played it (the analysis assumes a dealer keeps the card it chose to take)."""
    opponent = seat ^ 1
    trump = state.trump
    played = [c for t in state.tricks for _, c in t.plays] + [c for _, c in state.trick]
    seen = state.hands[seat] | (1 << state.upcard)
    for c in played:
        seen |= 1 << c
    if state.dealer == seat and state.discard is not None:
        seen |= 1 << state.discard
    void = 0
    for trick in state.tricks:
        (_, lead), (follower, follow) = trick.plays
        led = EFFECTIVE_SUIT[trump][lead]
        if follower == opponent and EFFECTIVE_SUIT[trump][follow] != led:
            void |= SUIT_MASK[trump][led]
    must = 0
    taken = state.upcard_fate is UpcardFate.TAKEN_UP and state.dealer == opponent
    if taken and state.upcard not in played:
        must = 1 << state.upcard
        seen &= ~must
    pool = [c for c in cards_in(DECK_MASKS[state.rules.deck] & ~seen & ~must) if not void >> c & 1]
    size = len(state.hand_cards(opponent)) - must.bit_count()
    for pick in itertools.combinations(pool, size):
        hand = must
        for c in pick:
            hand |= 1 << c
        yield hand


@pytest.mark.parametrize("deck", [24, 25, 32])
def test_perfect_values_of_small_positions_equal_brute_force(deck):
    compared = 0
    for state in late_positions(Rules(deck=deck), cards_left=3, count=12, seed=deck):
        seat = state.turn
        for act in legal_actions(state):
            expected = brute_force_after(state, act, seat)
            assert perfect_value(apply(state, act), seat) == expected
            compared += 1
    assert compared >= 24


@pytest.mark.parametrize("bids", [(), ("pass",), ("pass", "pass")], ids=len)
def test_perfect_values_of_bids_equal_brute_force_through_the_whole_hand(bids):
    state = bidding(hands=("JH AD KS 9C TC", "QH KH AS QD 9S"), upcard="TH", dealer=1)
    for text in bids:
        state = apply(state, Action.parse(state.turn, text))
    seat = state.turn
    for act in legal_actions(state):
        assert perfect_value(apply(state, act), seat) == brute_force_after(state, act, seat)


@pytest.mark.parametrize("cards_left", [2, 3])
def test_known_values_of_small_positions_equal_brute_force_over_every_consistent_hand(
    cards_left,
):
    rules = Rules(deck=24)
    compared = 0
    for state in late_positions(rules, cards_left=cards_left, count=6, seed=cards_left):
        seat = state.turn
        hands = list(consistent_hands(state, seat))
        decision = decide(
            state, str(legal_actions(state)[0]), 0, random.Random(1), samples=len(hands), solvers={}
        )
        for option in decision.options:
            act = Action.parse(seat, option.action)
            outcomes = [
                brute_force_after(evolve(state, {"hands": _with(state, seat, h)}), act, seat)
                for h in hands
            ]
            assert option.known == pytest.approx(mean(outcomes))
            assert option.perfect == brute_force_after(state, act, seat)
            compared += 1
    assert compared >= 12


def _with(state, seat, opponent_hand):
    hands = list(state.hands)
    hands[seat ^ 1] = opponent_hand
    return tuple(hands)


def test_ordering_up_without_a_single_trump_is_flagged_as_a_blunder():
    """A scripted match: the non-dealer orders up holding no trump at all (no bower either),
    then both seats play on as the medium computer would, to 3 points."""
    rules = Rules(target=3)
    for seed in itertools.count(1):
        state = new_match(seed, rules)
        elder = state.turn
        trump = state.upcard_suit
        if not state.hands[elder] & SUIT_MASK[trump][trump]:
            break
    moves = [(elder, "order_up")]
    state = apply(state, Action.parse(elder, "order_up"))
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.turn
        text = choose("medium", view_for(state, seat), rng)
        moves.append((seat, text))
        state = apply(state, Action.parse(seat, text))
    decisions = analyse(seed, rules, moves, samples=60)
    first = decisions[0]
    assert (first.index, first.seat, first.chosen) == (0, elder, "order_up")
    assert first.flag == "blunder" and first.loss >= 1.0
    assert flag_of(first.loss) == ("blunder", "??")
    assert accuracy(decisions, elder).flags["blunder"] >= 1


def test_flags_follow_the_thresholds():
    assert flag_of(0.29) is None
    assert flag_of(0.3) == ("inaccuracy", "?!")
    assert flag_of(0.6) == ("mistake", "?")
    assert flag_of(0.99) == ("mistake", "?")
    assert flag_of(1.0) == ("blunder", "??")


def test_accuracy_is_the_share_within_a_tenth_of_the_best_and_the_average_loss():
    def made(seat, chosen, values):
        options = tuple(Option(a, v, 0) for a, v in values.items())
        return Decision(0, 0, seat, chosen, options)

    decisions = [
        made(0, "pass", {"pass": 0.5, "order_up": 0.55}),  # loss 0.05: accurate
        made(0, "pass", {"pass": -1.0, "order_up": 0.2}),  # loss 1.2: a blunder
        made(0, "play:JH", {"play:JH": 1.0, "play:9C": 0.6}),  # the best
        made(0, "play:9C", {"play:JH": 1.0, "play:9C": 0.6}),  # loss 0.4: an inaccuracy
        made(1, "leave", {"take_up": 0.0, "leave": -0.7}),  # the other seat's
    ]
    mine = accuracy(decisions, 0)
    assert (mine.decisions, mine.accurate) == (4, 2)
    assert mine.share == 0.5
    assert mine.average_loss == pytest.approx((0.05 + 1.2 + 0 + 0.4) / 4)
    assert mine.flags == {"blunder": 1, "mistake": 0, "inaccuracy": 1}
    theirs = accuracy(decisions, 1)
    assert (theirs.decisions, theirs.flags["mistake"], theirs.share) == (1, 1, 0.0)


def test_a_whole_match_is_analysed_decision_by_decision_the_same_each_time():
    rules = Rules(target=3)
    rng = random.Random(5)
    state = new_match(5, rules)
    moves = []
    while not state.is_over:
        act = rng.choice(legal_actions(state))
        moves.append((act.seat, str(act)))
        state = apply(state, act)
    decisions = analyse(5, rules, moves, samples=20)
    choices = [i for i in range(len(moves)) if len(legal_actions(_before(rules, moves, i))) > 1]
    assert [d.index for d in decisions] == choices
    assert decisions == analyse(5, rules, moves, samples=20)
    for d in decisions:
        assert d.chosen == moves[d.index][1] and d.seat == moves[d.index][0]
        assert d.loss == round(
            max(o.known for o in d.options)
            - next(o.known for o in d.options if o.action == d.chosen),
            2,
        )


def _before(rules, moves, index):
    state = new_match(5, rules)
    for seat, text in moves[:index]:
        state = apply(state, Action.parse(seat, text))
    return state


def test_a_marathon_is_analysed_whole_within_the_analysis_budget(monkeypatch):
    """Two players who pass whenever they may: 29 passed-out deals, then hands that score
    (the dealer is stuck from deal 30). Every decision is analysed, with fewer opponent hands
    each, so that the match's work (each hand searched weighed by its decision's cost) stays
    within WORK."""
    from games.bots import analysis, hard

    state = new_match(7)
    moves = []
    while not state.is_over:
        legal = legal_actions(state)
        act = next((a for a in legal if str(a) == "pass"), legal[0])
        moves.append((act.seat, str(act)))
        state = apply(state, act)
    assert STUCK_FROM_DEAL <= len(state.results) <= STUCK_FROM_DEAL - 1 + 19
    searched = []
    values = hard.values_by

    def counted(view, rng, samples, worths):
        searched.append(samples)
        return values(view, rng, samples, worths)

    monkeypatch.setattr(hard, "values_by", counted)
    monkeypatch.setattr(analysis, "WORK", 4000)
    monkeypatch.setattr(analysis, "MIN_SAMPLES", 2)
    decisions = analyse(7, Rules(), moves, samples=8)
    assert len(decisions) == len(searched)
    before, state = [], new_match(7)  # the phase of each move's decision
    for seat, text in moves:
        before.append(state.phase)
        state = apply(state, Action.parse(seat, text))
    phases = [before[d.index] for d in decisions]
    cost = sum(analysis.COST[phase] for phase in phases)
    assert cost * 8 > 4000  # more than 8 a decision would allow
    each = searched[0]
    assert set(searched) == {each} and cost * each <= 4000 < cost * (each + 1)
    assert {Phase.ROUND_ONE, Phase.ROUND_TWO, Phase.PLAY} <= set(phases)
    short = analyse(7, Rules(), moves[:40], samples=8)  # a short match keeps its 8
    assert searched[len(decisions) :] == [8] * len(short)
