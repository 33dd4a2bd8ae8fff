"""A hint: the action the hard computer would take now, and why, as a reason code with facts.

The edge words it (``games.presentation.hints``). The reason is read off the hand the way a
teacher would put it (both bowers: order it up; you cannot win this trick: throw your lowest
card), not from the search, which only says which action scores best.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.engine.cards import EFFECTIVE_SUIT, JACK, JOKER, POWER, SUIT_MASK, same_colour
from games.engine.view import View

from . import hard
from .seen import SUITS, card, mask, suit_index


@dataclass(frozen=True)
class Hint:
    action: str
    reason: str  # a code: games.presentation.hints words it
    params: dict = field(default_factory=dict)  # card codes ("JH"), suit letters ("H"), counts


def hint(view: View, rng: random.Random) -> Hint:
    """What the hard computer would do in this seat's place, and why."""
    action = hard.choose(view, rng)
    reason, params = why(view, action)
    return Hint(action, reason, params)


def _bowers(hand: int, trump: int) -> tuple[bool, bool]:
    right = 8 * trump + JACK
    left = 8 * same_colour(trump) + JACK
    return bool(hand >> right & 1), bool(hand >> left & 1)


def _trumps(hand: int, trump: int) -> int:
    return (hand & SUIT_MASK[trump][trump]).bit_count()


def _strength(hand: int, trump: int) -> tuple[str, dict]:
    """Why a hand is worth making ``trump`` with."""
    right, left = _bowers(hand, trump)
    suit = {"suit": SUITS[trump]}
    if right and left:
        return "both_bowers", suit
    if right or left or hand >> JOKER & 1:  # the other trumps besides that top card
        return "bower_and_trumps", {**suit, "count": _trumps(hand, trump) - 1}
    return "trumps", {**suit, "count": _trumps(hand, trump)}


def why(view: View, action: str) -> tuple[str, dict]:
    kind, _sep, arg = action.partition(":")
    hand = mask(view.hand)
    up = suit_index(view.upcard_suit)
    if kind in ("order_up", "accept"):
        if kind == "accept":
            hand |= 1 << card(view.upcard)
        return _strength(hand, up)
    if kind == "take_up":
        return "take_up", {"card": view.upcard}
    if kind == "leave":
        return "leave", {"card": view.upcard}
    if kind == "name":
        return _strength(hand, suit_index(arg))
    if kind == "joker":
        return "joker", {"suit": arg}
    if kind == "pass":
        if view.phase == "round_one":
            return "pass_weak", {"suit": view.upcard_suit}
        return "pass_round_two", {}
    trump = suit_index(view.trump)
    c = card(arg)
    if kind == "discard":
        rest = hand ^ 1 << c
        led = EFFECTIVE_SUIT[trump][c]
        if led != trump and not rest & SUIT_MASK[trump][led]:
            return "discard_void", {"card": arg, "suit": SUITS[led]}
        return "discard_low", {"card": arg}
    if not view.trick:
        if EFFECTIVE_SUIT[trump][c] == trump and view.maker == view.seat:
            return "lead_trump", {"card": arg}
        return "lead", {"card": arg}
    lead = card(view.trick[0][1])
    power = POWER[trump][EFFECTIVE_SUIT[trump][lead]]
    if power[c] > power[lead]:
        return "win", {"card": arg}
    return "throw_low", {"card": arg}
