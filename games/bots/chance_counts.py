"""The counts behind ``chances.json``: hands between two hard computers in self-play.

    python -m games.bots.chance_counts --workers 2 [--variant "24"] [--hands N] [--seed 1]

Each hand is dealt afresh (the first hand of a new match), played by two hard computers that
choose by a hand's points (not by the match: the counts are what the chances are made of), and
counted by its points for the dealer less the non-dealer's. Writes each variant's counts, how
many hands they rest on, and how far the chances to 10 may be off for lack of hands; once
every variant is counted, the ``fingerprint`` of the hard computer that played them. They must
be counted again whenever the hard computer's bidding or play changes (a test compares the
fingerprint): 38 minutes of CPU for all twelve variants (8,000 hands for 24 cards, 1,200 for
each other), about 20 minutes on two idle cores.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import resource
import sys
import time
from pathlib import Path

from games.engine.rules import apply, new_match
from games.engine.state import Action, Rules
from games.engine.view import view_for

from . import hard
from .chances import DATA, OUTCOMES, Chances, variant


def play_hand(seed: int, rules: Rules, rng: random.Random, moves: list | None = None) -> int:
    """One hand between two hard computers choosing by points; its points for the dealer less
    the non-dealer's. Each action is appended to ``moves`` when given."""
    state = new_match(seed, rules)
    while state.hand_number == 0:
        seat = state.turn
        act = hard.choose(view_for(state, seat), rng, for_match=False)
        if moves is not None:
            moves.append(act)
        state = apply(state, Action.parse(seat, act))
    result = state.results[0]
    dealer = result.dealer
    return result.points[dealer] - result.points[dealer ^ 1]


def fingerprint() -> str:
    """What the counts were made by, in a few seconds: a hash of every action of one seeded
    hand of each variant played as the counts play them (a change to the hard computer's
    bidding or play, its reading of bids or its sampling, changes some action or the draws
    after it). Stored beside the counts; a test compares it with today's."""
    digest = hashlib.sha256()
    for name in variants():
        moves: list[str] = []
        rng = random.Random(f"fingerprint:{name}")
        play_hand(rng.getrandbits(62), rules_of(name), rng, moves)
        # The generator's next draw: how much the hand drew from it (how many hands searched).
        digest.update(f"{name}:{' '.join(moves)}:{rng.getrandbits(32)}\n".encode())
    return digest.hexdigest()[:16]


def variants() -> list[str]:
    """Every deck and bidding option, as ``chances.json`` keys them."""
    return [
        variant(deck, stick, take)
        for deck in (24, 25, 32)
        for stick in (False, True)
        for take in (False, True)
    ]


def rules_of(name: str) -> Rules:
    deck, *options = name.split()
    return Rules(
        deck=int(deck), stick_the_dealer="stick" in options, dealer_must_take_up="take" in options
    )


# Hands counted per variant: the default rules (24 cards) most, as most matches are played so.
HANDS_DEFAULT = 8000
HANDS = 1200
CHUNK = 100  # hands a task: each has its own generator, so the counts do not depend on --workers


def _chunk(name: str, seed: int, chunk: int, hands: int) -> dict[str, int]:
    """The counts of hands ``chunk * CHUNK`` on (``hands`` of them) of a variant."""
    rules = rules_of(name)
    rng = random.Random(f"chances:{name}:{seed}:{chunk}")
    counts = dict.fromkeys(map(str, OUTCOMES), 0)
    for _ in range(hands):
        counts[str(play_hand(rng.getrandbits(62), rules, rng))] += 1
    return counts


def count(name: str, hands: int, seed: int, workers: int = 1) -> dict[str, int]:
    """The outcome counts of ``hands`` hands of the variant ``name``: the same whatever the
    number of worker processes (each block of ``CHUNK`` hands is dealt from its own seed)."""
    blocks = [(i, min(CHUNK, hands - i * CHUNK)) for i in range(-(-hands // CHUNK))]
    work = [(name, seed, i, n) for i, n in blocks]
    counts = dict.fromkeys(map(str, OUTCOMES), 0)
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.starmap(_chunk, work, chunksize=1)
    else:
        parts = [_chunk(*w) for w in work]
    for part in parts:
        for k, n in part.items():
            counts[k] += n
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


def _cpu() -> float:
    """CPU seconds of this process and its finished workers."""
    return sum(
        r.ru_utime + r.ru_stime
        for r in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.chance_counts", description=__doc__)
    parser.add_argument("--variant", action="append", help='e.g. "24" or "32 stick take"')
    parser.add_argument(
        "--hands",
        type=int,
        help=f"per variant (default: {HANDS_DEFAULT} for 24 cards, else {HANDS})",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--workers", type=int, default=1, help="processes (the hands split)")
    args = parser.parse_args(argv)
    names = args.variant or variants()
    data = json.loads(args.out.read_text()) if args.out.exists() else {"variants": {}}
    for name in names:
        hands = args.hands or (HANDS_DEFAULT if name == "24" else HANDS)
        start, cpu = time.perf_counter(), _cpu()
        counts = count(name, hands, args.seed, args.workers)
        data["variants"][name] = {
            "hands": hands,
            "counts": counts,
            "seed": args.seed,
            "interval_to_10": round(spread(counts, 10), 4),
        }
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        wall, cpu = time.perf_counter() - start, _cpu() - cpu
        print(f"{name}: {counts} in {wall:.0f} s ({cpu:.0f} s of CPU)", flush=True)
    if set(names) >= set(variants()):
        data["fingerprint"] = fingerprint()
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    else:  # the others were counted by whatever computer counted them
        print("Not every variant was counted: the stored fingerprint is left as it was.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
