"""Check a finished match's deals: anyone can, with the seed the replay reveals.

    python -m games.engine.verify --seed S --commitment C [--deck 24|32|25] [--hands N]

Before the first deal the match page shows the commitment, the SHA-256 of the seed (written
in decimal). Whoever has the seed afterwards can confirm that it is the one committed to, and
print every hand's deal: the same seed and deck always give the same cards.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import sys

from .cards import card_codes
from .rules import deal


def commitment(seed: int) -> str:
    """SHA-256 of the seed's decimal digits, in hex: shown to players before the first deal."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.verify", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--seed", type=int, required=True, help="the seed the replay reveals")
    parser.add_argument("--commitment", required=True, help="the SHA-256 shown during the match")
    parser.add_argument("--deck", type=int, choices=(24, 32, 25), default=24)
    parser.add_argument("--hands", type=int, default=10, help="how many deals to print")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error("a seed is a non-negative whole number")
    if not hmac.compare_digest(commitment(args.seed), args.commitment.strip().lower()):
        print("MISMATCH: this seed is not the one committed to", file=sys.stderr)
        return 1
    print(f"OK: SHA-256 of the seed is {commitment(args.seed)}")
    for number in range(args.hands):
        dealt = deal(args.seed, number, args.deck)
        hands = [" ".join(card_codes(hand)) for hand in dealt.hands]
        print(
            f"hand {number}: seat 0 {hands[0]} | seat 1 {hands[1]}"
            f" | upcard {card_codes([dealt.upcard])[0]} | stock {' '.join(card_codes(dealt.stock))}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
