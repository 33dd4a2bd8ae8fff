"""Computer players. Pure Python like the engine: a bot sees a seat's view and nothing else.

    choose("hard", view_for(state, seat), rng) -> "play:JH"

A bot is a function from a view (``games.engine.view_for``) and a random generator to the text
of one of ``view.legal_actions``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.state import Action, State
from games.engine.view import View, view_for

from . import easy, hard, medium

Bot = Callable[[View, random.Random], str]

BOTS: dict[str, Bot] = {"easy": easy.choose, "medium": medium.choose, "hard": hard.choose}
STRENGTHS = tuple(BOTS)


def choose(strength: str, view: View, rng: random.Random) -> str:
    if view.seat is None or view.turn != view.seat:
        raise ValueError("A bot only decides for the seat whose turn it is")
    return BOTS[strength](view, rng)


def selfplay_policies() -> dict[str, Callable[[State, random.Random], Action]]:
    """The bots as ``python -m games.bots.selfplay --policy`` players: each decision is made
    from the acting seat's view only."""

    def policy(strength: str) -> Callable[[State, random.Random], Action]:
        def decide(state: State, rng: random.Random) -> Action:
            seat = state.turn
            return Action.parse(seat, choose(strength, view_for(state, seat), rng))

        return decide

    return {strength: policy(strength) for strength in STRENGTHS}
