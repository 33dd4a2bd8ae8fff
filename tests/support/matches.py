"""Matches for tests, made and played the way players make and play them: through services."""

from __future__ import annotations

import random

from games import services
from games.engine import legal_actions
from games.models import Match, MatchStatus
from tests.support import deals


def start(creator, joiner, seed: int | None = None, **options) -> Match:
    """A match ``creator`` made and ``joiner`` joined, dealt from ``seed`` (else the next
    seed of the test's own stream: ``tests.support.deals``)."""
    if seed is not None:
        deals.current.queue(seed)
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
        ).match  # fmt: skip
    return match


def pass_if_allowed(match: Match) -> Match:
    """One move by whoever is to act: a pass when they may, else their first legal action."""
    state = match.state
    actions = [str(a) for a in legal_actions(state)]
    return services.move_apply(
        user=match.players[state.turn], match_id=match.pk,
        action="pass" if "pass" in actions else actions[0], version=match.version,
    ).match  # fmt: skip


def both_acted(match: Match) -> Match:
    """The match once each player has made a first move (a pass when they may): from then on
    resigning and running out of time count; before, they only call the match off."""
    match = Match.objects.select_related("player0", "player1").get(pk=match.pk)
    while match.status == MatchStatus.ACTIVE and not match.both_acted:
        match = pass_if_allowed(match)
    return match


def resign(loser, match: Match) -> Match:
    """``loser`` resigns a match both players have begun: the opponent wins it."""
    return services.match_resign(user=loser, match_id=both_acted(match).pk)


BIDS_FIRST = ["order_up", "accept", "take_up", "name", "joker", "discard", "play", "pass"]


def move(match: Match, choose=None) -> Match:
    """One move by whoever is to act: a bid rather than a pass, the first legal card."""
    legal = [str(a) for a in legal_actions(match.state)]
    chosen = choose(legal) if choose else None
    if chosen is None:
        chosen = next(a for kind in BIDS_FIRST for a in legal if a.split(":")[0] == kind)
    return services.move_apply(
        user=match.players[match.state.turn], match_id=match.pk, action=chosen,
        version=match.version,
    ).match  # fmt: skip


def until(match: Match, done, choose=None) -> Match:
    while not done(match.state):
        match = move(match, choose)
    return match
