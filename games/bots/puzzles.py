"""Puzzles from analysed matches: decisions where one option was clearly best.

A decision of a finished match's analysis (``analysis.Decision``) becomes a puzzle when

- one option is best from what the seat knew by a clear margin over every other: ``MARGIN``
  points of the hand, or ``CHANCE_MARGIN`` of the chance to win once the decision is graded on
  chances (about what half a point is worth at the start of a match to 10);
- that option is also the best, or tied for it, with every card known (no puzzle whose answer
  the cards would refute);
- it is not trivial: more than one legal option, and not the hand's last trick;
- where the opponent may hold few enough hands to search them all (``EXACT_WORK``), the
  margin holds over every one of them, not only over the analysis's sample (``confirmed``);
  a puzzle stored before that rule is checked again the same way (``recheck``).

A player's own flagged decision (``analysis.flag_of``: a loss of at least an inaccuracy's)
whose best option leads every other by an inaccuracy's mark (``PRIVATE_MARGIN`` points,
``PRIVATE_CHANCE_MARGIN`` chances) and which the cards confirm becomes a *private* puzzle when
it misses the bar above: shown to that player only, for training on their own mistakes
(``mine``'s ``people``). Every flagged decision gets its theme too (``flagged``): the player's
weak spots.

The position shown is the seat's view before its move (``engine.view_for``), so a puzzle can
show nothing the seat did not know. Each gets a theme read off the position. Pure Python like
the rest of ``games.bots``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from games.engine.cards import EFFECTIVE_SUIT, JACK, rank_of
from games.engine.rules import apply, new_match
from games.engine.state import Action, Phase, Rules, State
from games.engine.view import view_for

from . import chances, hard
from .analysis import COST, Decision, decide, line
from .hint import why
from .seen import seen_from

MARGIN = 0.5
CHANCE_MARGIN = 0.04
# A margin is confirmed over every opponent hand consistent with the view (``confirmed``) when
# searching them all costs at most this, in a card's decisions (``analysis.COST``): a card
# from the second trick on (2,380 hands at most with 24 cards), a bid or discard at most
# 300-460 hands; about a quarter of a second.
EXACT_WORK = 3000
# A private puzzle's bar: the inaccuracy's mark (analysis.FLAGS), so that every option but the
# answer is at least an inaccuracy.
PRIVATE_MARGIN = 0.3
PRIVATE_CHANCE_MARGIN = 0.03
THEMES = (
    "ordering_up",  # the first call of round one: order it up or pass
    "bidding",  # the dealer's call, round two, the joker's suit, taking up or leaving
    "discard",  # the dealer's discard
    "march_defence",  # the defender, every trick so far the maker's
    "leading_trump",  # the maker leads
    "bowers",  # a bower is the answer
    "last_tricks",  # the fourth trick
    "play",  # any other card
)


@dataclass(frozen=True)
class Found:
    """One puzzle: the decision's place in the match, its answer, its theme, and what the
    page shows once it is solved (the rest of the hand after the answer, and why)."""

    index: int
    seat: int
    answer: str
    theme: str
    margin: float  # how much better the answer is than the next option (points or chances)
    graded: str  # "points" or "chances"
    options: tuple[tuple[str, float], ...]  # every option and its value from what they knew
    line: tuple[tuple[int, str], ...]  # the rest of the hand after the answer, every card known
    reason: tuple[str, dict]  # the hints' reason for the answer
    private: bool = False  # below the public bar: the deciding player's own, for them only


@dataclass(frozen=True)
class Flagged:
    """A flagged decision (a loss of at least an inaccuracy) with its theme, read off the
    position and the best option: what a player's weak spots are made of."""

    index: int
    seat: int
    theme: str
    loss: float  # points of the hand lost (analysis.Decision.loss)
    flag: str  # "inaccuracy", "mistake" or "blunder"


def clear_best(d: Decision, private: bool = False) -> tuple[str, float] | None:
    """The option that earns ``d`` a puzzle and its margin, or None; ``private``: by the bar
    of a player's own puzzle (``PRIVATE_MARGIN``) rather than everyone's."""
    if len(d.options) < 2:
        return None
    by_chances = d.graded == "chances"
    value = (lambda o: o.known_chance) if by_chances else (lambda o: o.known)
    ranked = sorted(d.options, key=value, reverse=True)
    best, second = ranked[0], ranked[1]
    margin = value(best) - value(second)
    if private:
        bar = PRIVATE_CHANCE_MARGIN if by_chances else PRIVATE_MARGIN
    else:
        bar = CHANCE_MARGIN if by_chances else MARGIN
    if margin < bar - 1e-9:
        return None
    perfect = (lambda o: o.perfect_chance) if by_chances else (lambda o: o.perfect)
    if perfect(best) < max(perfect(o) for o in d.options) - 1e-9:
        return None  # with every card known another option is better
    return best.action, margin


def theme(state: State, answer: str) -> str:
    """What the position is about, the first that fits in the order of ``THEMES``."""
    seat = state.turn
    phase = state.phase
    if phase is Phase.ROUND_ONE and seat != state.dealer:
        return "ordering_up"
    if phase is Phase.DISCARD:
        return "discard"
    if phase is not Phase.PLAY:
        return "bidding"
    maker, trump = state.maker, state.trump
    done = len(state.tricks)
    if seat != maker and done and state.tricks_won[maker] == done:
        return "march_defence"
    card = Action.parse(seat, answer).card
    if seat == maker and not state.trick and EFFECTIVE_SUIT[trump][card] == trump:
        return "leading_trump"
    if rank_of(card) == JACK and EFFECTIVE_SUIT[trump][card] == trump:
        return "bowers"
    if done >= 3:
        return "last_tricks"
    return "play"


def mine(
    seed: int,
    rules: Rules,
    actions: list[tuple[int, str]],
    decisions: list[Decision],
    people: tuple[bool, bool] = (False, False),
) -> list[Found]:
    """The puzzles of one analysed match: ``decisions`` are ``analysis.analyse``'s of the match
    given by ``seed``, ``rules`` and ``actions``. ``people[seat]``: whether that seat is a
    person's, whose flagged decisions below the public bar become private puzzles."""
    wanted = {}
    for d in decisions:
        chosen = _choice(d, people)
        if chosen is not None:
            wanted[d.index] = chosen
    found = []
    for index, _seat, state in _before(seed, rules, actions, wanted):
        chosen = wanted[index]
        if state.phase is Phase.PLAY and len(state.tricks) >= 4:
            continue  # not the last trick
        exact = confirmed(state, chosen[0])
        if exact is not chosen[0]:  # the margin over every consistent hand, not over a sample
            chosen = _choice(exact, people)
            if chosen is None:
                continue
        found.append(_found(state, *chosen))
    return found


def recheck(
    seed: int,
    rules: Rules,
    actions: list[tuple[int, str]],
    index: int,
    people: tuple[bool, bool] = (False, False),
) -> tuple[bool, Found | None]:
    """A stored puzzle (move ``index`` of the match) checked again: whether the opponent may
    hold few enough hands to search them all (``EXACT_WORK``), and if so the puzzle the move
    makes over every one of them (None: none). Deterministic: no hand is sampled."""
    ((_index, seat, state),) = _before(seed, rules, actions, {index})
    view = view_for(state, seat)
    hands = seen_from(view).consistent()
    if hands * COST[state.phase] > EXACT_WORK:
        return False, None
    if state.phase is Phase.PLAY and len(state.tricks) >= 4:
        return True, None  # the last trick is no puzzle
    d = decide(state, actions[index][1], index, random.Random(0), hands, {})
    chosen = _choice(d, people)
    return True, None if chosen is None else _found(state, *chosen)


def _found(state: State, d: Decision, answer: str, margin: float, private: bool) -> Found:
    """The puzzle of decision ``d`` at ``state`` (before its move), its answer and margin."""
    seat = state.turn
    return Found(
        index=d.index,
        seat=seat,
        answer=answer,
        theme=theme(state, answer),
        margin=round(margin, 4),
        graded=d.graded,
        options=tuple(
            (o.action, o.known_chance if d.graded == "chances" else o.known) for o in d.options
        ),
        line=line(state, answer, seat, {}).moves,
        reason=why(view_for(state, seat), answer),
        private=private,
    )


def _choice(d: Decision, people: tuple[bool, bool]) -> tuple | None:
    """(``d``, its answer, margin, whether private) if ``d`` earns a puzzle, else None."""
    best = clear_best(d)
    private = False
    if best is None and people[d.seat] and d.flag is not None:
        best, private = clear_best(d, private=True), True
    return None if best is None else (d, *best, private)


def confirmed(state: State, d: Decision) -> Decision:
    """``d`` (the decision before the move in ``state``) valued from every opponent hand
    consistent with the seat's view, when its search sampled fewer than there are and
    searching them all costs at most ``EXACT_WORK``; else ``d`` itself. The sampled margin of
    a late card can clear the bar by the luck of the sample alone."""
    view = view_for(state, state.turn)
    hands = seen_from(view).consistent()
    if hands <= d.samples or hands * COST[state.phase] > EXACT_WORK:
        return d
    worths = (hard.points, chances.worth(view))
    known, known_chance = hard.values_by(view, random.Random(0), hands, worths)
    options = tuple(
        replace(o, known=known[o.action], known_chance=known_chance[o.action]) for o in d.options
    )
    return replace(d, options=options, samples=hands)


def flagged(
    seed: int, rules: Rules, actions: list[tuple[int, str]], decisions: list[Decision]
) -> list[Flagged]:
    """Every flagged decision of one analysed match with its theme (that of a puzzle whose
    answer is the best option) and the points it lost."""
    wanted = {d.index: d for d in decisions if d.flag is not None}
    return [
        Flagged(index, seat, theme(state, d.best_action), d.loss, d.flag)
        for index, seat, state in _before(seed, rules, actions, wanted)
        for d in (wanted[index],)
    ]


def _before(seed: int, rules: Rules, actions: list[tuple[int, str]], wanted) -> list:
    """(index, seat, the state before the move) for each move whose index is in ``wanted``."""
    found = []
    state = new_match(seed, rules)
    for index, (seat, text) in enumerate(actions):
        if index in wanted:
            found.append((index, seat, state))
        state = apply(state, Action.parse(seat, text))
    return found
