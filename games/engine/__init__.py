"""Two-hand euchre, pure Python: no Django (or anything outside the standard library) below here.

state = new_match(seed, Rules(deck=24, target=10))
state = apply(state, legal_actions(state)[0])
view_for(state, seat=0)
"""

from .errors import IllegalAction
from .rules import apply, deal, first_dealer, legal_actions, new_match, new_seed, replay
from .serialize import state_from_json, state_to_json
from .state import Action, ActionKind, HandOutcome, Phase, Rules, State, UpcardFate, action
from .view import View, view_for

__all__ = [
    "Action",
    "ActionKind",
    "HandOutcome",
    "IllegalAction",
    "Phase",
    "Rules",
    "State",
    "UpcardFate",
    "View",
    "action",
    "apply",
    "deal",
    "first_dealer",
    "legal_actions",
    "new_match",
    "new_seed",
    "replay",
    "state_from_json",
    "state_to_json",
    "view_for",
]
