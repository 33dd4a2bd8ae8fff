"""Analyses built by hand for the training tests: decisions whose options and losses a test
chooses, at real moments of a real match (so themes, positions and lines are the engine's)."""

from __future__ import annotations

from games.bots.analysis import Decision, Option
from games.engine import Action, apply, legal_actions, new_match
from games.engine.state import Phase, State
from games.models import Match


def moments(match: Match) -> list[tuple[int, int, State]]:
    """(index, seat, the state before the move) of each move of ``match`` that had a choice."""
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    state = new_match(int(match.seed), match.rules)
    found = []
    for index, (seat, text) in enumerate(moves):
        if len(legal_actions(state)) > 1:
            found.append((index, seat, state))
        state = apply(state, Action.parse(seat, text))
    return found


def first(match: Match, seat: int, phase: Phase, skip: int = 0, dealer: bool | None = None):
    """The ``skip``-th moment (index, state) of ``seat`` deciding in ``phase`` (as the dealer
    or not, if asked)."""
    found = [
        (index, state)
        for index, s, state in moments(match)
        if s == seat
        and state.phase is phase
        and (dealer is None or (state.dealer == seat) == dealer)
    ]
    return found[skip]


def decision(index: int, state: State, lost: float) -> Decision:
    """A decision at ``state`` (before move ``index``): the best is the first legal option (the
    cards confirm it), the second was chosen, and it and every other lost ``lost`` points."""
    legal = [str(a) for a in legal_actions(state)]
    options = [Option(legal[0], 1.0, 1), *(Option(a, round(1.0 - lost, 4), 0) for a in legal[1:])]
    return Decision(index, state.hand_number, state.turn, legal[1], tuple(options))
