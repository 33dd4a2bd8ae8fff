"""How long the task worker takes to analyse a whole match to 10 (``games.bots.analysis``).

Plays ``--matches`` matches to 10 between the hard and the medium computer (seats alternating,
each decision from the acting seat's view), then analyses each as the worker does (every
option in points and in chances to win the match, the best lines and reasons of the flagged
decisions, the hands' chances for the graph, the JSON it stores), and prints the CPU time per
match (median, p95, max) with the decisions analysed. Goal: under 10 s a match (the median,
and the p95 too) on the 2-core development machine. Then the puzzles the worker mines from
each analysis (``games.bots.puzzles``): the CPU it takes per match, and how many puzzles the
matches yield, by theme.

    python bench/analysis.py [--matches 50] [--seed 1] [--samples 300]
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose  # noqa: E402
from games.bots.analysis import SAMPLES, analyse, as_json, hand_starts  # noqa: E402
from games.bots.puzzles import THEMES, mine  # noqa: E402
from games.engine import Action, Rules, apply, new_match, view_for  # noqa: E402

GOAL_SECONDS = 10.0


def play(seed: int, seats: tuple[str, str]) -> list[tuple[int, str]]:
    rng = random.Random(seed)
    state = new_match(seed, Rules())
    moves = []
    while not state.is_over:
        seat = state.turn
        text = choose(seats[seat], view_for(state, seat), rng)
        moves.append((seat, text))
        state = apply(state, Action.parse(seat, text))
    return moves


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    args = parser.parse_args()
    seconds, decisions, moves, mining = [], [], [], []
    themes: collections.Counter = collections.Counter()
    for number in range(args.matches):
        seed = args.seed * 10_000 + number
        played = play(seed, ("hard", "medium") if number % 2 else ("medium", "hard"))
        start = time.process_time()
        found = analyse(seed, Rules(), played, samples=args.samples)
        as_json(found, hand_starts(seed, Rules(), played))
        seconds.append(time.process_time() - start)
        start = time.process_time()
        themes.update(p.theme for p in mine(seed, Rules(), played, found))
        mining.append(time.process_time() - start)
        decisions.append(len(found))
        moves.append(len(played))
    median, p95 = statistics.median(seconds), percentile(seconds, 0.95)
    print(f"{args.matches} matches to 10, hard against medium; samples {args.samples}")
    print(
        f"moves per match: median {statistics.median(moves):.0f}; decisions analysed "
        f"(two or more options): median {statistics.median(decisions):.0f}"
    )
    print(
        f"worker CPU per match: median {median:.2f} s, p95 {p95:.2f} s, "
        f"max {max(seconds):.2f} s (goal: median and p95 under {GOAL_SECONDS:.0f} s: "
        f"{'met' if p95 < GOAL_SECONDS else 'NOT met'})"
    )
    found = sum(themes.values())
    print(
        f"puzzles mined: {found} from {args.matches} matches ({found / args.matches:.1f} a match); "
        f"CPU per match: median {statistics.median(mining) * 1000:.0f} ms, "
        f"max {max(mining) * 1000:.0f} ms"
    )
    print("by theme: " + ", ".join(f"{t} {themes[t]}" for t in THEMES))


if __name__ == "__main__":
    main()
