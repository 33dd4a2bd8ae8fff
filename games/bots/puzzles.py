"""Puzzles from analysed matches: decisions where one option was clearly best.

A decision of a finished match's analysis (``analysis.Decision``) becomes a puzzle when

- one option is best from what the seat knew by a clear margin over every other: ``MARGIN``
  points of the hand, or ``CHANCE_MARGIN`` of the chance to win once the decision is graded on
  chances (about what half a point is worth at the start of a match to 10);
- that option is also the best, or tied for it, with every card known (no puzzle whose answer
  the cards would refute);
- it is not trivial: more than one legal option, and not the hand's last trick.

The position shown is the seat's view before its move (``engine.view_for``), so a puzzle can
show nothing the seat did not know. Each gets a theme read off the position. Pure Python like
the rest of ``games.bots``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import EFFECTIVE_SUIT, JACK, rank_of
from games.engine.rules import apply, new_match
from games.engine.state import Action, Phase, Rules, State
from games.engine.view import view_for

from .analysis import Decision, line
from .hint import why

MARGIN = 0.5
CHANCE_MARGIN = 0.04
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


def clear_best(d: Decision) -> tuple[str, float] | None:
    """The option that earns ``d`` a puzzle and its margin, or None."""
    if len(d.options) < 2:
        return None
    by_chances = d.graded == "chances"
    value = (lambda o: o.known_chance) if by_chances else (lambda o: o.known)
    ranked = sorted(d.options, key=value, reverse=True)
    best, second = ranked[0], ranked[1]
    margin = value(best) - value(second)
    if margin < (CHANCE_MARGIN if by_chances else MARGIN) - 1e-9:
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
    seed: int, rules: Rules, actions: list[tuple[int, str]], decisions: list[Decision]
) -> list[Found]:
    """The puzzles of one analysed match: ``decisions`` are ``analysis.analyse``'s of the match
    given by ``seed``, ``rules`` and ``actions``."""
    wanted = {}
    for d in decisions:
        best = clear_best(d)
        if best is not None:
            wanted[d.index] = (d, *best)
    found = []
    state = new_match(seed, rules)
    for index, (seat, text) in enumerate(actions):
        if index in wanted:
            d, answer, margin = wanted[index]
            if not (state.phase is Phase.PLAY and len(state.tricks) >= 4):  # not the last trick
                rest = line(state, answer, seat, {})
                found.append(
                    Found(
                        index=index,
                        seat=seat,
                        answer=answer,
                        theme=theme(state, answer),
                        margin=round(margin, 4),
                        graded=d.graded,
                        options=tuple(
                            (o.action, o.known_chance if d.graded == "chances" else o.known)
                            for o in d.options
                        ),
                        line=rest.moves,
                        reason=why(view_for(state, seat), answer),
                    )
                )
        state = apply(state, Action.parse(seat, text))
    return found
