"""The rules of two-hand euchre (docs/RULES.md) as two functions over immutable states.

``legal_actions(state)`` lists what the seat to act may do; ``apply(state, action)`` returns the
next state or raises an ``IllegalAction`` saying why, leaving ``state`` as it was.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from functools import cache
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
    join_by_byte,
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
# From this deal of a match on (the first is deal 1) the dealer may not pass in round two, as
# with the option stick_the_dealer: every hand then scores, so a match to 10 has at most 48
# deals and one that two players pass out deal after deal ends (docs/RULES.md, "Deal").
STUCK_FROM_DEAL = 30

# The phase and action kinds every decision is checked against, as globals: a lookup of
# ``Phase.PLAY`` costs about 50 ns more, and bench/engine.py deals 17% fewer hands without them.
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
    """The shuffle for hand ``hand_number`` of the match with this seed (docs/RULES.md, "Deal")."""
    cards = _shuffle(seed, hand_number, deck, len(DECKS[deck]) - 1)
    return Deal((tuple(cards[0:5]), tuple(cards[5:10])), cards[10], tuple(cards[11:]))


def new_seed() -> int:
    """A secret seed for a real match. Whoever knows it knows every hand: never show it early."""
    return secrets.randbits(128)


def first_dealer(seed: int) -> int:
    hasher = _DEAL_HASH.copy()
    hasher.update(b"%d:first dealer" % seed)
    return hasher.digest()[0] & 1


def dealer_stuck(stick_the_dealer: bool, hand_number: int) -> bool:
    """Whether the dealer of hand ``hand_number`` (0: the first) must name a suit in round two:
    with the option ``stick_the_dealer``, or in any hand from deal ``STUCK_FROM_DEAL`` on."""
    return stick_the_dealer or hand_number >= STUCK_FROM_DEAL - 1


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


# The fields that every deal resets to the same values.
_FRESH_HAND = {
    "upcard_fate": UpcardFate.FACE_UP,
    "bids": (),
    "trump": None,
    "maker": None,
    "discard": None,
    "leader": None,
    "trick": (),
    "tricks": (),
    "winner": None,
}


def _hand_fields(deck: int, seed: int, number: int, dealer: int, scores: tuple[int, int]) -> dict:
    """Every field of a state that a new deal sets."""
    c = _shuffle(seed, number, deck, 11)  # two hands and the upcard
    upcard = c[10]
    hand0 = 1 << c[0] | 1 << c[1] | 1 << c[2] | 1 << c[3] | 1 << c[4]
    hand1 = 1 << c[5] | 1 << c[6] | 1 << c[7] | 1 << c[8] | 1 << c[9]
    fields = _FRESH_HAND.copy()
    fields["hand_number"] = number
    fields["dealer"] = dealer
    fields["scores"] = scores
    fields["hands"] = (hand0, hand1)
    fields["upcard"] = upcard
    fields["stock"] = DECK_MASKS[deck] ^ hand0 ^ hand1 ^ (1 << upcard)
    if upcard == JOKER:
        # A joker upcard: the dealer names its suit at once, before any bid.
        fields["phase"] = _NAME_JOKER
        fields["turn"] = dealer
        fields["upcard_suit"] = None
    else:
        fields["phase"] = _ROUND_ONE
        fields["turn"] = dealer ^ 1
        fields["upcard_suit"] = upcard >> 3
    return fields


# ---------------------------------------------------------------------------------------------
# Legal actions


def _fixed(*texts: str) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    return tuple(tuple(Action.parse(seat, t) for t in texts) for seat in (0, 1))


_JOKER_CALLS = _fixed("joker:C", "joker:D", "joker:H", "joker:S")
_ROUND_ONE_ELDER = _fixed("pass", "order_up")
_ROUND_ONE_DEALER = _fixed("pass", "accept")
_TAKE_UP_OR_LEAVE = _fixed("take_up", "leave")
_MUST_TAKE_UP = _fixed("take_up")


def _by_byte(make, seat: int) -> tuple:
    """``table[i][b]``: the seat's actions for the cards set in byte ``b`` of a mask, byte ``i``.

    A mask's actions are then five lookups and four tuple joins: no cache to fill or miss.
    """
    return tuple(
        tuple(
            tuple(make(seat, 8 * i + bit) for bit in range(8) if b >> bit & 1 and 8 * i + bit < 33)
            for b in range(256)
        )
        for i in range(5)
    )


_PLAY_BYTES = tuple(_by_byte(play_action, seat) for seat in (0, 1))
_DISCARD_BYTES = tuple(_by_byte(discard_action, seat) for seat in (0, 1))


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
        b0, b1, b2, b3, b4 = _PLAY_BYTES[turn]  # join_by_byte, inlined on the hot path
        return (
            b0[hand & 255]
            + b1[hand >> 8 & 255]
            + b2[hand >> 16 & 255]
            + b3[hand >> 24 & 255]
            + b4[hand >> 32 & 255]
        )
    if phase is _ROUND_ONE:
        return (_ROUND_ONE_DEALER if turn == state.dealer else _ROUND_ONE_ELDER)[turn]
    if phase is _DEALER_DECIDES:
        return (_MUST_TAKE_UP if state.rules.dealer_must_take_up else _TAKE_UP_OR_LEAVE)[turn]
    if phase is _DISCARD:
        return join_by_byte(_DISCARD_BYTES[turn], state.hands[turn])
    if phase is _ROUND_TWO:
        may_pass = turn != state.dealer or not dealer_stuck(
            state.rules.stick_the_dealer, state.hand_number
        )
        return _round_two_actions(turn, state.upcard_suit, may_pass)
    return _JOKER_CALLS[turn]  # naming the suit of a joker upcard


# ---------------------------------------------------------------------------------------------
# Applying an action

_VERBS = {
    _DO_PASS: "pass",
    _DO_ORDER_UP: "order it up",
    _DO_ACCEPT: "accept it",
    _DO_TAKE_UP: "take it up",
    _DO_LEAVE: "leave it",
    _DO_NAME: "name a suit",
    _DO_JOKER: "name the joker's suit",
    _DO_DISCARD: "discard",
    _DO_PLAY: "play a card",
}

# What the seat may do instead, by the kinds of action legal now: the second sentence of a
# WrongPhase message. Keyed by ``legal_actions``, so it never offers what the options forbid.
ALLOWED_WORDS = {
    ("joker",): "The joker was turned up: name its suit first.",
    ("pass", "order_up"): "You may pass or order it up.",
    ("pass", "accept"): "You may pass or accept it.",
    ("take_up", "leave"): "You were ordered up: take it up or leave it.",
    ("take_up",): "You were ordered up: take it up.",
    ("discard",): "Discard a card first.",
    ("pass", "name"): "You may pass or name a suit.",
    ("name",): "Name a suit.",
    ("play",): "Play a card.",
}


def allowed_kinds(state: State) -> tuple[str, ...]:
    """The kinds of action the seat to act may take, each once, in the order listed."""
    kinds: list[str] = []
    for action in legal_actions(state):
        if action.kind.value not in kinds:
            kinds.append(action.kind.value)
    return tuple(kinds)


def _wrong_moment(state: State, kind: ActionKind) -> WrongPhase:
    allowed = allowed_kinds(state)
    message = f"You cannot {_VERBS[kind]} now. {ALLOWED_WORDS[allowed]}"
    return WrongPhase(message, "wrong_phase", verb=kind.value, allowed=allowed)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (``state`` unchanged) if not allowed."""
    if state.phase is _PLAY:
        return _play(state, action)  # ten of a hand's dozen actions
    return _decide(state, action)


def _decide(state: State, action: Action) -> State:
    """Every action but a card played, and the refusal of anything out of place."""
    phase = state.phase
    if phase is _MATCH_OVER:
        raise MatchOver("The match is over", "match_over")
    if not isinstance(action, Action):
        raise UnknownAction("That is not an action in this game", "not_an_action")
    seat = action.seat
    if seat != state.turn:
        raise NotYourTurn("It is not your turn", "not_your_turn")
    kind = action.kind
    if phase is _PLAY:
        raise _wrong_moment(state, kind)  # a card played by the seat to act never gets here
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
                    "upcard_fate": UpcardFate.TURNED_DOWN,
                },
            )
        if kind is _DO_ACCEPT:
            return _take_up(state, seat, bids, seat, state.upcard_suit)
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
            "upcard_fate": UpcardFate.TAKEN_UP,
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
            raise DealerMustTakeUp(
                "In this match the dealer must take up the upcard", "dealer_must_take_up"
            )
        return _start_play(state, {"bids": state.bids + (action,), "upcard_fate": UpcardFate.LEFT})
    raise _wrong_moment(state, kind)


def _start_play(state: State, changes: dict) -> State:
    # The non-dealer leads the first trick.
    elder = state.dealer ^ 1
    changes["phase"] = _PLAY
    changes["turn"] = changes["leader"] = elder
    return evolve(state, changes)


def _discard(state: State, seat: int, card: int) -> State:
    hand = state.hands[seat]
    if not hand >> card & 1:
        raise CardNotHeld(f"You do not have {card_name(card)}", "card_not_held", card=card)
    hands = list(state.hands)
    hands[seat] = hand ^ (1 << card)
    return _start_play(state, {"hands": tuple(hands), "discard": card})


def _round_two(state: State, seat: int, action: Action) -> State:
    kind = action.kind
    if kind is _DO_NAME:
        if action.suit == state.upcard_suit:
            raise SuitTurnedDown("You cannot name the suit that was turned down", "turned_down")
        return _start_play(
            state, {"bids": state.bids + (action,), "trump": action.suit, "maker": seat}
        )
    if kind is not _DO_PASS:
        raise _wrong_moment(state, kind)
    if seat != state.dealer:
        return evolve(state, {"turn": seat ^ 1, "bids": state.bids + (action,)})
    if dealer_stuck(state.rules.stick_the_dealer, state.hand_number):
        raise DealerMustName("Stick the dealer: the dealer must name a suit", "must_name")
    # Both passed twice: the hand is void and the other player deals.
    bids = state.bids + (action,)
    result = _hand_result(state, bids, (), (0, 0), (0, 0), HandOutcome.PASSED_OUT)
    return _next_hand(state, state.scores, result)


def _play(state: State, action: Action) -> State:
    # The hot path: checks in one expression, fields copied and set one by one.
    if action.__class__ is not Action or action.kind is not _DO_PLAY or action.seat != state.turn:
        return _decide(state, action)  # raises the reason
    seat = action.seat
    card = action.card
    hand = state.hands[seat]
    if not hand >> card & 1:
        raise CardNotHeld(f"You do not have {card_name(card)}", "card_not_held", card=card)
    hand ^= 1 << card
    hands = (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)
    trick = state.trick
    if not trick:
        fields = state.__dict__.copy()
        fields["hands"] = hands
        fields["trick"] = _LEADS[seat][card]
        fields["turn"] = seat ^ 1
        new = _new_state(State)
        _set_dict(new, "__dict__", fields)
        return new
    trump = state.trump
    lead = trick[0][1]
    led = EFFECTIVE_SUIT[trump][lead]
    if EFFECTIVE_SUIT[trump][card] != led and state.hands[seat] & SUIT_MASK[trump][led]:
        raise MustFollowSuit(f"You must follow {SUIT_WORDS[led]}", "must_follow", suit=led)
    power = POWER[trump][led]
    leader = state.leader
    winner = seat if power[card] > power[lead] else leader
    plays = (trick[0], _LEADS[seat][card][0])
    tricks = state.tricks + (_new_tuple(Trick, (leader, plays, winner)),)
    if len(tricks) == TRICKS_PER_HAND:
        return _score_hand(state, hands, tricks)
    fields = state.__dict__.copy()
    fields["hands"] = hands
    fields["trick"] = ()
    fields["tricks"] = tricks
    fields["leader"] = winner
    fields["turn"] = winner
    new = _new_state(State)
    _set_dict(new, "__dict__", fields)
    return new


# Interned ((seat, card),) tuples: the trick a lead starts, without building it each time.
_LEADS = tuple(tuple(((seat, card),) for card in range(33)) for seat in (0, 1))
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
    fields = (
        state.hand_number,
        state.dealer,
        state.upcard,
        bids,
        state.discard,
        state.trump,
        state.maker,
        tricks,
        won,
        points,
        outcome,
    )
    return _new_tuple(HandResult, fields)


def _score_hand(state: State, hands: tuple, tricks: tuple) -> State:
    maker = state.maker
    made = sum(1 for trick in tricks if trick.winner == maker)
    won = (made, TRICKS_PER_HAND - made) if maker == 0 else (TRICKS_PER_HAND - made, made)
    if made == TRICKS_PER_HAND:
        outcome, scorer, points = HandOutcome.MARCH, maker, 2
    elif made >= 3:
        outcome, scorer, points = HandOutcome.MADE, maker, 1
    else:
        outcome, scorer, points = HandOutcome.EUCHRED, maker ^ 1, 2
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
                "scores": scores,
                "results": state.results + (result,),
                "winner": scorer,
            },
        )
    return _next_hand(state, scores, result)


__all__ = [
    "ALLOWED_WORDS",
    "Deal",
    "IllegalAction",
    "STUCK_FROM_DEAL",
    "allowed_kinds",
    "apply",
    "deal",
    "dealer_stuck",
    "first_dealer",
    "legal_actions",
    "new_match",
    "new_seed",
    "replay",
]
