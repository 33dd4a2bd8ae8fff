"""Cards, decks and the trump-dependent card order (docs/RULES.md, "Card order").

A card is a small int: ``suit * 8 + rank`` for the 32 suited cards, and 32 for the joker.
Hands are bit masks over those ints, so following suit is one ``&`` and a hand is a plain int.
Everything that depends on trump is a table built once at import.
"""

from __future__ import annotations

SUIT_CODES = "CDHS"
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
RANK_CODES = "789TJQKA"
RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
JACK = 4
JOKER = 32
NO_TRUMP = 4  # index into the trump tables before trump is set

DECKS: dict[int, tuple[int, ...]] = {
    24: tuple(s * 8 + r for s in range(4) for r in range(2, 8)),
    32: tuple(s * 8 + r for s in range(4) for r in range(8)),
}
DECKS[25] = DECKS[24] + (JOKER,)


def suit_of(card: int) -> int:
    """Printed suit; the joker has none (-1)."""
    return -1 if card == JOKER else card >> 3


def rank_of(card: int) -> int:
    return -1 if card == JOKER else card & 7


def same_colour(suit: int) -> int:
    """The other suit of the same colour: clubs/spades, diamonds/hearts."""
    return 3 - suit


def card_codes(cards) -> list[str]:
    return [CODES[c] for c in cards]


def parse_card(code: str) -> int:
    """Card int from a code such as ``JH`` or ``JK``; raises KeyError for an unknown code."""
    return CARD_BY_CODE[code.upper()]


def parse_cards(text: str) -> list[int]:
    """``"JH JD AH 9C TS"`` -> card ints, in order (the compact form tests build hands with)."""
    return [parse_card(code) for code in text.split()]


def card_name(card: int) -> str:
    if card == JOKER:
        return "the joker"
    return f"the {RANK_WORDS[card & 7]} of {SUIT_WORDS[card >> 3]}"


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# _BYTE_CARDS[i][b]: the cards whose bits are set in byte b of a mask, byte i (i = 0..4).
_BYTE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * i + bit for bit in range(8) if b >> bit & 1) for b in range(256))
    for i in range(5)
)


def cards_in(mask: int) -> tuple[int, ...]:
    """Card ints in a mask, low to high (clubs 7 first, the joker last)."""
    return join_by_byte(_BYTE_CARDS, mask)


def join_by_byte(table: tuple, mask: int) -> tuple:
    """``table[i][b]`` holds what stands for the bits of byte ``b`` at byte ``i`` of a mask;
    this joins the five entries a mask selects (five lookups, no loop over bits)."""
    b0, b1, b2, b3, b4 = table
    return (
        b0[mask & 255]
        + b1[mask >> 8 & 255]
        + b2[mask >> 16 & 255]
        + b3[mask >> 24 & 255]
        + b4[mask >> 32 & 255]
    )


CODES: tuple[str, ...] = tuple([RANK_CODES[c & 7] + SUIT_CODES[c >> 3] for c in range(32)] + ["JK"])
CARD_BY_CODE: dict[str, int] = {code: card for card, code in enumerate(CODES)}


def _effective_suit(card: int, trump: int) -> int:
    """The suit a card belongs to for following, leading and winning."""
    if trump == NO_TRUMP:
        return suit_of(card)
    if card == JOKER:
        return trump
    if rank_of(card) == JACK and suit_of(card) == same_colour(trump):
        return trump  # the left bower is trump, not a card of its printed suit
    return suit_of(card)


def _trump_power(card: int, trump: int) -> int:
    """Order within trump: joker > right bower > left bower > A K Q 10 9 8 7."""
    if card == JOKER:
        return 20
    if rank_of(card) == JACK:
        return 19 if suit_of(card) == trump else 18
    return rank_of(card)


# EFFECTIVE_SUIT[trump][card]; trump NO_TRUMP (4) gives the printed suit.
EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(c, t) for c in range(33)) for t in range(5)
)

# SUIT_MASK[trump][suit]: every card whose effective suit is `suit` when `trump` is trump.
SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask_of(c for c in range(33) if EFFECTIVE_SUIT[t][c] == s) for s in range(4))
    for t in range(5)
)

# POWER[trump][led][card]: a trump beats everything else, then the suit led, then nothing.
POWER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            100 + _trump_power(c, t)
            if EFFECTIVE_SUIT[t][c] == t
            else (1 + rank_of(c) if EFFECTIVE_SUIT[t][c] == led else 0)
            for c in range(33)
        )
        for led in range(4)
    )
    for t in range(4)
)


def sort_key(card: int, trump: int = NO_TRUMP) -> tuple[int, int]:
    """Display order: trump first, then the other suits; high card first within each."""
    suit = EFFECTIVE_SUIT[trump][card]
    if trump != NO_TRUMP and suit == trump:
        return (-1, -_trump_power(card, trump))
    return (4 if suit < 0 else suit, -rank_of(card))


DECK_MASKS: dict[int, int] = {size: mask_of(cards) for size, cards in DECKS.items()}
