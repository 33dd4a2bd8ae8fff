"""What a seat knows of a hand, read from its view alone, and opponent hands consistent with it.

Everything here is built from ``games.engine.view.View``: the bot never holds the state, so it
cannot reach the opponent's hand or the stock even by mistake.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from math import comb

from games.engine.cards import CARD_BY_CODE, DECK_MASKS, EFFECTIVE_SUIT, SUIT_MASK, cards_in
from games.engine.view import View

SUITS = "CDHS"


def card(code: str) -> int:
    return CARD_BY_CODE[code]


def mask(codes) -> int:
    m = 0
    for code in codes:
        m |= 1 << CARD_BY_CODE[code]
    return m


def suit_index(code: str | None) -> int | None:
    return None if code is None else SUITS.index(code)


@dataclass(frozen=True)
class Seen:
    """One seat's knowledge of the current hand."""

    seat: int
    hand: int  # my cards
    trump: int | None
    upcard: int
    played: int  # every card played this hand, finished tricks and the current one
    opponent_holds: int  # cards the opponent must hold (the upcard it took up, until played)
    opponent_size: int
    unknown: int  # cards that may be in the opponent's hand or the stock
    opponent_void: int  # cards the opponent cannot hold: suits it failed to follow

    @property
    def opponent(self) -> int:
        return self.seat ^ 1

    def candidates(self) -> int:
        """Cards the opponent may hold besides those it must."""
        free = self.unknown & ~self.opponent_void
        if free.bit_count() < self.opponent_size - self.opponent_holds.bit_count():
            return self.unknown  # cannot happen with honest views; never fail a move over it
        return free

    def consistent(self) -> int:
        """How many opponent hands are consistent with what was seen."""
        need = self.opponent_size - self.opponent_holds.bit_count()
        free = self.candidates().bit_count()
        return comb(free, need) if 0 <= need <= free else 0

    def opponent_hands(self, rng: random.Random, count: int) -> list[int]:
        """Up to ``count`` opponent hands consistent with what was seen; every one of them
        when there are no more than ``count``, else a uniform sample."""
        need = self.opponent_size - self.opponent_holds.bit_count()
        pool = cards_in(self.candidates())
        if self.consistent() <= count:
            picks = itertools.combinations(pool, need)
        else:
            picks = (rng.sample(pool, need) for _ in range(count))
        hands = []
        for pick in picks:
            m = self.opponent_holds
            for c in pick:
                m |= 1 << c
            hands.append(m)
        return hands


def seen_from(view: View) -> Seen:
    seat = view.seat
    if seat is None:
        raise ValueError("A bot plays a seat: a spectator's view has nothing to decide")
    trump = suit_index(view.trump)
    hand = mask(view.hand)
    upcard = card(view.upcard)
    played = 0
    void = 0
    opponent = seat ^ 1
    plays = [t.plays for t in view.tricks] + ([view.trick] if view.trick else [])
    for trick in plays:
        for _, code in trick:
            played |= 1 << card(code)
        if trump is not None and len(trick) == 2:
            (_, lead), (follower, follow) = trick
            led = EFFECTIVE_SUIT[trump][card(lead)]
            if follower == opponent and EFFECTIVE_SUIT[trump][card(follow)] != led:
                void |= SUIT_MASK[trump][led]  # it could not follow the suit led
    holds = 0
    upcard_bit = 1 << upcard
    taken = view.upcard_fate == "taken_up" and view.dealer == opponent
    if taken and not played & upcard_bit and not void & upcard_bit:
        # The dealer took the upcard up. It may have discarded it, but a card it just chose
        # to take is almost never the one it throws: assume it still holds it, unless it has
        # shown out of the upcard's suit since (then it discarded it).
        holds = upcard_bit
    known = hand | played | upcard_bit
    if view.discard is not None:
        known |= 1 << card(view.discard)
    unknown = DECK_MASKS[view.rules["deck"]] & ~known
    return Seen(
        seat=seat,
        hand=hand,
        trump=trump,
        upcard=upcard,
        played=played,
        opponent_holds=holds,
        opponent_size=view.hand_sizes[opponent],
        unknown=unknown,
        opponent_void=void & ~holds,
    )
