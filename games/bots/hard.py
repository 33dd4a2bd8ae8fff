"""Hard: determinized search.

Deal the opponent many hands consistent with everything this seat has seen (``seen``), solve
each deal exactly to the end of the hand (``solver``), and take the action with the best average
outcome. Bidding is searched the same way: each call is followed to the trump suit it leads
to, with the opponent's later bids and discard modelled by the medium bot's rules of thumb
applied to the sampled hand, and the hand that follows solved exactly.

An outcome is worth its points (this seat's less its opponent's) until the hand can end the
match; from then on it is worth the chance to win the match it leaves (``chances``): at 9-8 a
march wins no more than a make, and a euchre that hands the opponent the match is worse than
its two points.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.cards import CODES, EFFECTIVE_SUIT, POWER, cards_in
from games.engine.rules import dealer_stuck
from games.engine.view import View

from . import chances, medium, reading
from .seen import SUITS, Seen, card, seen_from, suit_index
from .solver import Solver

PLAY_SAMPLES = 60
BID_SAMPLES = 40

Worth = Callable[[int], float]  # a hand's points for this seat, as what the search maximises


def points(value: int) -> int:
    """The worth of an outcome while the match is not at stake: its points."""
    return value


class Table:
    """One decision's deals and solvers: what the outcome for ``seat`` is worth in each sampled
    deal for a given trump, maker and take-up, from the first lead to the end of the hand.
    Tables that share ``solvers`` share the solved positions (the same deals, another worth)."""

    def __init__(
        self,
        view: View,
        seen: Seen,
        opponent_hands: list[int],
        worth: Worth = points,
        solvers: dict | None = None,
    ):
        self.view = view
        self.seen = seen
        self.seat = seen.seat
        self.dealer = view.dealer
        self.upcard = seen.upcard
        self.deals = opponent_hands
        self.worth = worth
        self.solvers: dict[tuple[int, int], Solver] = {} if solvers is None else solvers

    def solver(self, trump: int, maker: int) -> Solver:
        key = (trump, maker)
        if key not in self.solvers:
            self.solvers[key] = Solver(trump, maker)
        return self.solvers[key]

    def value(
        self,
        opponent: int,
        trump: int,
        maker: int,
        take_up: bool = False,
        mine: int | None = None,
    ) -> float:
        """The worth of this seat's points (less the opponent's) in one deal."""
        mine = self.seen.hand if mine is None else mine
        hands = [0, 0]
        hands[self.seat] = mine
        hands[self.seat ^ 1] = opponent
        if take_up:
            taken = hands[self.dealer] | 1 << self.upcard
            hands[self.dealer] = taken ^ 1 << medium.discard_choice(taken, trump)
        points = self.solver(trump, maker).maker_points(tuple(hands), self.dealer ^ 1, None, 0)
        return self.worth(points if maker == self.seat else -points)

    def average(self, outcome: Callable[[int], float]) -> float:
        return sum(outcome(opp) for opp in self.deals) / len(self.deals)


def worth_for(view: View) -> Worth:
    """Points, or the chance to win the match once this hand can end it."""
    return chances.worth(view) if chances.near_the_end(view) else points


def choose(view: View, rng: random.Random, for_match: bool = True, read_bids: bool = True) -> str:
    """The action with the best average worth, over opponent hands weighed by how well they
    fit the opponent's bids (``reading``). ``for_match`` False: by points alone, even near the
    target; ``read_bids`` False: every consistent hand alike (both False: the computer before
    it played for the match, kept to measure against)."""
    legal = view.legal_actions
    if len(legal) == 1:
        return legal[0]
    seen = seen_from(view)
    worth = worth_for(view) if for_match else points

    def deals(count: int) -> list[int]:
        if read_bids:
            return reading.opponent_hands(view, seen, rng, count)
        return seen.opponent_hands(rng, count)

    if view.phase == "play":
        totals = _play_totals(view, seen, deals(PLAY_SAMPLES), worth, {})
        best = max(totals.values())
        tied = [c for c, total in totals.items() if total == best]
        # Points are coarse, so several cards often tie: among them play as a good player would.
        lead = card(view.trick[0][1]) if view.trick else None
        preferred = medium.play_choice(seen.hand, tied, seen.trump, lead, view.maker == seen.seat)
        return f"play:{CODES[preferred]}"
    scores = _bids(view, Table(view, seen, deals(BID_SAMPLES), worth))
    best = max(scores.values())
    for act in legal:  # the legal order puts "pass" first: on a tie, do not bid
        if scores[act] == best:
            return act
    raise AssertionError("every legal action has a score")


def values(view: View, rng: random.Random, samples: int) -> dict[str, float]:
    """What every legal action is worth to this seat in points, from its view alone: the
    points of the hand it scores less those the opponent scores, averaged over up to
    ``samples`` opponent hands (``values_by``)."""
    return values_by(view, rng, samples, (points,))[0]


def values_by(
    view: View, rng: random.Random, samples: int, worths: tuple[Worth, ...]
) -> list[dict[str, float]]:
    """What every legal action is worth to this seat, from its view alone, once for each of
    ``worths`` (points: the points of the hand it scores less those the opponent scores):
    averaged over the same ``samples`` opponent hands consistent with what it has seen (all of
    them when there are no more). The same search as ``choose``, with the budget the caller
    gives (the match analysis); the worths after the first reuse its solved positions."""
    seen = seen_from(view)
    deals = seen.opponent_hands(rng, samples)
    solvers: dict = {}
    found = []
    for worth in worths:
        if view.phase == "play":
            totals = _play_totals(view, seen, deals, worth, solvers)
            found.append({f"play:{CODES[c]}": total / len(deals) for c, total in totals.items()})
        else:
            found.append(_bids(view, Table(view, seen, deals, worth, solvers)))
    return found


def _play_totals(
    view: View, seen: Seen, deals: list[int], worth: Worth, solvers: dict
) -> dict[int, float]:
    """Each legal card's worth for this seat, summed over the opponent hands ``deals``."""
    seat = seen.seat
    trump = seen.trump
    maker = view.maker
    if (trump, maker) not in solvers:
        solvers[trump, maker] = Solver(trump, maker)
    solver = solvers[trump, maker]
    lead = card(view.trick[0][1]) if view.trick else None
    made = view.tricks_won[maker]
    cards = [card(a.split(":")[1]) for a in view.legal_actions]
    totals = dict.fromkeys(cards, 0.0)
    for opponent in deals:
        for c in cards:
            mine = seen.hand ^ 1 << c
            hands = (mine, opponent) if seat == 0 else (opponent, mine)
            if lead is None:
                points = solver.maker_points(hands, seat ^ 1, c, made)
            else:
                power = POWER[trump][EFFECTIVE_SUIT[trump][lead]]
                winner = seat if power[c] > power[lead] else seat ^ 1
                points = solver.maker_points(hands, winner, None, made + (winner == maker))
            totals[c] += worth(points if seat == maker else -points)
    return totals


def _bids(view: View, table: Table) -> dict[str, float]:
    """Average points of every legal bidding action (and of each discard)."""
    seat = table.seat
    opp = seat ^ 1
    phase = view.phase
    stick = dealer_stuck(view.rules["stick_the_dealer"], view.hand_number)
    up = suit_index(view.upcard_suit)
    average = table.average
    value = table.value
    scores: dict[str, float] = {}
    if phase == "discard":
        trump = suit_index(view.trump)
        for c in cards_in(table.seen.hand):
            mine = table.seen.hand ^ 1 << c
            scores[f"discard:{CODES[c]}"] = average(
                lambda o, mine=mine: value(o, trump, view.maker, mine=mine)
            )
        return scores
    if phase == "dealer_decides":
        trump = suit_index(view.trump)
        scores["take_up"] = average(lambda o: value(o, trump, opp, take_up=True))
        scores["leave"] = average(lambda o: value(o, trump, opp))
        return scores
    if phase == "name_joker":
        for s in range(4):

            def named(o: int, s: int = s) -> float:
                if medium.wants_to_order(o, s):
                    return value(o, s, opp, take_up=True)
                return value(o, s, seat, take_up=True)

            scores[f"joker:{SUITS[s]}"] = average(named)
        return scores
    names = [s for s in range(4) if s != up]
    if phase == "round_one" and seat != view.dealer:
        scores["order_up"] = average(lambda o: value(o, up, seat, take_up=True))
        # Passing: the dealer may take it up; if not, this seat names first in round two.
        accepted = [o for o in table.deals if medium.wants_to_accept(o, table.upcard, up)]
        rest = [o for o in table.deals if o not in accepted]
        total = sum(value(o, up, opp, take_up=True) for o in accepted)
        total += _best_of(_round_two_elder(table, names, stick, up), rest)
        scores["pass"] = total / len(table.deals)
        return scores
    if phase == "round_one":
        scores["accept"] = average(lambda o: value(o, up, seat, take_up=True))
        # Passing: the opponent names first in round two, then this seat.
        named = {o: medium.wants_to_name(o, up, must=False) for o in table.deals}
        total = sum(value(o, s, opp) for o, s in named.items() if s is not None)
        rest = [o for o, s in named.items() if s is None]
        options = {f"name:{SUITS[s]}": _naming(table, s) for s in names}
        if not stick:
            options["pass"] = lambda o: table.worth(0)  # passed out: no points
        total += _best_of(options, rest)
        scores["pass"] = total / len(table.deals)
        return scores
    # Round two.
    for s in names:
        scores[f"name:{SUITS[s]}"] = average(_naming(table, s))
    if "pass" in view.legal_actions:
        if seat != view.dealer:
            scores["pass"] = average(_dealer_names(table, up, stick))
        else:
            scores["pass"] = table.worth(0)  # the hand is passed out
    return scores


def _naming(table: Table, suit: int) -> Callable[[int], float]:
    return lambda o: table.value(o, suit, table.seat)


def _dealer_names(table: Table, up: int, stick: bool) -> Callable[[int], float]:
    """This seat passed in round two as the non-dealer: the opponent (the dealer) names a
    suit by the rules of thumb, or passes the hand out (never with stick the dealer)."""

    def outcome(opponent: int) -> float:
        suit = medium.wants_to_name(opponent, up, must=stick)
        return table.worth(0) if suit is None else table.value(opponent, suit, table.seat ^ 1)

    return outcome


def _round_two_elder(
    table: Table, names: list[int], stick: bool, up: int
) -> dict[str, Callable[[int], float]]:
    """This seat's round-two options when it names first; passing leaves it to the dealer."""
    options = {f"name:{SUITS[s]}": _naming(table, s) for s in names}
    options["pass"] = _dealer_names(table, up, stick)
    return options


def _best_of(options: dict[str, Callable[[int], float]], deals: list[int]) -> float:
    """The total of the one option that does best over ``deals``: a later decision is made
    without seeing the opponent's cards, so it cannot be chosen deal by deal."""
    if not deals:
        return 0.0
    return max(sum(outcome(o) for o in deals) for outcome in options.values())
