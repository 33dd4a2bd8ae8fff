"""What the opponent's bids say of its hand: how likely each hand it may hold is, given them.

A player who passed the upcard rarely holds three of its suit; one who ordered it up rarely
holds one. The hard computer samples the opponent's hand from those consistent with what it has
seen (``seen``); this module weighs each sample by the chance that a player holding it would
have bid as the opponent did, under the medium bot's count of trumps and bowers made soft (a
hand a little under the bar still bids now and then, a real player's judgement differing from
the count), and draws the search's samples by those weights.

The opponent's hand at the time of its bids is the hand sampled now with the cards it has
played this hand added back (a dealer who took the upcard up is judged with it, as it judged
its own taking up). The analysis does not use this: "from what they knew" means every
consistent holding alike.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.engine.rules import dealer_stuck
from games.engine.view import View

from . import medium
from .seen import Seen, card, suit_index

SOFTNESS = 0.75  # in the count's units (an off-suit ace is 1.0, a trump ace 2.0)
FLOOR = 0.01  # no hand is ruled out: the opponent may bid unlike the count
CANDIDATES = 4  # hands drawn for each one the search keeps
ORDER_BAR = medium.MAKE_AT + medium.ORDER_MARGIN  # ordering up hands the dealer the upcard


def _bids_true(margin: float) -> float:
    """The chance that a hand ``margin`` over the bar bids."""
    return FLOOR + (1 - FLOOR) / (1 + math.exp(-margin / SOFTNESS))


def likelihood(view: View, seen: Seen) -> Callable[[int], float] | None:
    """A weight for each opponent hand (as held now): how well the opponent's bids this hand
    fit it. None when the opponent has made no call that says anything."""
    up = suit_index(view.upcard_suit)
    if up is None:  # the joker turned up and its suit not named yet: nothing was bid
        return None
    opponent = seen.opponent
    tests: list[Callable[[int], float]] = []
    upcard = seen.upcard
    stuck = dealer_stuck(view.rules["stick_the_dealer"], view.hand_number)
    passes = 0
    for seat, action in view.bids:
        if seat != opponent:
            continue
        if action == "pass":
            passes += 1
            tests.append(_passed(view, up, upcard, round_one=passes == 1, opponent=opponent))
        elif action == "order_up":
            tests.append(lambda h: _bids_true(medium.hand_worth(h, up) - ORDER_BAR))
        elif action == "accept":
            tests.append(lambda h: _bids_true(medium.hand_worth(h, up) - medium.MAKE_AT))
        elif action.startswith("name:") and not (stuck and view.dealer == opponent):
            s = suit_index(action.split(":")[1])
            tests.append(lambda h, s=s: _bids_true(medium.hand_worth(h, s) - medium.MAKE_AT))
    if not tests:
        return None
    played = 0
    for trick in [t.plays for t in view.tricks] + ([view.trick] if view.trick else []):
        for seat, code in trick:
            if seat == opponent:
                played |= 1 << card(code)

    def weight(hand: int) -> float:
        whole = hand | played
        w = 1.0
        for test in tests:
            w *= test(whole)
        return w

    return weight


def _passed(
    view: View, up: int, upcard: int, *, round_one: bool, opponent: int
) -> Callable[[int], float]:
    if round_one and view.dealer == opponent:
        # The dealer turned the upcard down: with it (less its worst card) it was short.
        def turned_down(h: int) -> float:
            taken = h | 1 << upcard
            kept = taken ^ 1 << medium.discard_choice(taken, up)
            return _bids_true(medium.MAKE_AT - medium.hand_worth(kept, up))

        return turned_down
    if round_one:
        return lambda h: _bids_true(ORDER_BAR - medium.hand_worth(h, up))
    # Round two: no suit but the turned-down one was worth naming.
    return lambda h: _bids_true(medium.MAKE_AT - medium.best_suit(h, up)[1])


def opponent_hands(view: View, seen: Seen, rng: random.Random, count: int) -> list[int]:
    """``count`` opponent hands for the search, drawn by how well they fit the opponent's
    bids (a hand may come more than once: its weight in the averages); without bids that say
    anything, ``seen.opponent_hands``."""
    weight = likelihood(view, seen)
    if weight is None:
        return seen.opponent_hands(rng, count)
    pool = seen.opponent_hands(rng, count * CANDIDATES)
    weights = [weight(h) for h in pool]
    total = sum(weights)
    # Systematic resampling: each hand kept about count * its share of the weight times.
    step = total / count
    at = rng.random() * step
    hands = []
    cumulative = 0.0
    for hand, w in zip(pool, weights, strict=True):
        cumulative += w
        while at < cumulative and len(hands) < count:
            hands.append(hand)
            at += step
    return hands or pool[:count]
