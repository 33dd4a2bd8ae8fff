"""Medium: the rules of thumb a decent player follows, and nothing more.

Bid on a count of trumps and bowers; as maker lead trump; win a trick as cheaply as possible;
throw off the lowest card of a side suit; keep the left bower. The hand evaluation and the
discard here are also the hard bot's model of how an opponent bids and discards.
"""

from __future__ import annotations

import random

from games.engine.cards import (
    CODES,
    EFFECTIVE_SUIT,
    JACK,
    JOKER,
    POWER,
    SUIT_MASK,
    cards_in,
    rank_of,
)
from games.engine.view import View

from .seen import SUITS, card, mask, suit_index

# What a card is worth to the maker when ``trump`` is trump. The weights and the threshold
# are a player's rules of thumb set by hand; bench/bots.py measures how well they play.
MAKE_AT = 5.5
ORDER_MARGIN = 0.8  # ordering up hands the dealer the upcard: ask for more
ACE = 7
KING = 6


def card_worth(c: int, trump: int) -> float:
    if c == JOKER:
        return 3.5
    if EFFECTIVE_SUIT[trump][c] == trump:
        if rank_of(c) == JACK:
            return 3.0 if c >> 3 == trump else 2.6
        return {ACE: 2.0, KING: 1.7}.get(rank_of(c), 1.3)
    return {ACE: 1.0, KING: 0.35}.get(rank_of(c), 0.0)


def hand_worth(hand: int, trump: int) -> float:
    worth = sum(card_worth(c, trump) for c in cards_in(hand))
    trumps = (hand & SUIT_MASK[trump][trump]).bit_count()
    if trumps >= 2:
        # A void in a side suit lets trumps take tricks the opponent's side cards would win.
        voids = sum(1 for s in range(4) if s != trump and not hand & SUIT_MASK[trump][s])
        worth += 0.4 * voids
    return worth


def discard_choice(hand: int, trump: int) -> int:
    """The card to throw after taking up: a low side card, from the shortest side suit (to
    make a void), never an ace if something else will do."""
    side = [c for c in cards_in(hand) if EFFECTIVE_SUIT[trump][c] != trump] or list(cards_in(hand))

    def keep(c: int) -> tuple:
        if EFFECTIVE_SUIT[trump][c] == trump:
            return (2, POWER[trump][trump][c])
        length = (hand & SUIT_MASK[trump][EFFECTIVE_SUIT[trump][c]]).bit_count()
        return (rank_of(c) == ACE, length, rank_of(c))

    return min(side, key=keep)


def best_suit(hand: int, exclude: int | None = None) -> tuple[int, float]:
    options = [(hand_worth(hand, s), s) for s in range(4) if s != exclude]
    worth, suit = max(options)
    return suit, worth


def wants_to_accept(hand: int, upcard: int, trump: int) -> bool:
    """The dealer, offered the upcard: take it (and discard) if the result is worth making."""
    taken = hand | 1 << upcard
    return hand_worth(taken ^ 1 << discard_choice(taken, trump), trump) >= MAKE_AT


def wants_to_order(hand: int, trump: int) -> bool:
    return hand_worth(hand, trump) >= MAKE_AT + ORDER_MARGIN


def wants_to_name(hand: int, turned_down: int | None, must: bool) -> int | None:
    suit, worth = best_suit(hand, turned_down)
    return suit if must or worth >= MAKE_AT else None


def play_choice(hand: int, legal: list[int], trump: int, lead: int | None, maker: bool) -> int:
    power_of = POWER[trump]
    if lead is None:
        trumps = [c for c in legal if EFFECTIVE_SUIT[trump][c] == trump]
        if maker and trumps:
            return max(trumps, key=lambda c: power_of[trump][c])  # draw the opponent's trumps
        aces = [c for c in legal if EFFECTIVE_SUIT[trump][c] != trump and rank_of(c) == ACE]
        if aces:
            return aces[0]
        return _lowest(legal, trump)
    led = EFFECTIVE_SUIT[trump][lead]
    power = power_of[led]
    winners = [c for c in legal if power[c] > power[lead]]
    if winners:
        return min(winners, key=lambda c: power[c])  # win as cheaply as possible
    return _lowest(legal, trump)


def _lowest(cards: list[int], trump: int) -> int:
    """The card to throw: side cards before trumps, low before high; the left bower last."""

    def cost(c: int) -> tuple:
        is_trump = EFFECTIVE_SUIT[trump][c] == trump
        return (is_trump, POWER[trump][trump][c] if is_trump else rank_of(c))

    return min(cards, key=cost)


def choose(view: View, rng: random.Random) -> str:
    legal = view.legal_actions
    hand = mask(view.hand)
    phase = view.phase
    seat = view.seat
    if phase == "name_joker":
        suit, _ = best_suit(hand | 1 << card("JK"))
        return f"joker:{SUITS[suit]}"
    if phase == "round_one":
        trump = suit_index(view.upcard_suit)
        upcard = card(view.upcard)
        if seat == view.dealer:
            return "accept" if wants_to_accept(hand, upcard, trump) else "pass"
        return "order_up" if wants_to_order(hand, trump) else "pass"
    if phase == "dealer_decides":
        return "take_up"  # the upcard is one more trump in the dealer's hand
    if phase == "discard":
        return f"discard:{CODES[discard_choice(hand, suit_index(view.trump))]}"
    if phase == "round_two":
        suit = wants_to_name(hand, suit_index(view.upcard_suit), "pass" not in legal)
        return "pass" if suit is None else f"name:{SUITS[suit]}"
    trump = suit_index(view.trump)
    cards = [card(a.split(":")[1]) for a in legal]
    lead = card(view.trick[0][1]) if view.trick else None
    return f"play:{CODES[play_choice(hand, cards, trump, lead, view.maker == seat)]}"
