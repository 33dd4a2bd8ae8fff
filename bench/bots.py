"""The computer players against each other: win rates, and how long the hard bot thinks.

Every pair of strengths plays ``--matches`` whole matches to 10. Matches come in twins: the
same deal seed twice with the seats swapped, so luck of the cards cancels out as far as it can.
Each decision is made from the acting seat's view (``view_for``), as on the site.

    python bench/bots.py [--matches 200] [--seed 1] [--pairs medium:easy,hard:medium,hard:easy]
                         [--workers 2]

``hard-points`` is the hard computer as it was before it played for the match: by a hand's
points even near the target, every opponent hand consistent with what it saw counted alike.
``--pairs hard:hard-points --matches 1000`` measures what the two changes since are worth
together; ``hard-match`` (the match's chances near the target, no reading of the bids) and
``hard-reads`` (the bids read, points only) against ``hard-points`` measure each alone.

Prints, per pair, the first strength's wins with a 95% (Wilson) confidence interval, then the
hard bot's time per decision: median, p95 and max, over every decision and over the real ones
(two or more legal actions; a single legal action is answered at once).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import BOTS, hard  # noqa: E402
from games.engine import Action, Rules, apply, new_match, view_for  # noqa: E402

PLAYERS = {
    **BOTS,
    "hard-points": functools.partial(hard.choose, for_match=False, read_bids=False),
    "hard-match": functools.partial(hard.choose, read_bids=False),
    "hard-reads": functools.partial(hard.choose, for_match=False),
}
GOALS = {("medium", "easy"): 0.90, ("hard", "medium"): 0.65, ("hard", "hard-points"): 0.52}


def deal_seed(seed: int, twin: int) -> int:
    digest = hashlib.blake2b(f"bench-bots:{seed}:{twin}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play(seats: tuple[str, str], seed: int, rng: random.Random, clock: list) -> int:
    """One match; returns the winning seat. Appends (seconds, choices) of each hard decision."""
    state = new_match(seed, Rules())
    while not state.is_over:
        seat = state.turn
        view = view_for(state, seat)
        start = time.perf_counter()
        act = PLAYERS[seats[seat]](view, rng)
        if seats[seat].startswith("hard"):
            clock.append((time.perf_counter() - start, len(view.legal_actions)))
        state = apply(state, Action.parse(seat, act))
    return state.winner


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def twin(pair: tuple[str, str], seed: int, index: int) -> tuple[int, list]:
    """One deal played twice, the seats swapped: the first strength's wins, and the clock."""
    first, second = pair
    rng = random.Random(f"{seed}:{index}")
    clock: list[tuple[float, int]] = []
    deal = deal_seed(seed, index)
    wins = play((first, second), deal, rng, clock) == 0
    wins += play((second, first), deal, rng, clock) == 1
    return wins, clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="per pair (rounded up to even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default="medium:easy,hard:medium,hard:easy")
    parser.add_argument("--workers", type=int, default=1, help="processes (the twins split)")
    args = parser.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    twins = (args.matches + 1) // 2
    clock: list[tuple[float, int]] = []
    print(f"{'pair':<22} {'matches':>7} {'wins':>6} {'win rate':>9} {'95% CI':>15}  goal")
    with multiprocessing.Pool(args.workers) as pool:
        for first, second in pairs:
            started = time.perf_counter()
            work = functools.partial(twin, (first, second), args.seed)
            wins = 0
            for won, times in pool.imap(work, range(twins), chunksize=4):
                wins += won
                clock += times
            n = 2 * twins
            low, high = wilson(wins, n)
            goal = GOALS.get((first, second))
            verdict = ""
            if goal is not None:
                verdict = f">= {goal:.0%} {'met' if low >= goal else 'NOT met (CI)'}"
            print(
                f"{first + ' v ' + second:<22} {n:>7} {wins:>6} {wins / n:>9.1%} "
                f"{f'{low:.1%}-{high:.1%}':>15}  {verdict}"
                f"   ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    if clock:
        every = [t * 1000 for t, _ in clock]
        real = [t * 1000 for t, choices in clock if choices > 1]
        print()
        print("hard bot, ms per decision     median      p95      max   decisions")
        for name, times in (("every decision", every), ("two or more legal", real)):
            print(
                f"  {name:<26} {statistics.median(times):>7.1f} {percentile(times, 0.95):>8.1f}"
                f" {max(times):>8.1f} {len(times):>11}"
            )
        print(f"goal: p95 under 150 ms: {'met' if percentile(every, 0.95) < 150 else 'NOT met'}")


if __name__ == "__main__":
    main()
