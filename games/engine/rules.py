"""The rules of two-hand euchre (RULES.md) as two functions over immutable states.

``legal_actions(state)`` lists what the seat to act may do; ``apply(state, action)`` returns the
next state or raises an ``IllegalAction`` saying why, leaving ``state`` as it was.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import NamedTuple

from .cards import (
    DECK_MASKS,
    DECKS,
    EFFECTIVE_SUIT,
    JOKER,
    POWER,
    SUIT_MASK,
    SUIT_WORDS,
    card_name,
    cards_in,
)
from .errors import (
    CardNotHeld,
    DealerMustName,
    DealerMustTakeUp,
    IllegalAction,
    MatchOver,
    MustFollowSuit,
    NotYourTurn,
    SuitTurnedDown,
    UnknownAction,
    WrongPhase,
)
from .state import (
    Action,
    ActionKind,
    HandOutcome,
    HandResult,
    Phase,
    Rules,
    State,
    Trick,
    UpcardFate,
    discard_action,
    evolve,
    from_fields,
    play_action,
)

TRICKS_PER_HAND = 5

# Enum members as module globals: ``Phase.PLAY`` costs 100 ns a lookup, a global 7 ns.
_NAME_JOKER = Phase.NAME_JOKER
_ROUND_ONE = Phase.ROUND_ONE
_DEALER_DECIDES = Phase.DEALER_DECIDES
_DISCARD = Phase.DISCARD
_ROUND_TWO = Phase.ROUND_TWO
_PLAY = Phase.PLAY
_MATCH_OVER = Phase.MATCH_OVER
_DO_PASS = ActionKind.PASS
_DO_ORDER_UP = ActionKind.ORDER_UP
_DO_ACCEPT = ActionKind.ACCEPT
_DO_TAKE_UP = ActionKind.TAKE_UP
_DO_LEAVE = ActionKind.LEAVE
_DO_NAME = ActionKind.NAME
_DO_JOKER = ActionKind.JOKER
_DO_DISCARD = ActionKind.DISCARD
_DO_PLAY = ActionKind.PLAY
_UPCARD_FACE_UP = UpcardFate.FACE_UP
_UPCARD_TAKEN_UP = UpcardFate.TAKEN_UP
_UPCARD_LEFT = UpcardFate.LEFT
_UPCARD_TURNED_DOWN = UpcardFate.TURNED_DOWN
_MADE = HandOutcome.MADE
_MARCH = HandOutcome.MARCH
_EUCHRED = HandOutcome.EUCHRED
_PASSED_OUT = HandOutcome.PASSED_OUT


class Deal(NamedTuple):
    hands: tuple[tuple[int, ...], tuple[int, ...]]  # seat 0, seat 1, in the order dealt
    upcard: int
    stock: tuple[int, ...]  # under the upcard, top first


_DEAL_HASH = hashlib.blake2b(digest_size=32, person=b"two-hand-euchre")


def _shuffle(seed: int, hand_number: int, deck: int, count: int) -> list[int]:
    """The deck for one hand, its first ``count`` places shuffled (the rest follow on demand).

    Forward Fisher-Yates, each index drawn from a 256-bit number read as mixed radix. The
    number is BLAKE2b of (seed, hand): a counter-based generator whose output is fixed by its
    specification (unlike ``random.shuffle``), so a seed gives the same deals on every machine
    and Python version. 256 bits cover 32! (about 2^118) so often that the bias is below 2^-130.
    Drawing the places in order means that a partial shuffle agrees with the full one.
    """
    cards = list(DECKS[deck])
    hasher = _DEAL_HASH.copy()
    hasher.update(b"%d:%d" % (seed, hand_number))
    x = int.from_bytes(hasher.digest(), "big")
    n = len(cards)
    for i in range(count):
        x, r = divmod(x, n - i)
        j = i + r
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal(seed: int, hand_number: int, deck: int = 24) -> Deal:
    """The shuffle for hand ``hand_number`` of the match with this seed (RULES.md, "Deal")."""
    cards = _shuffle(seed, hand_number, deck, len(DECKS[deck]) - 1)
    return Deal((tuple(cards[0:5]), tuple(cards[5:10])), cards[10], tuple(cards[11:]))


def first_dealer(seed: int) -> int:
    hasher = _DEAL_HASH.copy()
    hasher.update(b"%d:first dealer" % seed)
    return hasher.digest()[0] & 1


def new_match(seed: int, rules: Rules | None = None) -> State:
    """The state at the start of a match: the first hand is dealt."""
    if not isinstance(seed, int) or seed < 0:
        raise ValueError("A seed is a non-negative integer")
    rules = rules or Rules()
    fields = _hand_fields(rules.deck, seed, 0, first_dealer(seed), (0, 0))
    return State(rules=rules, seed=seed, results=(), **fields)


def replay(seed: int, rules: Rules | None, actions: Iterable[Action]) -> State:
    """A match is its seed, its options and its actions: this rebuilds its state."""
    state = new_match(seed, rules)
    for act in actions:
        state = apply(state, act)
    return state


def _next_hand(state: State, scores: tuple[int, int], result: HandResult) -> State:
    """Deal the next hand; the deal passes to the other seat (after a pass-out too)."""
    fields = _hand_fields(
        state.rules.deck, state.seed, state.hand_number + 1, state.dealer ^ 1, scores
    )
    fields["rules"] = state.rules
    fields["seed"] = state.seed
    fields["results"] = state.results + (result,)
    return from_fields(fields)


def _hand_fields(deck: int, seed: int, number: int, dealer: int, scores: tuple[int, int]) -> dict:
    """Every field of a state that a new deal sets."""
    c = _shuffle(seed, number, deck, 11)  # two hands and the upcard
    upcard = c[10]
    hand0 = 1 << c[0] | 1 << c[1] | 1 << c[2] | 1 << c[3] | 1 << c[4]
    hand1 = 1 << c[5] | 1 << c[6] | 1 << c[7] | 1 << c[8] | 1 << c[9]
    joker_up = upcard == JOKER
    return {
        "hand_number": number,
        "dealer": dealer,
        "scores": scores,
        # A joker upcard: the dealer names its suit at once, before any bid.
        "phase": _NAME_JOKER if joker_up else _ROUND_ONE,
        "turn": dealer if joker_up else dealer ^ 1,
        "hands": (hand0, hand1),
        "upcard": upcard,
        "upcard_suit": None if joker_up else upcard >> 3,
        "upcard_fate": _UPCARD_FACE_UP,
        "stock": DECK_MASKS[deck] ^ hand0 ^ hand1 ^ (1 << upcard),
        "bids": (),
        "trump": None,
        "maker": None,
        "discard": None,
        "leader": None,
        "trick": (),
        "tricks": (),
        "tricks_won": (0, 0),
        "winner": None,
    }


# ---------------------------------------------------------------------------------------------
# Legal actions


def _fixed(*texts: str) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    return tuple(tuple(Action.parse(seat, t) for t in texts) for seat in (0, 1))


_JOKER_CALLS = _fixed("joker:C", "joker:D", "joker:H", "joker:S")
_ROUND_ONE_ELDER = _fixed("pass", "order_up")
_ROUND_ONE_DEALER = _fixed("pass", "accept")
_TAKE_UP_OR_LEAVE = _fixed("take_up", "leave")
_MUST_TAKE_UP = _fixed("take_up")


_PLAYS = tuple(tuple(play_action(seat, c) for c in range(33)) for seat in (0, 1))
_PLAY_CACHE: tuple[dict[int, tuple[Action, ...]], dict[int, tuple[Action, ...]]] = ({}, {})


def _play_actions(seat: int, mask: int) -> tuple[Action, ...]:
    cache = _PLAY_CACHE[seat]
    found = cache.get(mask)
    if found is None:
        if len(cache) >= 1 << 17:
            cache.clear()  # a bounded memo: hands recur, but not all 2^33 of them
        found = cache[mask] = tuple(map(_PLAYS[seat].__getitem__, cards_in(mask)))
    return found


@lru_cache(maxsize=1 << 12)
def _discard_actions(seat: int, mask: int) -> tuple[Action, ...]:
    return tuple(discard_action(seat, c) for c in cards_in(mask))


@cache
def _round_two_actions(seat: int, turned_down: int, may_pass: bool) -> tuple[Action, ...]:
    names = [Action.parse(seat, f"name:{'CDHS'[s]}") for s in range(4) if s != turned_down]
    return ((Action.parse(seat, "pass"),) if may_pass else ()) + tuple(names)


def legal_actions(state: State, seat: int | None = None) -> tuple[Action, ...]:
    """What ``seat`` (by default the seat to act) may do now; empty when it is not its turn."""
    turn = state.turn
    if turn is None or (seat is not None and seat != turn):
        return ()
    phase = state.phase
    if phase is _PLAY:
        hand = state.hands[turn]
        trick = state.trick
        if trick:
            trump = state.trump
            follow = hand & SUIT_MASK[trump][EFFECTIVE_SUIT[trump][trick[0][1]]]
            if follow:
                hand = follow
        found = _PLAY_CACHE[turn].get(hand)
        return _play_actions(turn, hand) if found is None else found
    if phase is _ROUND_ONE:
        return (_ROUND_ONE_DEALER if turn == state.dealer else _ROUND_ONE_ELDER)[turn]
    if phase is _DEALER_DECIDES:
        return (_MUST_TAKE_UP if state.rules.dealer_must_take_up else _TAKE_UP_OR_LEAVE)[turn]
    if phase is _DISCARD:
        return _discard_actions(turn, state.hands[turn])
    if phase is _ROUND_TWO:
        may_pass = turn != state.dealer or not state.rules.stick_the_dealer
        return _round_two_actions(turn, state.upcard_suit, may_pass)
    return _JOKER_CALLS[turn]  # naming the suit of a joker upcard


# ---------------------------------------------------------------------------------------------
# Applying an action

_VERBS = {
    _DO_PASS: "pass",
    _DO_ORDER_UP: "order it up",
    _DO_ACCEPT: "take it up",
    _DO_TAKE_UP: "take it up",
    _DO_LEAVE: "leave it",
    _DO_NAME: "name a suit",
    _DO_JOKER: "name the joker's suit",
    _DO_DISCARD: "discard",
    _DO_PLAY: "play a card",
}


def _wrong_moment(state: State, kind: ActionKind) -> WrongPhase:
    phase = state.phase
    dealer = state.turn == state.dealer
    if phase is _NAME_JOKER:
        expected = "the joker was turned up, so name its suit first"
    elif phase is _ROUND_ONE:
        expected = "you may pass or take it up" if dealer else "you may pass or order it up"
    elif phase is _DEALER_DECIDES:
        expected = "you were ordered up: take it up or leave it"
    elif phase is _DISCARD:
        expected = "discard a card first"
    elif phase is _ROUND_TWO:
        expected = "you may pass or name a suit"
    else:
        expected = "play a card"
    return WrongPhase(f"You cannot {_VERBS[kind]} now: {expected}")


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (``state`` unchanged) if not allowed."""
    phase = state.phase
    if (
        phase is _PLAY
        and action.__class__ is Action
        and action.kind is _DO_PLAY
        and action.seat == state.turn
    ):
        return _play(state, action.seat, action.card)  # the common case, checked first
    if phase is _MATCH_OVER:
        raise MatchOver("The match is over")
    if not isinstance(action, Action):
        raise UnknownAction("That is not an action in this game")
    seat = action.seat
    if seat != state.turn:
        raise NotYourTurn("It is not your turn")
    kind = action.kind
    if phase is _PLAY:
        if kind is not _DO_PLAY:
            raise _wrong_moment(state, kind)
        return _play(state, seat, action.card)
    if phase is _ROUND_ONE:
        return _round_one(state, seat, action)
    if phase is _DEALER_DECIDES:
        return _dealer_decides(state, seat, action)
    if phase is _DISCARD:
        if kind is not _DO_DISCARD:
            raise _wrong_moment(state, kind)
        return _discard(state, seat, action.card)
    if phase is _ROUND_TWO:
        return _round_two(state, seat, action)
    if kind is not _DO_JOKER:  # the joker was turned up
        raise _wrong_moment(state, kind)
    # Bidding then proceeds as if the named suit had been turned up.
    return evolve(
        state,
        {
            "upcard_suit": action.suit,
            "phase": _ROUND_ONE,
            "turn": 1 - seat,
            "bids": state.bids + (action,),
        },
    )


def _round_one(state: State, seat: int, action: Action) -> State:
    kind = action.kind
    bids = state.bids + (action,)
    if seat != state.dealer:
        if kind is _DO_PASS:
            return evolve(state, {"turn": seat ^ 1, "bids": bids})
        if kind is _DO_ORDER_UP:
            # Ordering up ends the bidding; the dealer still chooses to take the card or not.
            return evolve(
                state,
                {
                    "phase": _DEALER_DECIDES,
                    "turn": seat ^ 1,
                    "bids": bids,
                    "trump": state.upcard_suit,
                    "maker": seat,
                },
            )
    else:
        if kind is _DO_PASS:
            return evolve(
                state,
                {
                    "phase": _ROUND_TWO,
                    "turn": seat ^ 1,
                    "bids": bids,
                    "upcard_fate": _UPCARD_TURNED_DOWN,
                },
            )
        if kind is _DO_ACCEPT:
            return _take_up(state, seat, bids, maker=seat, trump=state.upcard_suit)
    raise _wrong_moment(state, kind)


def _take_up(state: State, dealer: int, bids: tuple, maker: int, trump: int) -> State:
    hands = list(state.hands)
    hands[dealer] |= 1 << state.upcard
    return evolve(
        state,
        {
            "phase": _DISCARD,
            "turn": dealer,
            "bids": bids,
            "hands": tuple(hands),
            "upcard_fate": _UPCARD_TAKEN_UP,
            "trump": trump,
            "maker": maker,
        },
    )


def _dealer_decides(state: State, seat: int, action: Action) -> State:
    kind = action.kind
    if kind is _DO_TAKE_UP:
        return _take_up(state, seat, state.bids + (action,), state.maker, state.trump)
    if kind is _DO_LEAVE:
        if state.rules.dealer_must_take_up:
            raise DealerMustTakeUp("In this match the dealer must take up the upcard")
        return _start_play(state, {"bids": state.bids + (action,), "upcard_fate": _UPCARD_LEFT})
    raise _wrong_moment(state, kind)


def _start_play(state: State, changes: dict) -> State:
    # The non-dealer leads the first trick.
    elder = state.dealer ^ 1
    changes.update({"phase": _PLAY, "turn": elder, "leader": elder})
    return evolve(state, changes)


def _discard(state: State, seat: int, card: int) -> State:
    hand = state.hands[seat]
    if not hand >> card & 1:
        raise CardNotHeld(f"You do not have {card_name(card)}")
    hands = list(state.hands)
    hands[seat] = hand ^ (1 << card)
    return _start_play(state, {"hands": tuple(hands), "discard": card})


def _round_two(state: State, seat: int, action: Action) -> State:
    kind = action.kind
    if kind is _DO_NAME:
        if action.suit == state.upcard_suit:
            raise SuitTurnedDown("You cannot name the suit that was turned down")
        return _start_play(
            state, {"bids": state.bids + (action,), "trump": action.suit, "maker": seat}
        )
    if kind is not _DO_PASS:
        raise _wrong_moment(state, kind)
    if seat != state.dealer:
        return evolve(state, {"turn": seat ^ 1, "bids": state.bids + (action,)})
    if state.rules.stick_the_dealer:
        raise DealerMustName("Stick the dealer: the dealer must name a suit")
    # Both passed twice: the hand is void and the other player deals.
    bids = state.bids + (action,)
    result = _hand_result(state, bids, (), (0, 0), (0, 0), _PASSED_OUT)
    return _next_hand(state, state.scores, result)


def _play(state: State, seat: int, card: int) -> State:
    # The hot path (ten of a hand's dozen actions): fields are copied and set one by one.
    hand = state.hands[seat]
    if not hand >> card & 1:
        raise CardNotHeld(f"You do not have {card_name(card)}")
    hand ^= 1 << card
    hands = (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)
    trick = state.trick
    if not trick:
        fields = state.__dict__.copy()
        fields["hands"] = hands
        fields["trick"] = ((seat, card),)
        fields["turn"] = seat ^ 1
        new = _new_state(State)
        _set_dict(new, "__dict__", fields)
        return new
    trump = state.trump
    lead = trick[0][1]
    led = EFFECTIVE_SUIT[trump][lead]
    if EFFECTIVE_SUIT[trump][card] != led and state.hands[seat] & SUIT_MASK[trump][led]:
        raise MustFollowSuit(f"You must follow {SUIT_WORDS[led]}")
    power = POWER[trump][led]
    leader = state.leader
    winner = seat if power[card] > power[lead] else leader
    tricks = state.tricks + (_new_tuple(Trick, (leader, (trick[0], (seat, card)), winner)),)
    won = state.tricks_won
    won = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
    if len(tricks) == TRICKS_PER_HAND:
        return _score_hand(state, hands, tricks, won)
    fields = state.__dict__.copy()
    fields["hands"] = hands
    fields["trick"] = ()
    fields["tricks"] = tricks
    fields["tricks_won"] = won
    fields["leader"] = winner
    fields["turn"] = winner
    new = _new_state(State)
    _set_dict(new, "__dict__", fields)
    return new


_new_state = object.__new__  # from_fields, inlined on this path
_set_dict = object.__setattr__
_new_tuple = tuple.__new__  # a NamedTuple's own __new__ is a Python function: twice as slow


def _hand_result(
    state: State,
    bids: tuple[Action, ...],
    tricks: tuple[Trick, ...],
    won: tuple[int, int],
    points: tuple[int, int],
    outcome: HandOutcome,
) -> HandResult:
    return HandResult(
        number=state.hand_number,
        dealer=state.dealer,
        upcard=state.upcard,
        bids=bids,
        discard=state.discard,
        trump=state.trump,
        maker=state.maker,
        tricks=tricks,
        tricks_won=won,
        points=points,
        outcome=outcome,
    )


def _score_hand(state: State, hands: tuple, tricks: tuple, won: tuple[int, int]) -> State:
    maker = state.maker
    made = won[maker]
    if made == TRICKS_PER_HAND:
        outcome, scorer, points = _MARCH, maker, 2
    elif made >= 3:
        outcome, scorer, points = _MADE, maker, 1
    else:
        outcome, scorer, points = _EUCHRED, maker ^ 1, 2
    gained = (points, 0) if scorer == 0 else (0, points)
    scores = (state.scores[0] + gained[0], state.scores[1] + gained[1])
    result = _hand_result(state, state.bids, tricks, won, gained, outcome)
    if scores[scorer] >= state.rules.target:
        # The match ends at once; the finished hand stays on the table.
        return evolve(
            state,
            {
                "phase": _MATCH_OVER,
                "turn": None,
                "hands": hands,
                "trick": (),
                "tricks": tricks,
                "tricks_won": won,
                "scores": scores,
                "results": state.results + (result,),
                "winner": scorer,
            },
        )
    return _next_hand(state, scores, result)


__all__ = [
    "Deal",
    "IllegalAction",
    "apply",
    "deal",
    "first_dealer",
    "legal_actions",
    "new_match",
    "replay",
]
