"""Stored analyses built for tests, as the worker stores them (``analysis.as_json``)."""

from __future__ import annotations

import dataclasses
import random

from games.bots import analysis
from games.engine import Rules, new_match


def a_pass_at_nine_all() -> dict:
    """The analysis of one decision: the first player passes the first bid at 9–9 (the seeded
    deal 19), where the score makes ordering up the better choice to win the match."""
    state = new_match(19, Rules())
    decision = analysis.decide(
        dataclasses.replace(state, scores=(9, 9)), "pass", 0, random.Random(1), 100, {}
    )
    stored = analysis.as_json([decision])
    stored["hands"] = [{"index": 0, "hand": 0, "scores": [9, 9], "dealer": state.dealer,
                        "chance": 0.5, "over": False}]  # fmt: skip
    return stored
