"""Mining puzzles from an analysis: exactly the decisions with one clearly best option that
the cards confirm, never a forced move or the last trick, each with its theme."""

from __future__ import annotations

import random

from games.bots import choose
from games.bots.analysis import Decision, Option, analyse
from games.bots.puzzles import CHANCE_MARGIN, MARGIN, THEMES, clear_best, confirmed, mine, theme
from games.engine import Action, Rules, apply, legal_actions, new_match, view_for
from games.engine.state import Phase


def _decision(options, graded="points", chosen=None):
    built = tuple(Option(a, k, p, kc, pc) for a, k, p, kc, pc in options)
    return Decision(0, 0, 0, chosen or built[0].action, built, graded)


def test_a_clear_best_that_the_cards_confirm_is_a_puzzle():
    d = _decision([("order_up", 1.2, 1, 0.6, 0.6), ("pass", 0.6, -1, 0.55, 0.5)])
    assert clear_best(d) == ("order_up", 1.2 - 0.6)


def test_a_margin_under_half_a_point_is_not():
    d = _decision([("order_up", 1.0, 1, 0.6, 0.6), ("pass", 1.0 - MARGIN + 0.01, -1, 0.5, 0.5)])
    assert clear_best(d) is None


def test_a_best_that_the_cards_refute_is_not():
    """Best from what the seat knew, but with every card known another option does better."""
    d = _decision([("play:AS", 1.5, 1, 0.6, 0.6), ("play:9S", 0.2, 2, 0.5, 0.7)])
    assert clear_best(d) is None
    tied = _decision([("play:AS", 1.5, 2, 0.6, 0.7), ("play:9S", 0.2, 2, 0.5, 0.7)])
    assert clear_best(tied) == ("play:AS", 1.3)  # tied with every card known: still one


def test_near_the_end_the_margin_is_in_chances():
    by_points = [("order_up", 1.2, 1, 0.51, 0.6), ("pass", 0.2, -1, 0.5, 0.5)]
    assert clear_best(_decision(by_points, "chances")) is None  # a point, but 1 in 100
    by_chances = [("order_up", 0.3, 1, 0.5 + CHANCE_MARGIN, 0.6), ("pass", 0.2, -1, 0.5, 0.5)]
    assert clear_best(_decision(by_chances, "chances"))[0] == "order_up"
    assert clear_best(_decision(by_chances, "points")) is None  # 0.1 points


def test_a_forced_move_is_no_puzzle():
    assert clear_best(_decision([("play:AS", 1.0, 1, 0.6, 0.6)])) is None


def _match(seed: int, rules: Rules):
    rng = random.Random(seed)
    state = new_match(seed, rules)
    moves = []
    while not state.is_over:
        seat = state.turn
        text = choose("medium" if seat else "easy", view_for(state, seat), rng)
        moves.append((seat, text))
        state = apply(state, Action.parse(seat, text))
    return moves


def test_mining_a_match_takes_exactly_the_decisions_that_meet_the_rule():
    rules = Rules(target=5)
    seen = set()
    for seed in (1, 2, 3):
        moves = _match(seed, rules)
        decisions = analyse(seed, rules, moves, samples=40)
        found = {f.index: f for f in mine(seed, rules, moves, decisions)}
        state = new_match(seed, rules)
        by_index = {d.index: d for d in decisions}
        for index, (seat, text) in enumerate(moves):
            d = by_index.get(index)
            last_trick = state.phase is Phase.PLAY and len(state.tricks) >= 4
            # Confirmed over every hand the opponent may hold, where they are few enough.
            exact = confirmed(state, d) if d is not None and clear_best(d) else d
            expected = exact is not None and clear_best(exact) is not None and not last_trick
            assert (index in found) == expected, (seed, index)
            if index in found:
                f = found[index]
                assert len(legal_actions(state)) > 1 and f.seat == seat == state.turn
                assert f.answer == clear_best(exact)[0] and f.theme == theme(state, f.answer)
                assert f.theme in THEMES
                seen.add(f.theme)
                # The rest of the hand after the answer, legal move after move.
                after = apply(state, Action.parse(seat, f.answer))
                for mover, move in f.line:
                    after = apply(after, Action.parse(mover, move))
                assert after.hand_number > state.hand_number or after.is_over
            state = apply(state, Action.parse(seat, text))
    assert len(seen) >= 3  # puzzles of several kinds
