"""Chances to win the match: the model, the hard computer that plays for the match, and the
analysis graded on chances once a hand can end the match."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from games.bots import chances, hard
from games.bots.analysis import decide, line, perfect_value
from games.bots.chances import OUTCOMES, Chances, for_rules
from games.engine import Rules, apply, legal_actions, new_match, view_for
from games.engine.state import Action, Phase

VARIANTS = [
    chances.variant(deck, stick, take)
    for deck in (24, 25, 32)
    for stick in (False, True)
    for take in (False, True)
]


def test_the_data_has_every_variant_with_its_hands_and_how_far_off_it_may_be():
    data = json.loads(chances.DATA.read_text())["variants"]
    assert sorted(data) == sorted(VARIANTS)
    for name in VARIANTS:
        v = data[name]
        assert sum(v["counts"].values()) == v["hands"] >= 1000
        assert 0 < v["interval_to_10"] < 0.05  # the widest 95% half-interval at any score
    assert data["24"]["hands"] >= 5000  # the default rules rest on the most hands
    # Stick the dealer: no hand is ever passed out.
    assert all(data[n]["counts"]["0"] == 0 for n in VARIANTS if "stick" in n)


@pytest.mark.parametrize("target", [5, 10, 11])
def test_the_chances_solve_the_equations_they_come_from(target):
    """Each entry is the average of what the next hand leads to, by the outcome shares, and
    the two seats' chances add up to one (somebody wins)."""
    model = for_rules(Rules(target=target))
    p = model.p
    assert sum(p.values()) == pytest.approx(1)
    for a, b in itertools.product(range(target), repeat=2):
        for dealing in (True, False):
            sign = 1 if dealing else -1
            expected = sum(p[k] * model.after(a, b, dealing, sign * k) for k in OUTCOMES)
            assert model.before(a, b, dealing) == pytest.approx(expected, abs=1e-12)
            assert model.before(a, b, dealing) + model.before(b, a, not dealing) == (
                pytest.approx(1, abs=1e-12)
            )
        assert model.before(a, b, True) <= model.before(min(a + 1, target), b, True) + 1e-12


def test_a_hand_that_can_end_the_match_is_worth_its_chances_not_its_points():
    model = for_rules(Rules())
    # At 9-8 a march wins no more than a make; a euchre at 7-8 hands over the match.
    assert model.after(9, 8, True, 2) == model.after(9, 8, True, 1) == 1.0
    assert model.after(7, 8, False, -2) == 0.0 < model.after(7, 8, False, -1)
    # At the start a point is worth about 7 in 100, a march about twice that.
    one = model.after(0, 0, True, 1) - model.after(0, 0, True, 0)
    two = model.after(0, 0, True, 2) - model.after(0, 0, True, 0)
    assert 0.05 < one < 0.1 and 1.7 < two / one < 2.2
    # Dealing is worth something: the dealer may take the upcard.
    assert model.before(0, 0, True) > 0.5 > model.before(0, 0, False)


def test_the_model_is_the_same_from_an_equal_table_of_made_up_shares():
    even = Chances({-2: 0.2, -1: 0.3, 0: 0.0, 1: 0.3, 2: 0.2}, 3)
    assert even.before(0, 0, True) == pytest.approx(0.5)
    # 2-2 to 3: whoever scores wins; nobody passes the hand out.
    assert even.before(2, 2, True) == pytest.approx(0.5)
    # 2-0 to 3, dealing: any point of mine wins (0.5), else they score 1 or 2 (0.5) and
    # then it is 2-1 or 2-2 with them to deal... computed by hand: 0.5 + 0.3 * W(2,1,deal)
    # + 0.2 * W(2,2,deal).
    w21 = even.before(2, 1, True)
    assert even.before(2, 0, True) == pytest.approx(0.5 + 0.3 * w21 + 0.2 * 0.5)


def _at(seed: int, moves: list[str], scores: tuple[int, int]):
    state = new_match(seed, Rules())
    for text in moves:
        state = apply(state, Action.parse(state.turn, text))
    seat = state.turn
    mine = scores if seat == 0 else scores[::-1]
    return view_for(dataclasses.replace(state, scores=mine), seat)


def test_the_hard_computer_orders_up_a_risky_hand_when_only_a_make_saves_the_match():
    """9-9, the first call: passing lets the dealer take the upcard and very likely win;
    by points the hand is not worth ordering, by chances it is."""
    at_the_start, at_the_end = _at(19, [], (0, 0)), _at(19, [], (9, 9))
    rng = random.Random
    assert hard.choose(at_the_start, rng(1)) == "pass"
    assert hard.choose(at_the_end, rng(1), for_match=False) == "pass"
    assert hard.choose(at_the_end, rng(1)) == "order_up"
    by_points, by_chances = hard.values_by(
        at_the_end, rng(1), 40, (hard.points, chances.worth(at_the_end))
    )
    assert by_points["pass"] > by_points["order_up"]
    assert by_chances["order_up"] > by_chances["pass"]


def test_the_hard_computer_passes_a_hand_out_when_a_euchre_would_lose_the_match():
    """The dealer in round two at 6-8: naming diamonds is worth points on average, but a
    euchre gives the opponent the match; passing the hand out keeps it going. (Every hand the
    opponent may hold counted alike: naming is close to passing out at 0-0, and which way the
    samples read the opponent's passes tips it is not what this test is about.)"""
    moves = ["pass", "pass", "pass"]
    assert hard.choose(_at(36, moves, (0, 0)), random.Random(1), read_bids=False) == "name:D"
    at_the_end = _at(36, moves, (6, 8))
    assert at_the_end.phase == "round_two" and at_the_end.seat == at_the_end.dealer
    assert hard.choose(at_the_end, random.Random(1), for_match=False, read_bids=False) == "name:D"
    assert hard.choose(at_the_end, random.Random(1), read_bids=False) == "pass"


def _maker_play(seed: int):
    """The first card the maker chooses among several in the first hand, both seats playing
    as the hard computer."""
    state = new_match(seed, Rules())
    rng = random.Random(seed)
    while True:
        seat = state.turn
        legal = legal_actions(state)
        if state.phase is Phase.PLAY and len(legal) > 1 and state.maker == seat:
            return state
        state = apply(state, Action.parse(seat, hard.choose(view_for(state, seat), rng)))


def test_at_9_8_a_make_instead_of_a_march_is_no_mistake():
    """The maker's first choice of card in a first hand, where the worst card makes the hand
    but gives up the march."""
    for seed in itertools.count(1):
        state = _maker_play(seed)
        early = decide(state, str(legal_actions(state)[0]), 0, random.Random(1), 60, {})
        worst = min(early.options, key=lambda o: o.known).action
        early = dataclasses.replace(early, chosen=worst)
        if not early.flag:
            continue
        seat = state.turn
        near = dataclasses.replace(state, scores=(9, 8) if seat == 0 else (8, 9))
        late = decide(near, worst, 0, random.Random(1), 60, {})
        if all(o.known_chance == 1.0 for o in late.options):  # every card makes the hand
            break
    assert early.graded == "points" and early.loss >= 0.3  # at 0-0: points lost, flagged
    assert late.graded == "chances"
    assert late.loss == early.loss  # as many points lost
    assert late.chance_loss == 0.0 and late.flag is None  # but the match is won either way


def test_a_best_line_is_the_rest_of_the_hand_played_perfectly_and_scores_its_value():
    for seed in range(1, 9):
        state = _maker_play(seed)
        seat = state.turn
        for option in legal_actions(state):
            found = line(state, str(option), seat, {})
            after = apply(state, option)
            assert found.points == perfect_value(after, seat, number=state.hand_number)
            for mover, text in found.moves:  # legal, one move after another
                assert after.turn == mover
                after = apply(after, Action.parse(mover, text))
            assert after.hand_number == state.hand_number + 1 or after.is_over
            result = after.results[-1]
            assert found.tricks == result.tricks_won[seat]
            assert found.points == result.points[seat] - result.points[seat ^ 1]


def test_a_choice_the_score_makes_wrong_says_so():
    """9-9, the first call of seed 19: passing is worth more points on average, ordering up a
    better chance to win (whoever scores wins the match)."""
    state = new_match(19, Rules())
    seat = state.turn
    at_9_9 = dataclasses.replace(state, scores=(9, 9))
    d = decide(at_9_9, "pass", 0, random.Random(1), 100, {})
    options = {o.action: o for o in d.options}
    assert options["pass"].known > options["order_up"].known
    assert options["order_up"].known_chance > options["pass"].known_chance
    assert (d.graded, d.loss, d.flag, d.best_action) == ("chances", 0.0, "inaccuracy", "order_up")
    assert d.reason == ("for_the_match", {"instead": "pass"})
    assert [line.after for line in d.lines] == ["order_up", "pass"]
    assert seat == d.seat
