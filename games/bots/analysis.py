"""The analysis of a finished match: what each option of each decision was worth.

For every decision with more than one legal option (bids, taking up or leaving, naming, the
discard, every card) two values per option, each in points of the hand for the deciding seat
(the points it scores less those its opponent scores):

- ``known``: from what the seat knew at that moment (its view): the hard bot's determinized
  search (``hard.values``) with a larger budget than in play: every opponent hand consistent
  with the view when there are at most ``samples``, else a fixed sample of that many;
- ``perfect``: with all cards known: exact minimax over the rest of the hand, the bidding
  included (``perfect_value``), the play solved by ``solver``.

Each is also valued as a chance to win the match (``chances``): ``known_chance`` averages the
chance each sampled deal leaves, ``perfect_chance`` is the chance the perfect outcome leaves.

The loss of a decision is the best option's ``known`` value less the chosen one's: a player is
judged by what they could know. Once the hand can end the match it is graded on chances to
win instead (at 9-8 a march wins no more than a make); accuracy counts both in points, the
chance lost at the marks' rate (``accuracy_loss``). A flagged decision carries its best
line (the rest of the hand with every card known, after the best option and after the chosen
one) and the reason the hints would give for the best option. Pure Python like the rest of
``games.bots``: it takes the seed, the options and the actions, and returns plain values the
caller may store as JSON.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, replace

from games.engine.rules import apply, legal_actions, new_match
from games.engine.state import Action, Phase, Rules, State
from games.engine.view import view_for

from . import chances, hard, medium
from .hint import why
from .seen import seen_from
from .solver import Solver

# The analysis's own version, stored with each: raised when a fix changes what it stores, so
# that the analyses made before it are made again (``manage.py analyse_matches``). 2: a
# pass-out is worth 0, a dealer who showed out of the upcard's suit discarded it, and a loss
# is graded to the hundredth. 3: chances to win, graded on them near the end; best lines
# and reasons for flagged decisions. 4: the chances from counts of today's hard computer (it
# reads bids); accuracy on one scale (a decision graded on chances counts the chance it lost,
# ``accuracy_loss``); the opponent hands each decision searched, and the match's budget.
VERSION = 4
SAMPLES = 300  # opponent hands per decision, when there are more than this many
# What searching one opponent hand costs, by the decision's phase, in a card's decisions
# (measured over 50 matches with bench/analysis.py: a bid searches the hand from the bidding
# on, the discard the hand after each of six cards, a card the tricks left).
COST = {
    Phase.PLAY: 1.0, Phase.DEALER_DECIDES: 4.0, Phase.ROUND_ONE: 6.5, Phase.ROUND_TWO: 6.5,
    Phase.NAME_JOKER: 6.5, Phase.DISCARD: 9.5,
}  # fmt: skip
# The work of one match's analysis is bounded: opponent hands searched, each weighed by its
# COST, at most this much. A match that costs more than 320 (the median match to 10 costs
# about 300: 28 bids, 7 discards, 70 cards; the longest of 50, 480) has fewer hands a
# decision, never under MIN_SAMPLES (a marathon of 29 passed-out deals costs about 1,000).
WORK = 320 * SAMPLES
MIN_SAMPLES = 50

# A loss of at least this many points, and its mark (docs: lichess's inaccuracy, mistake, blunder).
FLAGS = ((1.0, "blunder", "??"), (0.6, "mistake", "?"), (0.3, "inaccuracy", "?!"))
# The same in chances to win the match (0.10: ten in a hundred; a point is worth about 0.075
# at the start of a match to 10).
CHANCE_FLAGS = ((0.10, "blunder", "??"), (0.06, "mistake", "?"), (0.03, "inaccuracy", "?!"))
ACCURATE = 0.1  # a decision within this many points of the best counts as accurate
# The marks' exchange rate between the two gradings: each bar in chances is this many times
# its bar in points (a blunder: 1 point, or 10 in 100 of the chance to win). Accuracy, kept in
# points, counts a decision graded on chances by the chance it lost at this rate.
CHANCE_PER_POINT = 0.10
EPSILON = 1e-9  # averages of whole points: equal values may differ in the last bits


def flag_of(loss: float, graded: str = "points") -> tuple[str, str] | None:
    """("blunder", "??"), ("mistake", "?"), ("inaccuracy", "?!") or None for this loss, in
    points or (``graded`` "chances") in chances to win the match."""
    for threshold, name, mark in FLAGS if graded == "points" else CHANCE_FLAGS:
        if loss >= threshold - EPSILON:
            return name, mark
    return None


@dataclass(frozen=True)
class Option:
    action: str
    known: float  # from the seat's view
    perfect: int  # with every card known
    known_chance: float = 0.5  # the same as chances to win the match
    perfect_chance: float = 0.5


@dataclass(frozen=True)
class Line:
    """The rest of a hand after one option, with every card known and both seats playing it
    perfectly: the moves (seat, action), and what the hand gives the deciding seat."""

    after: str  # the option
    moves: tuple[tuple[int, str], ...]
    tricks: int  # the deciding seat's tricks in the hand
    points: int  # its points less its opponent's


@dataclass(frozen=True)
class Decision:
    index: int  # the move's place in the match (0: the first move)
    hand: int  # the hand's number (0: the first)
    seat: int
    chosen: str
    options: tuple[Option, ...]  # the legal options, in the engine's order
    graded: str = "points"  # or "chances": the hand can end the match
    chance: float = 0.5  # seat 0's chance to win the match after the move, every card known
    lines: tuple[Line, ...] = ()  # flagged: after the best option, then after the chosen one
    # Flagged: the hints' reason for the best option, or ("for_the_match", {"instead": the
    # option worth the most points}) when the chances to win rank another option first.
    reason: tuple[str, dict] | None = None
    samples: int = 0  # the opponent hands searched for ``known`` (every one, when as few)

    @property
    def best(self) -> float:
        return max(o.known for o in self.options)

    @property
    def best_chance(self) -> float:
        return max(o.known_chance for o in self.options)

    def _chosen(self) -> Option:
        return next(o for o in self.options if o.action == self.chosen)

    @property
    def loss(self) -> float:
        """The points lost, to the hundredth the page shows: the grade is that of the figure
        a player reads (0.597 lost reads 0.60, and is a mistake, not an inaccuracy)."""
        return round(max(0.0, self.best - self._chosen().known), 2)

    @property
    def chance_loss(self) -> float:
        """The chance to win lost, as the page shows it: the two chances each to the whole
        hundredth (55% and 51%: 0.04 lost)."""
        lost = round(100 * self.best_chance) - round(100 * self._chosen().known_chance)
        return max(0, lost) / 100

    @property
    def graded_loss(self) -> float:
        return self.chance_loss if self.graded == "chances" else self.loss

    @property
    def accuracy_loss(self) -> float:
        """The loss accuracy counts, in points: a decision graded on chances counts the chance
        it lost at the marks' rate (``CHANCE_PER_POINT``: 3 in 100 is 0.3 points), so one
        that lost no chance to win loses nothing, whatever its points."""
        if self.graded == "chances":
            return round(self.chance_loss / CHANCE_PER_POINT, 2)
        return self.loss

    @property
    def best_action(self) -> str:
        """The best option by what the decision is graded on (the first of equals)."""
        if self.graded == "chances":
            return max(self.options, key=lambda o: o.known_chance).action
        return max(self.options, key=lambda o: o.known).action

    @property
    def flag(self) -> str | None:
        flagged = flag_of(self.graded_loss, self.graded)
        return flagged[0] if flagged else None


@dataclass(frozen=True)
class Accuracy:
    decisions: int
    accurate: int  # within ACCURATE of the best (``Decision.accuracy_loss``)
    total_loss: float
    flags: dict[str, int] = field(default_factory=dict)

    @property
    def share(self) -> float:
        """Share of decisions within 0.1 points of the best, or 1 in 100 of the chance to win
        for those graded on it (1.0 with no decision)."""
        return self.accurate / self.decisions if self.decisions else 1.0

    @property
    def average_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


def accuracy(decisions: list[Decision], seat: int) -> Accuracy:
    """One seat's figures over its decisions (only those with a choice are decisions), on one
    scale: points, a decision graded on chances counting the chance it lost
    (``Decision.accuracy_loss``)."""
    mine = [d for d in decisions if d.seat == seat]
    flags = {name: 0 for _t, name, _m in FLAGS}
    for d in mine:
        if d.flag:
            flags[d.flag] += 1
    return Accuracy(
        decisions=len(mine),
        accurate=sum(1 for d in mine if d.accuracy_loss <= ACCURATE + EPSILON),
        total_loss=sum(d.accuracy_loss for d in mine),
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


def line(state: State, after: str, seat: int, solvers: dict) -> Line:
    """The rest of the hand after ``after`` with every card known: each seat takes an action
    worth the most to it (among cards worth the same, the one a good player would: the medium
    computer's rule of thumb), to the end of the hand."""
    number = state.hand_number
    state = apply(state, Action.parse(state.turn, after))
    moves = []
    while state.hand_number == number and not state.is_over:
        turn = state.turn
        legal = legal_actions(state)
        worth = {a: _perfect(apply(state, a), turn, number, solvers) for a in legal}
        top = max(worth.values())
        tied = [a for a in legal if worth[a] == top]
        pick = tied[0]
        if state.phase is Phase.PLAY and len(tied) > 1:
            lead = state.trick[0][1] if state.trick else None
            card = medium.play_choice(
                state.hands[turn], [a.card for a in tied], state.trump, lead, state.maker == turn
            )
            pick = next(a for a in tied if a.card == card)
        moves.append((turn, str(pick)))
        state = apply(state, pick)
    result = state.results[-1]
    points = result.points[seat] - result.points[seat ^ 1]
    return Line(
        after, tuple(moves), result.tricks_won[seat] if result.trump is not None else 0, points
    )


def decide(state: State, chosen: str, index: int, rng: random.Random, samples: int, solvers: dict):
    """The analysis of one decision: ``state`` before the seat to act chose ``chosen``."""
    seat = state.turn
    view = view_for(state, seat)
    searched = min(samples, seen_from(view).consistent())  # hard.values_by: all, if no more
    worth = chances.worth(view)
    known, known_chance = hard.values_by(view, rng, samples, (hard.points, worth))
    options = []
    for a in legal_actions(state):
        perfect = perfect_value(apply(state, a), seat, solvers, state.hand_number)
        options.append(Option(str(a), known[str(a)], perfect, known_chance[str(a)], worth(perfect)))
    graded = "chances" if chances.near_the_end(view) else "points"
    mine = next(o for o in options if o.action == chosen).perfect_chance
    decision = Decision(
        index,
        state.hand_number,
        seat,
        chosen,
        tuple(options),
        graded,
        round(mine if seat == 0 else 1 - mine, 4),
        samples=searched,
    )
    if decision.flag is None:
        return decision
    best = decision.best_action
    lines = tuple(line(state, a, seat, solvers) for a in (best, chosen))
    by_points = max(options, key=lambda o: o.known).action
    if best != by_points:  # the score, not the hand, makes it the better option
        return replace(decision, lines=lines, reason=("for_the_match", {"instead": by_points}))
    return replace(decision, lines=lines, reason=why(view, best))


def analyse(
    seed: int, rules: Rules, actions: list[tuple[int, str]], samples: int = SAMPLES
) -> list[Decision]:
    """Every decision with a choice in a match given by its seed, options and moves (seat,
    action text), with ``samples`` opponent hands each, or fewer when the match is long
    (``budget``); each records how many it searched. The search's sample is drawn from a
    generator seeded by the match seed and the move's place, so the same match always gets the
    same analysis."""
    choices = _choices(seed, rules, actions)
    each = samples_each([state for _index, state, _text in choices], samples)
    decisions = []
    solvers: dict = {}
    hand = None
    for index, state, text in choices:
        if state.hand_number != hand:
            hand, solvers = state.hand_number, {}  # solved positions of a hand are its own
        rng = random.Random(f"{seed}:{index}")
        decisions.append(decide(state, text, index, rng, each, solvers))
    return decisions


def budget(seed: int, rules: Rules, actions: list[tuple[int, str]], samples: int = SAMPLES) -> int:
    """The opponent hands ``analyse`` searches for each decision of this match: ``samples``,
    or fewer on a long match (``samples_each``). What ``MatchAnalysis.samples`` stores."""
    return samples_each([state for _index, state, _text in _choices(seed, rules, actions)], samples)


def _choices(seed: int, rules: Rules, actions: list[tuple[int, str]]) -> list:
    """(index, the state before the move, the move) wherever there was a choice."""
    state = new_match(seed, rules)
    choices = []
    for index, (seat, text) in enumerate(actions):
        if len(legal_actions(state)) > 1:
            choices.append((index, state, text))
        state = apply(state, Action.parse(seat, text))
    return choices


def samples_each(states: list[State], samples: int = SAMPLES) -> int:
    """The opponent hands searched for each of these decisions (``states``: before each):
    ``samples``, or fewer when their cost in all would be over ``WORK``."""
    cost = sum(COST[state.phase] for state in states)
    if cost * samples <= WORK:
        return samples
    return min(samples, max(MIN_SAMPLES, int(WORK // cost)))


@dataclass(frozen=True)
class HandStart:
    """Where a hand began: its first move's place, the scores, the dealer, and seat 0's chance
    to win the match then."""

    index: int
    hand: int
    scores: tuple[int, int]
    dealer: int
    chance: float
    over: bool = False  # the match's end, not a hand's start


def hand_starts(seed: int, rules: Rules, actions: list[tuple[int, str]]) -> list[HandStart]:
    """Every hand's start, then the end of the match (its chance: 1 or 0) if it ended."""
    model = chances.for_rules(rules)
    state = new_match(seed, rules)
    starts = []
    for index in range(len(actions) + 1):
        if not starts or state.hand_number != starts[-1].hand or state.is_over:
            scores = state.scores
            chance = round(model.before(scores[0], scores[1], state.dealer == 0), 4)
            start = HandStart(index, state.hand_number, scores, state.dealer, chance, state.is_over)
            starts.append(start)
        if state.is_over or index == len(actions):
            break
        seat, text = actions[index]
        state = apply(state, Action.parse(seat, text))
    return starts


def as_json(
    decisions: list[Decision], starts: list[HandStart] = (), samples: int | None = None
) -> dict:
    """The analysis as it is stored: the decisions (each with the opponent hands it searched),
    each seat's figures, the hands' starts (for the graph of the chances), and ``samples``:
    the match's budget of opponent hands a decision (``budget``; by default the most any
    decision searched)."""
    if samples is None:
        samples = max((d.samples for d in decisions), default=0)
    return {
        "version": VERSION,
        "samples": samples,
        "decisions": [
            {
                **asdict(d),
                "loss": round(d.loss, 4),
                "chance_loss": d.chance_loss,
                "accuracy_loss": d.accuracy_loss,
                "flag": d.flag,
                "best": round(d.best, 4),
                "best_action": d.best_action,
            }
            for d in decisions
        ],
        "hands": [asdict(h) for h in starts],
        "accuracy": [
            {**asdict(a), "share": a.share, "average_loss": a.average_loss}
            for a in (accuracy(decisions, 0), accuracy(decisions, 1))
        ],
    }
