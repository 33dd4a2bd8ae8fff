"""The analysis of a finished match: what each option of each decision was worth.

For every decision with more than one legal option (bids, taking up or leaving, naming, the
discard, every card) two values per option, each in points of the hand for the deciding seat
(the points it scores less those its opponent scores):

- ``known``: from what the seat knew at that moment (its view): the hard bot's determinized
  search (``hard.values``) with a larger budget than in play: every opponent hand consistent
  with the view when there are at most ``samples``, else a fixed sample of that many;
- ``perfect``: with all cards known: exact minimax over the rest of the hand, the bidding
  included (``perfect_value``), the play solved by ``solver``.

The loss of a decision is the best option's ``known`` value less the chosen one's: a player is
judged by what they could know. Pure Python like the rest of ``games.bots``: it takes the seed,
the options and the actions, and returns plain values the caller may store as JSON.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field

from games.engine.rules import apply, legal_actions, new_match
from games.engine.state import Action, Phase, Rules, State
from games.engine.view import view_for

from . import hard
from .solver import Solver

# The analysis's own version, stored with each: raised when a fix changes what it stores, so
# that the analyses made before it are made again (``manage.py analyse_matches``). 2: a
# pass-out is worth 0, a dealer who showed out of the upcard's suit discarded it, and a loss
# is graded to the hundredth.
VERSION = 2
SAMPLES = 300  # opponent hands per decision, when there are more than this many
# The work of one match's analysis is bounded: opponent hands searched in all, at most (a
# match of more than 120 decisions has fewer a decision, never under MIN_SAMPLES; with the
# engine's cap on deals, STUCK_FROM_DEAL, a match has at most about 330 decisions).
WORK = 120 * SAMPLES
MIN_SAMPLES = 50

# A loss of at least this many points, and its mark (docs: lichess's inaccuracy, mistake, blunder).
FLAGS = ((1.0, "blunder", "??"), (0.6, "mistake", "?"), (0.3, "inaccuracy", "?!"))
ACCURATE = 0.1  # a decision within this many points of the best counts as accurate
EPSILON = 1e-9  # averages of whole points: equal values may differ in the last bits


def flag_of(loss: float) -> tuple[str, str] | None:
    """("blunder", "??"), ("mistake", "?"), ("inaccuracy", "?!") or None for this loss."""
    for threshold, name, mark in FLAGS:
        if loss >= threshold - EPSILON:
            return name, mark
    return None


@dataclass(frozen=True)
class Option:
    action: str
    known: float  # from the seat's view
    perfect: int  # with every card known


@dataclass(frozen=True)
class Decision:
    index: int  # the move's place in the match (0: the first move)
    hand: int  # the hand's number (0: the first)
    seat: int
    chosen: str
    options: tuple[Option, ...]  # the legal options, in the engine's order

    @property
    def best(self) -> float:
        return max(o.known for o in self.options)

    @property
    def loss(self) -> float:
        """The points lost, to the hundredth the page shows: the grade is that of the figure
        a player reads (0.597 lost reads 0.60, and is a mistake, not an inaccuracy)."""
        chosen = next(o for o in self.options if o.action == self.chosen)
        return round(max(0.0, self.best - chosen.known), 2)

    @property
    def flag(self) -> str | None:
        flagged = flag_of(self.loss)
        return flagged[0] if flagged else None


@dataclass(frozen=True)
class Accuracy:
    decisions: int
    accurate: int  # within ACCURATE of the best
    total_loss: float
    flags: dict[str, int] = field(default_factory=dict)

    @property
    def share(self) -> float:
        """Share of decisions within 0.1 points of the best (1.0 with no decision)."""
        return self.accurate / self.decisions if self.decisions else 1.0

    @property
    def average_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


def accuracy(decisions: list[Decision], seat: int) -> Accuracy:
    """One seat's figures over its decisions (only those with a choice are decisions)."""
    mine = [d for d in decisions if d.seat == seat]
    flags = {name: 0 for _t, name, _m in FLAGS}
    for d in mine:
        if d.flag:
            flags[d.flag] += 1
    return Accuracy(
        decisions=len(mine),
        accurate=sum(1 for d in mine if d.loss <= ACCURATE + EPSILON),
        total_loss=sum(d.loss for d in mine),
        flags=flags,
    )


def perfect_value(
    state: State, seat: int, solvers: dict | None = None, number: int | None = None
) -> int:
    """Points of hand ``number`` (the current one unless given) for ``seat`` (less the
    opponent's) under best play by both seats with every card known, from ``state`` to the
    end of that hand: minimax over the bidding and the discard through the engine, then the
    solver for the tricks. A state past that hand (an action ended it: the dealer's pass in
    round two passes it out, and the next deal is dealt) is worth that hand's points."""
    solvers = {} if solvers is None else solvers
    return _perfect(state, seat, state.hand_number if number is None else number, solvers)


def _perfect(state: State, seat: int, number: int, solvers: dict) -> int:
    if state.hand_number != number or state.is_over:
        points = state.results[-1].points  # the hand just ended (passed out: no points)
        return points[seat] - points[seat ^ 1]
    if state.phase is Phase.PLAY:
        key = (state.trump, state.maker)
        if key not in solvers:
            solvers[key] = Solver(*key)
        lead = state.trick[0][1] if state.trick else None
        made = state.tricks_won[state.maker]
        points = solvers[key].maker_points(state.hands, state.turn, lead, made)
        return points if state.maker == seat else -points
    values = [_perfect(apply(state, a), seat, number, solvers) for a in legal_actions(state)]
    return max(values) if state.turn == seat else min(values)


def decide(state: State, chosen: str, index: int, rng: random.Random, samples: int, solvers: dict):
    """The analysis of one decision: ``state`` before the seat to act chose ``chosen``."""
    seat = state.turn
    known = hard.values(view_for(state, seat), rng, samples)
    options = tuple(
        Option(
            str(a), known[str(a)], perfect_value(apply(state, a), seat, solvers, state.hand_number)
        )
        for a in legal_actions(state)
    )
    return Decision(index, state.hand_number, seat, chosen, options)


def analyse(
    seed: int, rules: Rules, actions: list[tuple[int, str]], samples: int = SAMPLES
) -> list[Decision]:
    """Every decision with a choice in a match given by its seed, options and moves (seat,
    action text), with ``samples`` opponent hands each, or fewer when the match is long
    (``WORK``). The search's sample is drawn from a generator seeded by the match seed and
    the move's place, so the same match always gets the same analysis."""
    state = new_match(seed, rules)
    choices = []  # (index, the state before the move, the move) where there was a choice
    for index, (seat, text) in enumerate(actions):
        if len(legal_actions(state)) > 1:
            choices.append((index, state, text))
        state = apply(state, Action.parse(seat, text))
    each = samples if not choices else min(samples, max(MIN_SAMPLES, WORK // len(choices)))
    decisions = []
    solvers: dict = {}
    hand = None
    for index, state, text in choices:
        if state.hand_number != hand:
            hand, solvers = state.hand_number, {}  # solved positions of a hand are its own
        rng = random.Random(f"{seed}:{index}")
        decisions.append(decide(state, text, index, rng, each, solvers))
    return decisions


def as_json(decisions: list[Decision]) -> dict:
    """The analysis as it is stored: the decisions and each seat's figures."""
    return {
        "version": VERSION,
        "decisions": [
            {**asdict(d), "loss": round(d.loss, 4), "flag": d.flag, "best": round(d.best, 4)}
            for d in decisions
        ],
        "accuracy": [
            {**asdict(a), "share": a.share, "average_loss": a.average_loss}
            for a in (accuracy(decisions, 0), accuracy(decisions, 1))
        ],
    }
