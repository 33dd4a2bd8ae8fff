"""The hard bot's solver agrees with brute force on every small position tried."""

from __future__ import annotations

import random

import pytest

from games.bots.solver import Solver, points_for_maker
from games.engine.cards import DECK_MASKS, EFFECTIVE_SUIT, POWER, SUIT_MASK, cards_in


def brute_force_tricks(hands, turn, lead, trump, maker):
    """Most tricks the maker can take from here: plain minimax over every line of play."""
    hand = hands[turn]
    if not hand:
        return 0
    if lead is None:
        moves = cards_in(hand)
    else:
        led = EFFECTIVE_SUIT[trump][lead]
        moves = cards_in(hand & SUIT_MASK[trump][led] or hand)
    results = []
    for card in moves:
        rest = list(hands)
        rest[turn] ^= 1 << card
        if lead is None:
            results.append(brute_force_tricks(tuple(rest), turn ^ 1, card, trump, maker))
        else:
            power = POWER[trump][EFFECTIVE_SUIT[trump][lead]]
            winner = turn if power[card] > power[lead] else turn ^ 1
            later = brute_force_tricks(tuple(rest), winner, None, trump, maker)
            results.append(later + (winner == maker))
    return max(results) if turn == maker else min(results)


def scores_as_brute_force(rng, cards: list[int], size: int, trump: int, maker: int, turn: int):
    """The seat to move holds the first ``size`` of ``cards``, the other the next ``size``; half
    the time it has led the last one already and the other seat follows. The solver's points
    from there are plain minimax's."""
    hands = [0, 0]
    for card in cards[:size]:
        hands[turn] |= 1 << card
    for card in cards[size : 2 * size]:
        hands[turn ^ 1] |= 1 << card
    lead = None
    if rng.random() < 0.5:
        lead = cards[-1]
        turn ^= 1
    made = rng.randint(0, 5 - size - (lead is not None))
    expected = points_for_maker(made + brute_force_tricks(hands, turn, lead, trump, maker))
    assert Solver(trump, maker).maker_points(tuple(hands), turn, lead, made) == expected


@pytest.mark.parametrize("deck", [24, 25, 32])
def test_the_solver_scores_small_positions_exactly_as_brute_force(deck):
    rng = random.Random(deck)
    for _ in range(300):
        size = rng.randint(1, 4)
        cards = rng.sample(cards_in(DECK_MASKS[deck]), 2 * size + 1)
        trump, maker, turn = rng.randrange(4), rng.randrange(2), rng.randrange(2)
        scores_as_brute_force(rng, cards, size, trump, maker, turn)


@pytest.mark.parametrize("deck", [24, 25])
def test_positions_full_of_runs_score_exactly_as_brute_force(deck):
    """Hands drawn from two suits and the joker, if any: most hold cards of one suit with no
    card of the other hand between them, of which the solver searches one."""
    rng = random.Random(deck + 100)
    for _ in range(200):
        trump, maker, turn = rng.randrange(4), rng.randrange(2), rng.randrange(2)
        suits = {trump, (trump + rng.randrange(1, 4)) % 4}
        pool = [c for c in cards_in(DECK_MASKS[deck]) if EFFECTIVE_SUIT[trump][c] in suits]
        size = rng.randint(2, 4)
        scores_as_brute_force(rng, rng.sample(pool, 2 * size + 1), size, trump, maker, turn)


def test_scoring_from_the_makers_side():
    assert [points_for_maker(t) for t in range(6)] == [-2, -2, -2, 1, 1, 2]
