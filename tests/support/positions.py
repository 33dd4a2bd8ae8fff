"""Positions built from compact card strings, the way python-chess builds boards from FEN.

position(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), trump="H", leader=0)
"""

from __future__ import annotations

import re

from games.engine import Rules, new_match
from games.engine.cards import CARD_BY_CODE, DECK_MASKS, mask_of, parse_cards
from games.engine.state import Phase, State, Trick, UpcardFate, evolve

CARD_CODE = re.compile(r"\b(?:[789TJQKA][CDHS]|JK)\b")


def suit(code: str) -> int:
    return "CDHS".index(code)


def position(
    *,
    hands: tuple[str, str],
    trump: str,
    leader: int = 0,
    dealer: int = 1,
    maker: int = 0,
    trick: str = "",
    tricks_won: tuple[int, int] = (0, 0),
    scores: tuple[int, int] = (0, 0),
    upcard: str = "9C",
    rules: Rules | None = None,
) -> State:
    """A state in the play phase: ``leader`` leads (or has led ``trick``, one card)."""
    played = parse_cards(trick)
    done = sum(tricks_won)
    # Finished tricks only need to be counted here; their cards do not matter to these tests.
    filler = tuple(Trick(0, ((0, 0), (1, 1)), 0 if i < tricks_won[0] else 1) for i in range(done))
    rules = rules or Rules()
    held = mask_of(parse_cards(hands[0])), mask_of(parse_cards(hands[1]))
    return evolve(
        new_match(1, rules),
        {
            "stock": _rest(rules, held[0] | held[1] | mask_of(played), upcard),
            "phase": Phase.PLAY,
            "dealer": dealer,
            "hands": held,
            "upcard": CARD_BY_CODE[upcard],
            "upcard_suit": suit(upcard[1]) if upcard != "JK" else suit(trump),
            "upcard_fate": UpcardFate.LEFT,
            "trump": suit(trump),
            "maker": maker,
            "leader": leader,
            "turn": leader ^ 1 if played else leader,
            "trick": tuple((leader, card) for card in played),
            "tricks": filler,
            "scores": scores,
        },
    )


def bidding(
    *, hands: tuple[str, str], upcard: str, dealer: int = 1, rules: Rules | None = None
) -> State:
    """A freshly dealt hand with these cards, before any bid."""
    joker = upcard == "JK"
    rules = rules or Rules()
    held = mask_of(parse_cards(hands[0])), mask_of(parse_cards(hands[1]))
    return evolve(
        new_match(1, rules),
        {
            "stock": _rest(rules, held[0] | held[1], upcard),
            "phase": Phase.NAME_JOKER if joker else Phase.ROUND_ONE,
            "dealer": dealer,
            "turn": dealer if joker else dealer ^ 1,
            "hands": held,
            "upcard": CARD_BY_CODE[upcard],
            "upcard_suit": None if joker else suit(upcard[1]),
        },
    )


def _rest(rules: Rules, used: int, upcard: str) -> int:
    return DECK_MASKS[rules.deck] & ~used & ~(1 << CARD_BY_CODE[upcard])


def codes_in(text: str) -> set[str]:
    """Every card code that appears in a text (a page, a pushed frame, a JSON view)."""
    return set(CARD_CODE.findall(text))
