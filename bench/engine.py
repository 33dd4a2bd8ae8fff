"""Whole random hands per second through the engine's public API, on one core.

Each hand: the deal, every bidding call, the discard, five tricks and the scoring, with
``legal_actions`` generated before every decision and the decision applied with ``apply``.
Hands that pass out are dealt and bid too but are not counted as whole hands.

    python bench/engine.py [--seconds 2] [--repeats 5] [--deck 24]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Rules, apply, legal_actions, new_match  # noqa: E402
from games.engine.state import Phase  # noqa: E402


def play(rules: Rules, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Random matches for about ``seconds``: (whole hands, passed-out hands, actions, elapsed)."""
    rand = random.Random(seed).random
    over = Phase.MATCH_OVER
    whole = passed = actions = 0
    match = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_match(seed * 1_000_003 + match, rules)
        match += 1
        while state.phase is not over:
            legal = legal_actions(state)
            state = apply(state, legal[int(rand() * len(legal))])
        for result in state.results:  # counted afterwards, to keep the loop to the engine's work
            actions += len(result.bids) + 2 * len(result.tricks) + (result.discard is not None)
            if result.trump is None:
                passed += 1
            else:
                whole += 1
    return whole, passed, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--deck", type=int, choices=(24, 25, 32), default=None)
    args = parser.parse_args()
    decks = [args.deck] if args.deck else [24, 25, 32]
    print(f"python {sys.version.split()[0]}, {args.repeats} repeats of {args.seconds:g} s each")
    header = ("deck", "hands/s (median)", "min", "max", "actions/s", "passed out")
    print("{:>4} {:>17} {:>8} {:>8} {:>10} {:>10}".format(*header))
    for deck in decks:
        rules = Rules(deck=deck)
        play(rules, 0.3, 0)  # warm the caches
        rates, action_rates, passes = [], [], []
        for repeat in range(args.repeats):
            whole, passed, actions, elapsed = play(rules, args.seconds, repeat + 1)
            rates.append(whole / elapsed)
            action_rates.append(actions / elapsed)
            passes.append(passed / max(1, whole + passed))
        print(
            f"{deck:>4} {statistics.median(rates):>17,.0f} {min(rates):>8,.0f} {max(rates):>8,.0f}"
            f" {statistics.median(action_rates):>10,.0f} {statistics.median(passes):>10.1%}"
        )


if __name__ == "__main__":
    main()
