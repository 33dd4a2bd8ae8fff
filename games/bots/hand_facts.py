"""What each finished hand of a match was for each seat, and where each seat had a choice: the
facts the insights count (``games.services.insights`` stores them, one row per hand and seat).

Replayed from the seed, the options and the moves, like the analysis: pure, no Django.
A hand passed out (nobody made trump) has no maker and no points, and no facts here.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import EFFECTIVE_SUIT, JACK, JOKER, cards_in
from games.engine.rules import apply, legal_actions, new_match
from games.engine.state import Action, ActionKind, Phase, Rules

# A bid as the insights name it: ordering the upcard up (the non-dealer), taking it up as the
# dealer in the first round, naming a suit in the second. (Two-hand euchre has no going alone.)
ORDER_UP, TAKE_UP, NAME = "order_up", "take_up", "name"
BIDS = (ORDER_UP, TAKE_UP, NAME)
_BID_OF = {ActionKind.ORDER_UP: ORDER_UP, ActionKind.ACCEPT: TAKE_UP, ActionKind.NAME: NAME}

BIDDING = "bid"  # a decision's kind: any call of the bidding (a pass too), the discard, a card
DISCARD = "discard"
PLAY = "play"
_KIND = {Phase.PLAY: PLAY, Phase.DISCARD: DISCARD}


@dataclass(frozen=True)
class HandFact:
    """One finished hand for one seat."""

    hand: int  # the hand's number (0: the first)
    seat: int
    dealer: bool
    maker: bool
    bid: str  # the maker's bid (ORDER_UP, TAKE_UP, NAME); "" for the defender
    trumps: int | None  # the maker's trumps in its five cards when it bid (None: defender)
    bowers: int | None  # of them: the right and left bowers and the joker
    scored: int
    conceded: int
    outcome: str  # "made", "march" or "euchred" (the engine's HandOutcome values)


@dataclass(frozen=True)
class Choice:
    """A move made where its seat had more than one legal option."""

    index: int  # the move's place in the match (0: the first), as the analysis numbers it
    seat: int
    kind: str  # BIDDING, DISCARD or PLAY
    first_of_hand: bool  # the hand's first move: its time includes the deal on the table


def trumps_held(hand: int, trump: int) -> tuple[int, int]:
    """The trumps in a hand (a mask) when ``trump`` is trump, and how many are bowers (the
    jacks of trump and of its colour, and the joker)."""
    cards = [c for c in cards_in(hand) if EFFECTIVE_SUIT[trump][c] == trump]
    bowers = sum(1 for c in cards if c == JOKER or c & 7 == JACK)
    return len(cards), bowers


def facts(
    seed: int, rules: Rules, actions: list[tuple[int, str]]
) -> tuple[list[HandFact], list[Choice]]:
    """Every finished hand of the match for both seats, and every choice made in it."""
    state = new_match(seed, rules)
    hands: list[HandFact] = []
    choices: list[Choice] = []
    held: dict[int, tuple[int, int]] = {}  # the bid's trumps, by hand number
    last_hand = None
    for index, (seat, text) in enumerate(actions):
        if state.is_over:
            break
        move = Action.parse(seat, text)
        if len(legal_actions(state)) > 1:
            kind = _KIND.get(state.phase, BIDDING)
            choices.append(Choice(index, seat, kind, state.hand_number != last_hand))
        last_hand = state.hand_number
        if move.kind in _BID_OF:
            trump = move.suit if move.kind is ActionKind.NAME else state.upcard_suit
            held[state.hand_number] = trumps_held(state.hands[seat], trump)
        finished = len(state.results)
        state = apply(state, move)
        for result in state.results[finished:]:
            if result.maker is None:
                continue  # passed out
            bid = next(_BID_OF[a.kind] for a in result.bids if a.kind in _BID_OF)
            trumps, bowers = held[result.number]
            for s in (0, 1):
                maker = s == result.maker
                hands.append(
                    HandFact(
                        hand=result.number,
                        seat=s,
                        dealer=s == result.dealer,
                        maker=maker,
                        bid=bid if maker else "",
                        trumps=trumps if maker else None,
                        bowers=bowers if maker else None,
                        scored=result.points[s],
                        conceded=result.points[s ^ 1],
                        outcome=result.outcome.value,
                    )
                )
    return hands, choices
