"""Chances to win the match: ``P(win | scores, dealer, target, rules)``.

One hand between two hard computers ends in one of five ways, seen from the dealer: the
dealer scores 2 or 1, nobody scores (passed out), the non-dealer scores 1 or 2. How often each
happens was counted in self-play, for every deck and bidding option (``chances.json``, made by
``python -m games.bots.chance_counts``: it records how many hands each count rests on, and how far
the chances may be off). The dealer changes every hand, so the chance of winning from any
score follows by dynamic programming over the scores, down from the target:

    W(a, b, I deal) = sum_k p[k] * W(a + mine(k), b + theirs(k), they deal)

with a passed-out hand leaving the scores and passing the deal (two equations, solved
together). Pure Python like the rest of ``games.bots``; the tables are made once per rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

from games.engine.state import Rules
from games.engine.view import View

DATA = Path(__file__).with_name("chances.json")
# A hand's points for the dealer less the non-dealer's: only one side scores in a hand.
OUTCOMES = (-2, -1, 0, 1, 2)


def variant(deck: int, stick_the_dealer: bool, dealer_must_take_up: bool) -> str:
    """A set of bidding rules as ``chances.json`` keys it: "24", "32 stick", "25 stick take"."""
    words = [str(deck)] + ["stick"] * stick_the_dealer + ["take"] * dealer_must_take_up
    return " ".join(words)


def _key(rules: Rules | dict) -> tuple[str, int]:
    r = rules.as_dict() if isinstance(rules, Rules) else rules
    return variant(r["deck"], r["stick_the_dealer"], r["dealer_must_take_up"]), r["target"]


@cache
def _data() -> dict:
    return json.loads(DATA.read_text())


def probabilities(counts: dict[str, int]) -> dict[int, float]:
    total = sum(counts.values())
    return {k: counts[str(k)] / total for k in OUTCOMES}


class Chances:
    """The chances of one variant and target: ``table[a][b][d]`` is the chance that the seat
    with ``a`` points, against ``b``, wins the match, when it deals the next hand (``d`` 1) or
    its opponent does (``d`` 0)."""

    def __init__(self, p: dict[int, float], target: int):
        self.target = target
        self.p = p
        t = target
        table = [[[0.0, 0.0] for _ in range(t)] for _ in range(t)]
        self.table = table

        def w(a: int, b: int, deal: int) -> float:
            if a >= t:
                return 1.0
            if b >= t:
                return 0.0
            return table[a][b][deal]

        for a in range(t - 1, -1, -1):
            for b in range(t - 1, -1, -1):
                # I deal: a dealer's k is mine; they deal: their k is theirs.
                mine = sum(p[k] * w(a + max(k, 0), b + max(-k, 0), 0) for k in OUTCOMES if k)
                theirs = sum(p[k] * w(a + max(-k, 0), b + max(k, 0), 1) for k in OUTCOMES if k)
                out = p[0]
                dealing = (mine + out * theirs) / (1 - out * out)
                table[a][b][1] = dealing
                table[a][b][0] = theirs + out * dealing

    def before(self, mine: int, theirs: int, dealing: bool) -> float:
        """The chance to win before a hand, with these scores, dealing it or not."""
        if mine >= self.target:
            return 1.0
        if theirs >= self.target:
            return 0.0
        return self.table[mine][theirs][int(dealing)]

    def after(self, mine: int, theirs: int, dealing: bool, points: int) -> float:
        """The chance to win once this hand (dealt by this seat or not) scored ``points`` for
        the seat, less its opponent's: the next hand is the other's to deal."""
        return self.before(mine + max(points, 0), theirs + max(-points, 0), not dealing)


@cache
def chances(rules_key: tuple[str, int]) -> Chances:
    name, target = rules_key
    return Chances(probabilities(_data()["variants"][name]["counts"]), target)


def for_rules(rules: Rules | dict) -> Chances:
    return chances(_key(rules))


def worth(view: View) -> Callable[[int], float]:
    """For the seat of ``view``: a hand's points (its own less its opponent's) as its chance
    to win the match once the hand is over."""
    c = for_rules(view.rules)
    seat = view.seat
    mine, theirs = view.scores[seat], view.scores[seat ^ 1]
    dealing = view.dealer == seat
    return lambda points: c.after(mine, theirs, dealing, points)


def near_the_end(view: View) -> bool:
    """Whether this hand can end the match: a seat is within a march of the target. Before
    that, a hand's points and the chance to win rank the options alike."""
    return max(view.scores) + 2 >= view.rules["target"]
