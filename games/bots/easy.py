"""Easy: any legal action, uniformly at random."""

from __future__ import annotations

import random

from games.engine.view import View


def choose(view: View, rng: random.Random) -> str:
    return rng.choice(view.legal_actions)
