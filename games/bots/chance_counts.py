"""The counts behind ``chances.json``: hands between two hard computers in self-play.

    python -m games.bots.chance_counts [--variant "24"] [--hands 2000] [--seed 1]

Each hand is dealt afresh (the first hand of a new match), played by two hard computers that
choose by a hand's points (not by the match: the counts are what the chances are made of), and
counted by its points for the dealer less the non-dealer's. Writes each variant's counts, how
many hands they rest on, and how far the chances to 10 may be off for lack of hands.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from games.engine.rules import apply, new_match
from games.engine.state import Action, Rules
from games.engine.view import view_for

from . import hard
from .chances import DATA, OUTCOMES, Chances, variant


def play_hand(seed: int, rules: Rules, rng: random.Random) -> int:
    """One hand between two hard computers choosing by points; its points for the dealer less
    the non-dealer's."""
    state = new_match(seed, rules)
    while state.hand_number == 0:
        seat = state.turn
        act = hard.choose(view_for(state, seat), rng, for_match=False)
        state = apply(state, Action.parse(seat, act))
    result = state.results[0]
    dealer = result.dealer
    return result.points[dealer] - result.points[dealer ^ 1]


def count(name: str, hands: int, seed: int) -> dict[str, int]:
    deck, *options = name.split()
    rules = Rules(
        deck=int(deck),
        stick_the_dealer="stick" in options,
        dealer_must_take_up="take" in options,
    )
    rng = random.Random(f"chances:{name}:{seed}")
    counts = dict.fromkeys(map(str, OUTCOMES), 0)
    for i in range(hands):
        counts[str(play_hand(rng.getrandbits(62) + i, rules, rng))] += 1
    return counts


def spread(counts: dict[str, int], target: int, draws: int = 200, seed: int = 0) -> float:
    """How far the chances may be off for lack of hands: the widest 95% interval (half of it)
    of the chance at any score, over ``draws`` redraws of the outcome shares from their
    posterior (a Dirichlet with the counts)."""
    rng = random.Random(seed)
    tables = []
    for _ in range(draws):
        g = {k: rng.gammavariate(counts[str(k)] + 1, 1) for k in OUTCOMES}
        total = sum(g.values())
        tables.append(Chances({k: g[k] / total for k in OUTCOMES}, target).table)
    widest = 0.0
    for a in range(target):
        for b in range(target):
            for d in (0, 1):
                values = sorted(t[a][b][d] for t in tables)
                low, high = values[int(0.025 * draws)], values[int(0.975 * draws) - 1]
                widest = max(widest, (high - low) / 2)
    return widest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.chance_counts", description=__doc__)
    parser.add_argument("--variant", action="append", help='e.g. "24" or "32 stick take"')
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    names = args.variant or [
        variant(deck, stick, take)
        for deck in (24, 25, 32)
        for stick in (False, True)
        for take in (False, True)
    ]
    data = json.loads(args.out.read_text()) if args.out.exists() else {"variants": {}}
    for name in names:
        start = time.process_time()
        counts = count(name, args.hands, args.seed)
        data["variants"][name] = {
            "hands": args.hands,
            "counts": counts,
            "seed": args.seed,
            "interval_to_10": round(spread(counts, 10), 4),
        }
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        seconds = time.process_time() - start
        print(f"{name}: {counts} in {seconds:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
