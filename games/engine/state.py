"""The values the engine passes around: rules, actions, and the state of a match.

All of them are immutable. Enums that end up in the database carry explicit string values
that never change (never positions).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import NamedTuple

from .cards import CODES, SUIT_CODES, cards_in
from .errors import UnknownAction


class Phase(Enum):
    NAME_JOKER = "name_joker"  # the joker was turned up: the dealer names its suit
    ROUND_ONE = "round_one"  # bidding on the upcard's suit
    DEALER_DECIDES = "dealer_decides"  # ordered up: the dealer takes the upcard up or leaves it
    DISCARD = "discard"  # the dealer holds six cards and discards one face down
    ROUND_TWO = "round_two"  # naming any other suit
    PLAY = "play"
    MATCH_OVER = "match_over"


class UpcardFate(Enum):
    FACE_UP = "face_up"
    TAKEN_UP = "taken_up"  # in the dealer's hand (or discarded by the dealer)
    LEFT = "left"  # ordered up, the dealer left it on the stock; its suit is trump
    TURNED_DOWN = "turned_down"


class HandOutcome(Enum):
    MADE = "made"  # maker took 3 or 4 tricks: 1 point
    MARCH = "march"  # maker took all 5: 2 points
    EUCHRED = "euchred"  # maker took fewer than 3: 2 points to the defender
    PASSED_OUT = "passed_out"  # nobody made trump: no points, redeal


class ActionKind(Enum):
    PASS = "pass"
    ORDER_UP = "order_up"
    ACCEPT = "accept"
    TAKE_UP = "take_up"
    LEAVE = "leave"
    NAME = "name"
    JOKER = "joker"
    DISCARD = "discard"
    PLAY = "play"


@dataclass(frozen=True)
class Rules:
    """The engine's match options (docs/RULES.md, "Match options"), with its defaults."""

    deck: int = 24
    target: int = 10
    stick_the_dealer: bool = False
    dealer_must_take_up: bool = False

    def __post_init__(self) -> None:
        if self.deck not in (24, 25, 32):
            raise ValueError("The deck must have 24, 25 or 32 cards")
        if not isinstance(self.target, int) or not 1 <= self.target <= 99:
            raise ValueError("The target score must be a whole number from 1 to 99")

    def as_dict(self) -> dict:
        return {
            "deck": self.deck,
            "target": self.target,
            "stick_the_dealer": self.stick_the_dealer,
            "dealer_must_take_up": self.dealer_must_take_up,
        }


@dataclass(frozen=True)
class Action:
    """One decision by one seat. Instances are interned: use ``Action.parse`` or ``action``."""

    seat: int
    kind: ActionKind
    card: int | None = None  # discard and play
    suit: int | None = None  # name and joker

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.kind.value}:{CODES[self.card]}"
        if self.suit is not None:
            return f"{self.kind.value}:{SUIT_CODES[self.suit]}"
        return self.kind.value

    @staticmethod
    def parse(seat: int, text: str) -> Action:
        """The action a seat means by ``"pass"``, ``"name:H"``, ``"play:JH"``..."""
        try:
            return _ACTIONS[seat][text]
        except (KeyError, IndexError, TypeError):
            pass
        if seat not in (0, 1):
            raise UnknownAction("There is no such seat: seats are 0 and 1", "no_such_seat")
        shown = str(text)[:40]
        raise UnknownAction(f"{shown!r} is not an action in this game", "unknown", text=shown)


def _all_actions(seat: int) -> dict[str, Action]:
    actions = [
        Action(seat, kind)
        for kind in (
            ActionKind.PASS,
            ActionKind.ORDER_UP,
            ActionKind.ACCEPT,
            ActionKind.TAKE_UP,
            ActionKind.LEAVE,
        )
    ]
    actions += [
        Action(seat, k, suit=s) for k in (ActionKind.NAME, ActionKind.JOKER) for s in range(4)
    ]
    actions += [
        Action(seat, k, card=c) for k in (ActionKind.DISCARD, ActionKind.PLAY) for c in range(33)
    ]
    return {str(a): a for a in actions}


_ACTIONS: tuple[dict[str, Action], dict[str, Action]] = (_all_actions(0), _all_actions(1))


def action(seat: int, text: str) -> Action:
    return Action.parse(seat, text)


def play_action(seat: int, card: int) -> Action:
    return _ACTIONS[seat]["play:" + CODES[card]]


def discard_action(seat: int, card: int) -> Action:
    return _ACTIONS[seat]["discard:" + CODES[card]]


class Trick(NamedTuple):
    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card), in the order played
    winner: int


class HandResult(NamedTuple):
    """How a hand went, once it is over (or passed out): the match's per-hand record.

    ``discard`` is secret while the match runs: only ``view_for`` decides who may see it.
    """

    number: int
    dealer: int
    upcard: int
    bids: tuple[Action, ...]
    discard: int | None
    trump: int | None
    maker: int | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, int]
    points: tuple[int, int]
    outcome: HandOutcome


@dataclass(frozen=True)
class State:
    """A whole match at one moment. ``rules.apply`` returns a new one; this one never changes.

    Hands are bit masks of card ints (see ``cards``). The seed is here because later deals come
    from it; it is secret until the match ends, so ``view_for`` never copies it.
    """

    rules: Rules
    seed: int
    hand_number: int
    dealer: int
    scores: tuple[int, int]
    phase: Phase
    turn: int | None  # the one seat that may act; None once the match is over
    hands: tuple[int, int]
    upcard: int
    upcard_suit: int | None  # the suit the upcard proposes (a joker's once the dealer names it)
    upcard_fate: UpcardFate
    stock: int  # mask of the undealt cards under the upcard (their order: ``rules.deal``)
    bids: tuple[Action, ...]  # every bidding call of this hand, in order
    trump: int | None
    maker: int | None
    discard: int | None
    leader: int | None  # who led (or leads) the current trick
    trick: tuple[tuple[int, int], ...]  # the current trick's plays so far
    tricks: tuple[Trick, ...]  # this hand's finished tricks
    results: tuple[HandResult, ...]  # every finished or passed-out hand, in order
    winner: int | None

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        return cards_in(self.hands[seat])

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks each seat has taken in this hand."""
        first = sum(1 for trick in self.tricks if trick.winner == 0)
        return first, len(self.tricks) - first

    @property
    def last_hand(self) -> HandResult | None:
        return self.results[-1] if self.results else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER


FIELDS = frozenset(field.name for field in fields(State))
_new = object.__new__
_set = object.__setattr__


def evolve(state: State, changes: dict) -> State:
    """A copy of ``state`` with ``changes``; a name that is not a field raises ``TypeError``.

    It copies the instance dict: ``dataclasses.replace`` runs the frozen ``__init__`` and
    costs bench/engine.py a third of its hands per second.
    """
    if not changes.keys() <= FIELDS:
        raise TypeError(f"State has no field {sorted(changes.keys() - FIELDS)}")
    state_fields = state.__dict__.copy()
    state_fields.update(changes)
    return from_fields(state_fields)


def from_fields(state_fields: dict) -> State:
    """A state from a complete field dict (a copy of another state's ``__dict__``, changed)."""
    new = _new(State)
    _set(new, "__dict__", state_fields)
    return new
