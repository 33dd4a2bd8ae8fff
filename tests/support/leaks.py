"""What a page or a pushed frame shows of the cards, every way a card can be shown."""

from __future__ import annotations

import re

from games.engine.cards import RANK_CODES, RANK_WORDS, SUIT_CODES, SUIT_WORDS
from games.engine.view import hidden_cards, shown_from_last_hand
from games.presentation.cards import RANK_LABELS, SUIT_SYMBOLS
from tests.support.positions import codes_in

FACE = re.compile(
    r'class="rank"[^>]*>([^<]*)</span><span class="suit"[^>]*>([^<]*)</span>'
)  # the card partial: rank then suit symbol
LABEL_TO_RANK = {label: code for code, label in RANK_LABELS.items()}
SYMBOL_TO_SUIT = {symbol: code for code, symbol in SUIT_SYMBOLS.items()}
RANK_NAMES = dict(zip(RANK_CODES, RANK_WORDS, strict=True))  # English: the suite's language
SUIT_NAMES = dict(zip(SUIT_CODES, SUIT_WORDS, strict=True))
NAME = re.compile(
    r"\b(" + "|".join(RANK_NAMES.values()) + r") of (" + "|".join(SUIT_NAMES.values()) + r")\b"
)
CHAT_FRAME = re.compile(r'<ol id="chat-news"[^>]*hx-swap-oob')  # a push, not the page's own
NAME_TO_CODE = {
    f"{rank} of {suit}": r + s for r, rank in RANK_NAMES.items() for s, suit in SUIT_NAMES.items()
}


def cards_shown(html: str) -> set[str]:
    """Every card a text names: codes (in data attributes, values, anywhere), faces drawn
    from the card partial (★ is the joker), and names ("ten of hearts")."""
    shown = codes_in(html)
    for rank, suit in FACE.findall(html):
        if rank == "★":
            shown.add("JK")
        elif rank in LABEL_TO_RANK and suit in SYMBOL_TO_SUIT:
            shown.add(LABEL_TO_RANK[rank] + SYMBOL_TO_SUIT[suit])
    shown.update(NAME_TO_CODE[m.group(0)] for m in NAME.finditer(html))
    return shown


class Scan:
    def __init__(self):
        self.states = {}  # version -> state, for every version of the current match
        self.responses = 0
        self.frames = 0
        self.moves = 0
        self.cards_seen = 0
        self.talks = 0  # rounds of talk at the table
        self.chat_frames = 0  # frames bringing lines of chat to a page (partials/chat_news.html)

    def check(self, text: str, seat: int | None, version: int, where: str) -> None:
        state = self.states[version]
        hidden = hidden_cards(state, seat) - shown_from_last_hand(state, seat)
        shown = cards_shown(text)
        leaked = shown & hidden
        assert not leaked, f"{where} (seat {seat}, version {version}) shows hidden {leaked}"
        self.cards_seen += len(shown)
        if CHAT_FRAME.search(text) and "data-chat=" in text:
            self.chat_frames += 1
