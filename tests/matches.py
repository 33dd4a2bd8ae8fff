"""Matches for tests, made and played the way players make and play them: through services."""

from __future__ import annotations

import random

from games import services
from games.engine import legal_actions
from games.models import Match, MatchStatus


def start(creator, joiner, **options) -> Match:
    return services.match_join(
        user=joiner, match_id=services.match_create(user=creator, **options).pk
    )


def play_to_the_end(match: Match, seed: int = 0) -> Match:
    """Random legal moves by whoever is to act until the match is over."""
    rng = random.Random(seed)
    while match.status == MatchStatus.ACTIVE:
        state = match.state
        match = services.move_apply(
            user=match.players[state.turn], match_id=match.pk,
            action=str(rng.choice(legal_actions(state))), version=match.version,
        )  # fmt: skip
    return match
