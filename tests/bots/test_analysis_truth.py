"""The analysis tells the truth about itself: the chance tables were counted by today's hard
computer, each decision says how many opponent hands it searched, accuracy is one scale near
a match's end, and a puzzle's margin holds over every hand the opponent may hold when they
are few enough to search."""

from __future__ import annotations

import dataclasses
import json
import random

from games.bots import analysis, chance_counts, chances, choose
from games.bots.analysis import (
    CHANCE_FLAGS,
    CHANCE_PER_POINT,
    FLAGS,
    Decision,
    Option,
    accuracy,
    analyse,
    decide,
)
from games.bots.puzzles import EXACT_WORK, clear_best, confirmed, mine
from games.bots.seen import seen_from
from games.engine import Action, Rules, apply, legal_actions, new_match, view_for
from games.engine.state import Phase


def test_the_chance_tables_were_counted_by_todays_hard_computer():
    """A change to the hard computer's bidding or play (its search, its reading of bids, the
    medium rules of thumb it models the opponent with) changes this fingerprint: count the
    outcomes again (docs/GAMEPLAY.md, "Analysis": python -m games.bots.chance_counts
    --workers 2), which stores the new one."""
    stored = json.loads(chances.DATA.read_text())["fingerprint"]
    assert chance_counts.fingerprint() == stored, (
        "The hard computer plays differently from the one that counted games/bots/chances.json:"
        " recount with `python -m games.bots.chance_counts --workers 2`"
    )


def test_a_count_is_the_same_whatever_the_number_of_workers():
    """Each block of hands is dealt from its own seed: a recount on two cores gives the counts
    one core would."""
    parts = [chance_counts._chunk("24", 5, i, 1) for i in range(2)]
    assert all(sum(part.values()) == 1 for part in parts)
    assert parts[1] == chance_counts._chunk("24", 5, 1, 1)  # its own seed: the same alone


def _decision(options, graded, chosen):
    built = tuple(Option(a, k, p, kc, pc) for a, k, p, kc, pc in options)
    return Decision(0, 0, 0, chosen, built, graded)


def test_the_marks_grade_chances_at_one_rate_that_accuracy_uses():
    for (points, name, _mark), (chance, same, _m) in zip(FLAGS, CHANCE_FLAGS, strict=True):
        assert name == same and abs(chance - CHANCE_PER_POINT * points) < 1e-9


def _maker_at_nine_eight():
    """The maker's first choice of card (of several) in the first hand of the seeded deal 3
    (both seats the hard computer), with the scores set to 9-8 for the maker."""
    state = new_match(3, Rules())
    rng = random.Random(3)
    while not (
        state.phase is Phase.PLAY and state.maker == state.turn and len(legal_actions(state)) > 1
    ):
        seat = state.turn
        state = apply(state, Action.parse(seat, choose("hard", view_for(state, seat), rng)))
    return dataclasses.replace(state, scores=(9, 8) if state.turn == 0 else (8, 9))


def test_near_the_end_a_choice_that_loses_no_chance_to_win_loses_no_accuracy():
    """At 9-8 the maker makes the hand whatever it plays: the card that gives up the march
    loses points but no chance to win, and counts as accurate, with no loss."""
    state = _maker_at_nine_eight()
    first = decide(state, str(legal_actions(state)[0]), 0, random.Random(1), 60, {})
    worst = min(first.options, key=lambda o: o.known).action
    d = dataclasses.replace(first, chosen=worst)
    assert d.graded == "chances" and d.loss >= 0.6  # points lost: a mistake at 0-0
    assert all(o.known_chance == 1.0 for o in d.options)  # every card makes the hand
    assert d.chance_loss == 0 and d.flag is None
    assert d.accuracy_loss == 0
    figures = accuracy([d], d.seat)
    assert (figures.decisions, figures.accurate, figures.total_loss) == (1, 1, 0)
    assert figures.share == 1.0 and figures.average_loss == 0
    stored = analysis.as_json([d])
    assert stored["decisions"][0]["accuracy_loss"] == 0
    assert stored["accuracy"][d.seat]["accurate"] == 1


def test_near_the_end_the_chance_lost_counts_in_points_at_the_marks_rate():
    """3 in 100 lost is an inaccuracy and 0.3 points of accuracy; 1 in 100 is still accurate."""
    lost_three = _decision(
        [("order_up", 0.1, 1, 0.55, 0.6), ("pass", 0.9, -1, 0.52, 0.5)], "chances", "pass"
    )
    assert lost_three.loss == 0 and lost_three.chance_loss == 0.03  # by points, the best
    assert lost_three.flag == "inaccuracy" and lost_three.accuracy_loss == 0.3
    lost_one = _decision(
        [("order_up", 0.1, 1, 0.55, 0.6), ("pass", 0.9, -1, 0.54, 0.5)], "chances", "pass"
    )
    by_points = _decision(
        [("order_up", 1.2, 1, 0.55, 0.6), ("pass", 0.6, -1, 0.55, 0.5)], "points", "pass"
    )
    figures = accuracy([lost_three, lost_one, by_points], 0)
    assert figures.accurate == 1  # only the one that lost 1 in 100
    assert abs(figures.total_loss - (0.3 + 0.1 + 0.6)) < 1e-9
    assert figures.flags == {"blunder": 0, "mistake": 1, "inaccuracy": 1}


def _medium_match(seed: int, until: int):
    """The first ``until`` moves of a seeded match between two medium computers, and the state
    before the last of them."""
    rng = random.Random(seed)
    state = new_match(seed, Rules())
    moves = []
    for _ in range(until):
        before = state
        seat = state.turn
        text = choose("medium", view_for(state, seat), rng)
        moves.append((seat, text))
        state = apply(state, Action.parse(seat, text))
    return before, moves


def test_each_decision_says_how_many_opponent_hands_it_searched():
    """As many as the budget, or every consistent hand when there are fewer (late cards)."""
    _state, moves = _medium_match(2, 24)
    decisions = analyse(2, Rules(), moves, samples=100)
    assert analysis.budget(2, Rules(), moves, 100) == 100
    state, searched = new_match(2, Rules()), {}
    for seat, text in moves:
        if len(legal_actions(state)) > 1:
            searched[len(searched)] = min(100, seen_from(view_for(state, seat)).consistent())
        state = apply(state, Action.parse(seat, text))
    assert [d.samples for d in decisions] == list(searched.values())
    assert {d.samples for d in decisions} > {100}  # some searched every hand, fewer
    assert analysis.as_json(decisions, (), 100)["samples"] == 100


def test_a_long_match_stores_the_budget_it_was_searched_with(monkeypatch):
    _state, moves = _medium_match(2, 24)
    monkeypatch.setattr(analysis, "WORK", 300)
    monkeypatch.setattr(analysis, "MIN_SAMPLES", 2)
    each = analysis.budget(2, Rules(), moves, 100)
    assert 2 <= each < 100
    decisions = analyse(2, Rules(), moves, samples=100)
    assert max(d.samples for d in decisions) == each
    assert analysis.as_json(decisions)["samples"] == each


def test_a_puzzle_whose_sampled_margin_passes_and_exact_margin_fails_is_not_one():
    """Seed 1's ninth move, a card of the second trick: over 8 sampled opponent hands one card
    leads by 0.75 points; over all 105 the opponent may hold, by under 0.1."""
    seed = 1
    state, moves = _medium_match(seed, 9)
    seat, text = moves[-1]
    d = decide(state, text, 8, random.Random(f"{seed}:8"), 8, {})
    hands = seen_from(view_for(state, seat)).consistent()
    assert d.samples == 8 < hands and hands * analysis.COST[Phase.PLAY] <= EXACT_WORK
    assert clear_best(d) is not None and clear_best(d)[1] >= 0.5  # sampled: a puzzle
    exact = confirmed(state, d)
    assert exact.samples == hands
    assert clear_best(exact) is None  # exact: not one
    assert [o.perfect for o in exact.options] == [o.perfect for o in d.options]
    assert mine(1, Rules(), moves, [d]) == []
    # Searched whole already (the budget covers every hand): kept as it is.
    whole = decide(state, text, 8, random.Random(f"{seed}:8"), hands, {})
    assert confirmed(state, whole) is whole


def test_a_puzzle_the_exact_margin_confirms_keeps_the_exact_values():
    """The first seeded match whose ninth move is a sampled card that the exact margin
    confirms as a puzzle: the puzzle stores the exact values and margin."""
    for seed in range(2, 40):
        state, moves = _medium_match(seed, 9)
        if state.phase is not Phase.PLAY or len(legal_actions(state)) < 2:
            continue
        seat, text = moves[-1]
        d = decide(state, text, 8, random.Random(f"{seed}:8"), 8, {})
        exact = confirmed(state, d)
        if exact is d or clear_best(d) is None or clear_best(exact) is None:
            continue
        (found,) = mine(seed, Rules(), moves, [d])
        answer, margin = clear_best(exact)
        assert (found.answer, found.margin) == (answer, round(margin, 4))
        assert dict(found.options) == {o.action: o.known for o in exact.options}
        return
    raise AssertionError("no seeded card with a sampled and an exact clear best")
