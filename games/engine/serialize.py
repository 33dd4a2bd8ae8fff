"""States to and from plain JSON data, for the database snapshot.

The snapshot holds everything, the seed and hidden cards included: it never leaves the server.
What players see is built by ``view_for``, never from this.
"""

from __future__ import annotations

from .state import (
    Action,
    HandOutcome,
    HandResult,
    Phase,
    Rules,
    State,
    Trick,
    UpcardFate,
)


def _trick(trick: Trick) -> list:
    return [trick.leader, [list(play) for play in trick.plays], trick.winner]


def _untrick(data: list) -> Trick:
    leader, plays, winner = data
    return Trick(leader, tuple((seat, card) for seat, card in plays), winner)


def _bids(bids: tuple[Action, ...]) -> list:
    return [[a.seat, str(a)] for a in bids]


def _unbids(data: list) -> tuple[Action, ...]:
    return tuple(Action.parse(seat, text) for seat, text in data)


def state_to_json(state: State) -> dict:
    return {
        "rules": state.rules.as_dict(),
        "seed": str(state.seed),  # 128-bit: too big for JSON numbers in most readers
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "phase": state.phase.value,
        "turn": state.turn,
        "hands": list(state.hands),
        "upcard": state.upcard,
        "upcard_suit": state.upcard_suit,
        "upcard_fate": state.upcard_fate.value,
        "stock": state.stock,
        "bids": _bids(state.bids),
        "trump": state.trump,
        "maker": state.maker,
        "discard": state.discard,
        "leader": state.leader,
        "trick": [list(play) for play in state.trick],
        "tricks": [_trick(t) for t in state.tricks],
        "results": [
            {
                "number": r.number,
                "dealer": r.dealer,
                "upcard": r.upcard,
                "bids": _bids(r.bids),
                "discard": r.discard,
                "trump": r.trump,
                "maker": r.maker,
                "tricks": [_trick(t) for t in r.tricks],
                "tricks_won": list(r.tricks_won),
                "points": list(r.points),
                "outcome": r.outcome.value,
            }
            for r in state.results
        ],
        "winner": state.winner,
    }


def state_from_json(data: dict) -> State:
    return State(
        rules=Rules(**data["rules"]),
        seed=int(data["seed"]),
        hand_number=data["hand_number"],
        dealer=data["dealer"],
        scores=tuple(data["scores"]),
        phase=Phase(data["phase"]),
        turn=data["turn"],
        hands=tuple(data["hands"]),
        upcard=data["upcard"],
        upcard_suit=data["upcard_suit"],
        upcard_fate=UpcardFate(data["upcard_fate"]),
        stock=data["stock"],
        bids=_unbids(data["bids"]),
        trump=data["trump"],
        maker=data["maker"],
        discard=data["discard"],
        leader=data["leader"],
        trick=tuple((seat, card) for seat, card in data["trick"]),
        tricks=tuple(_untrick(t) for t in data["tricks"]),
        results=tuple(
            HandResult(
                number=r["number"],
                dealer=r["dealer"],
                upcard=r["upcard"],
                bids=_unbids(r["bids"]),
                discard=r["discard"],
                trump=r["trump"],
                maker=r["maker"],
                tricks=tuple(_untrick(t) for t in r["tricks"]),
                tricks_won=tuple(r["tricks_won"]),
                points=tuple(r["points"]),
                outcome=HandOutcome(r["outcome"]),
            )
            for r in data["results"]
        ),
        winner=data["winner"],
    )
