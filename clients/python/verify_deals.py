"""Check that a match record's deals come from its seed, with the standard library only.

    python verify_deals.py euchre-match-42.json

The record is the JSON a finished match exports (docs/EXPORT.md). This checks that the seed is
the one the match committed to before the first deal (its SHA-256 is the record's
``commitment``), then deals every hand from the seed the way docs/DEALS.md specifies and
compares each with the record's: the dealer, both hands, the upcard and the stock. It prints
OK and how many hands it checked, or the first hand and field that differ, and exits 1.
It imports nothing of the site: it is the specification written as a program.

As a module: ``verify_record(record)`` returns the number of hands checked or raises
``Mismatch``; ``deal(seed, hand_number, deck)`` and ``first_dealer(seed)`` give the deals.
"""

import hashlib
import json
import re
import sys

SUITS = "CDHS"
RANKS = "789TJQKA"
# Card ids: suit * 8 + rank (clubs, diamonds, hearts, spades; 7 8 9 T J Q K A), the joker 32.
CODES = [RANKS[card % 8] + SUITS[card // 8] for card in range(32)] + ["JK"]
DECKS = {
    24: [suit * 8 + rank for suit in range(4) for rank in range(2, 8)],
    32: [suit * 8 + rank for suit in range(4) for rank in range(8)],
}
DECKS[25] = DECKS[24] + [32]
PERSON = b"two-hand-euchre"


class Mismatch(ValueError):
    """The record disagrees with its seed, or is no record: ``hand`` (None for the record as
    a whole) and the ``field`` that differs, what the record has and what it should have."""

    def __init__(self, hand, field, found, expected, source="the seed gives"):
        self.hand, self.field, self.found, self.expected = hand, field, found, expected
        where = field if hand is None else f"hand {hand}, {field}"
        super().__init__(f"{where}: the record has {_shown(found)}, {source} {_shown(expected)}")


def _blake2b(message):
    return hashlib.blake2b(message, digest_size=32, person=PERSON).digest()


def commitment(seed):
    """SHA-256 of the seed's decimal digits, in lowercase hex."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def first_dealer(seed):
    """The seat that deals the first hand (hand 0); the deal then alternates."""
    return _blake2b(b"%d:first dealer" % seed)[0] & 1


def shuffled(seed, hand_number, deck):
    """The deck's card ids in the order hand ``hand_number`` deals them."""
    cards = list(DECKS[deck])
    x = int.from_bytes(_blake2b(b"%d:%d" % (seed, hand_number)), "big")
    n = len(cards)
    for i in range(n - 1):
        x, r = divmod(x, n - i)
        cards[i], cards[i + r] = cards[i + r], cards[i]
    return cards


def deal(seed, hand_number, deck=24):
    """Hand ``hand_number``'s deal as card codes: dealer, [seat 0's, seat 1's], upcard, stock."""
    codes = [CODES[card] for card in shuffled(seed, hand_number, deck)]
    dealer = first_dealer(seed) ^ (hand_number & 1)
    return dealer, [codes[0:5], codes[5:10]], codes[10], codes[11:]


def _shown(value):
    """A value as a message shows it: cards as codes with spaces, text as it is, else JSON."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " ".join(value)
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def verify_record(record):
    """Check a record's commitment and the deal of every hand it tells; returns how many hands
    it checked, or raises ``Mismatch`` at the first difference."""
    if not isinstance(record, dict) or record.get("format") != "euchre-record":
        found = record.get("format") if isinstance(record, dict) else None
        raise Mismatch(None, "format", found, "euchre-record", "expected")
    seed_text = record.get("seed")
    if not isinstance(seed_text, str) or not re.fullmatch(r"[0-9]+", seed_text):
        raise Mismatch(None, "seed", seed_text, "decimal digits", "expected")
    seed = int(seed_text)
    expected = commitment(seed)
    found = record.get("commitment")
    if not isinstance(found, str) or found.lower() != expected:
        raise Mismatch(None, "commitment", found, expected)
    rules = record.get("rules")
    deck = rules.get("deck") if isinstance(rules, dict) else None
    if type(deck) is not int or deck not in DECKS:
        raise Mismatch(None, "rules.deck", deck, "24, 25 or 32", "expected")
    hands = [] if record.get("hands") is None else record["hands"]
    if not isinstance(hands, list):
        raise Mismatch(None, "hands", hands, "a list of hands", "expected")
    for number, told in enumerate(hands):
        told = told if isinstance(told, dict) else {}
        if told.get("hand") != number:  # hands are told in order from hand 0, none left out
            raise Mismatch(number, "hand", told.get("hand"), number, "expected")
        dealer, dealt, upcard, stock = deal(seed, number, deck)
        seats = told.get("hands")
        seats = seats if isinstance(seats, list) and len(seats) == 2 else [None, None]
        for field, got, want in (
            ("dealer", told.get("dealer"), dealer),
            ("hands[0]", seats[0], dealt[0]),
            ("hands[1]", seats[1], dealt[1]),
            ("upcard", told.get("upcard"), upcard),
            ("stock", told.get("stock"), stock),
        ):
            if got != want or type(got) is not type(want):  # JSON's true is no seat
                raise Mismatch(number, field, got, want)
    return len(hands)


def main(argv):
    if len(argv) != 1:
        print("usage: python verify_deals.py record.json", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as file:
            record = json.load(file)
    except (OSError, ValueError) as error:
        print(f"cannot read {argv[0]}: {error}", file=sys.stderr)
        return 2
    try:
        count = verify_record(record)
    except Mismatch as mismatch:
        print(f"MISMATCH: {mismatch}", file=sys.stderr)
        return 1
    deck = record["rules"]["deck"]
    print(
        "OK: the seed is the one committed to and deals every hand of the record"
        f" (hands checked: {count}, deck {deck})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
