"""Matches played to the end through the services with each player's moves coming in by a
way of their own (``Move.way``: the page's socket, the API...), for the fair-play signals."""

from __future__ import annotations

import random

from games import services
from games.engine import legal_actions
from games.models import Match, MatchStatus


def play_out(match: Match, ways: dict[int, str], seed: int = 0) -> Match:
    """Random legal moves by whoever is to act until the match is over, each by the way
    ``ways`` gives for that player's id."""
    rng = random.Random(seed)
    while match.status == MatchStatus.ACTIVE:
        state = match.state
        player = match.players[state.turn]
        match = services.move_apply(
            user=player, match_id=match.pk, action=str(rng.choice(legal_actions(state))),
            version=match.version, way=ways[player.pk],
        ).match  # fmt: skip
    return match
