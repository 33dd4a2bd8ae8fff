"""Whole matches played by random seats, printed as a JSON Lines transcript (one line a hand).

    python -m games.engine.selfplay --seed S --matches N [--deck 24|32|25] [--target T]
        [--stick-the-dealer] [--dealer-must-take-up]

Every decision is drawn uniformly from the legal actions. ``main`` takes other policies too:
``python -m games.bots.selfplay`` passes the computer players (``--policy``), which the engine
does not know (they are built on it). The generator is seeded by S and each match's deal seed
comes from S and the match number, so the same arguments print the same lines.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from collections.abc import Callable, Iterator

from .cards import CODES, SUIT_CODES
from .rules import apply, deal, legal_actions, new_match
from .state import Action, ActionKind, HandResult, Rules, State

Policy = Callable[[State, random.Random], Action]


def random_policy(state: State, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def match_seed(seed: int, match: int) -> int:
    digest = hashlib.blake2b(f"selfplay:{seed}:{match}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play_match(
    seed: int, rules: Rules, rng: random.Random, policy: Policy = random_policy
) -> tuple[State, list[list[list[str]]]]:
    """Play one match; returns the final state and, per hand, the legal cards of every play."""
    state = new_match(seed, rules)
    legal_cards: list[list[list[str]]] = [[]]
    while not state.is_over:
        act = policy(state, rng)
        if act.kind is ActionKind.PLAY:
            legal_cards[-1].append(
                sorted(CODES[a.card] for a in legal_actions(state) if a.kind is ActionKind.PLAY)
            )
        number = state.hand_number
        state = apply(state, act)
        if state.hand_number != number:
            legal_cards.append([])
    return state, legal_cards


def transcript(
    match: int, seed: int, rules: Rules, state: State, legal_cards: list[list[list[str]]]
) -> Iterator[dict]:
    """The transcript lines of a finished match (the format is a fixed interface)."""
    score = [0, 0]
    results: list[HandResult] = list(state.results)
    for result in results:
        dealt = deal(seed, result.number, rules.deck)
        score[0] += result.points[0]
        score[1] += result.points[1]
        plays = iter(legal_cards[result.number])
        yield {
            "match": match,
            "hand": result.number,
            "rules": rules.as_dict(),
            "dealer": result.dealer,
            "hands": [[CODES[c] for c in dealt.hands[0]], [CODES[c] for c in dealt.hands[1]]],
            "upcard": CODES[dealt.upcard],
            "stock": [CODES[c] for c in dealt.stock],
            "bidding": [[a.seat, str(a)] for a in result.bids],
            "discard": None if result.discard is None else CODES[result.discard],
            "trump": None if result.trump is None else SUIT_CODES[result.trump],
            "maker": result.maker,
            "tricks": [
                {
                    "leader": trick.leader,
                    "plays": [[s, CODES[c], next(plays)] for s, c in trick.plays],
                    "winner": trick.winner,
                }
                for trick in result.tricks
            ],
            "points": list(result.points),
            "score": list(score),
            "winner": state.winner if result is results[-1] else None,
        }


def main(
    argv: list[str] | None = None,
    policies: dict[str, Policy] | None = None,
    prog: str = "python -m games.engine.selfplay",
) -> int:
    """The command line; ``policies`` (by name, ``random`` among them) adds ``--policy``."""
    policies = policies or {"random": random_policy}
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--deck", type=int, choices=(24, 32, 25), default=24)
    parser.add_argument("--target", type=int, default=10)
    parser.add_argument("--stick-the-dealer", action="store_true")
    parser.add_argument("--dealer-must-take-up", action="store_true")
    if len(policies) > 1:
        parser.add_argument("--policy", choices=sorted(policies), default="random")
    args = parser.parse_args(argv)
    if args.matches < 0:
        parser.error("--matches must be 0 or more")
    try:
        rules = Rules(
            deck=args.deck,
            target=args.target,
            stick_the_dealer=args.stick_the_dealer,
            dealer_must_take_up=args.dealer_must_take_up,
        )
    except ValueError as error:
        parser.error(str(error))
    rng = random.Random(args.seed)
    policy = policies[getattr(args, "policy", "random")]
    out = sys.stdout
    try:
        for match in range(args.matches):
            seed = match_seed(args.seed, match)
            state, legal_cards = play_match(seed, rules, rng, policy)
            for line in transcript(match, seed, rules, state, legal_cards):
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
        out.flush()
    except BrokenPipeError:
        # The reader (head, less) stopped early: not an error. Silence the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
