"""A card and a suit in the viewer's words: the names, symbols and labels every page uses."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from ..engine import cards
from ..engine.cards import RANK_CODES, SUIT_CODES

# Symbols come from the engine's tables: one face of each card everywhere. The words are
# translated (the English ones are the engine's).
SUIT_NAMES = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}


SUIT_SYMBOLS = dict(zip(SUIT_CODES, cards.SUIT_SYMBOLS, strict=True))


RANK_LABELS = {code: "10" if code == "T" else code for code in RANK_CODES}


RANK_NAMES = {
    "7": pgettext_lazy("rank", "seven"),
    "8": pgettext_lazy("rank", "eight"),
    "9": pgettext_lazy("rank", "nine"),
    "T": pgettext_lazy("rank", "ten"),
    "J": pgettext_lazy("rank", "jack"),
    "Q": pgettext_lazy("rank", "queen"),
    "K": pgettext_lazy("rank", "king"),
    "A": pgettext_lazy("rank", "ace"),
}


@dataclass(frozen=True)
class Card:
    code: str

    @property
    def is_joker(self) -> bool:
        return self.code == "JK"

    @property
    def rank(self) -> str:
        return "★" if self.is_joker else RANK_LABELS[self.code[0]]

    @property
    def suit(self) -> str:
        return "" if self.is_joker else SUIT_SYMBOLS[self.code[1]]

    @property
    def suit_code(self) -> str:
        """The suit's letter, for the stylesheet's colours ("J" for the joker)."""
        return "J" if self.is_joker else self.code[1]

    @property
    def red(self) -> bool:
        return self.is_joker or self.code[1] in "DH"

    @property
    def label(self) -> str:
        """What a screen reader says for the card on its own."""
        return _("Joker") if self.is_joker else self.name

    @property
    def name(self) -> str:
        if self.is_joker:
            return _("the joker")
        rank, suit = RANK_NAMES[self.code[0]], SUIT_NAMES[self.code[1]]
        return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit}
