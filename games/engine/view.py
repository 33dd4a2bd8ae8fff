"""What one seat, or a spectator, may see of a match.

``view_for`` is the only way out of the engine for anything a person or a bot is shown: it
copies the public facts and the viewer's own cards and nothing else, so the opponent's hand,
the stock and (for the non-dealer) the discard cannot leak from a page built on it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import CODES, NO_TRUMP, SUIT_CODES, cards_in, sort_key
from .rules import legal_actions
from .state import Action, ActionKind, HandResult, State, Trick


@dataclass(frozen=True)
class TrickView:
    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None


@dataclass(frozen=True)
class HandResultView:
    """A finished hand's summary. No card of it is named: while the match runs, those cards
    are shuffled into later hands, so only the replay (after the match) shows them."""

    number: int
    dealer: int
    trump: str | None
    maker: int | None
    tricks_won: tuple[int, int]
    points: tuple[int, int]
    outcome: str
    discard: str | None  # only for that hand's dealer


@dataclass(frozen=True)
class LogEntry:
    """One line of the move log. ``kind``: deal (``card`` the upcard), bid (``action`` as the
    engine writes it, ``suit`` the trump it makes when that is not in the action), discard
    (``card`` only for the dealer: the opponent learns that a card went, not which), play,
    trick (``seat`` won it), result (``outcome``, ``seat`` the maker, ``tricks_won``)."""

    hand: int
    kind: str
    seat: int | None
    action: str = ""
    card: str = ""
    suit: str = ""
    outcome: str = ""
    tricks_won: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class View:
    seat: int | None  # None: a spectator
    rules: dict
    hand_number: int
    dealer: int
    phase: str
    turn: int | None
    scores: tuple[int, int]
    hand: tuple[str, ...]  # the viewer's own cards, trump first, high to low; empty for spectators
    hand_sizes: tuple[int, int]
    upcard: str
    upcard_suit: str | None
    upcard_fate: str
    trump: str | None
    maker: int | None
    discard: str | None  # only the dealer ever sees it
    bids: tuple[tuple[int, str], ...]
    leader: int | None
    trick: tuple[tuple[int, str], ...]
    tricks: tuple[TrickView, ...]
    tricks_won: tuple[int, int]
    results: tuple[HandResultView, ...]  # every hand so far: the last one is the latest
    # The latest finished trick: this hand's, or the last hand's until this one has one.
    last_trick: TrickView | None
    # The moves of this hand, preceded by the last hand's until this hand's first trick ends.
    log: tuple[LogEntry, ...]
    legal_actions: tuple[str, ...]
    winner: int | None

    def as_dict(self) -> dict:
        """The view as plain values (what ``dataclasses.asdict`` gives, in a third of its
        time: the API sends one at every move)."""
        return _plain(self)


def _plain(value):
    """A view's value with its dataclasses turned into dicts (tuples stay tuples). A view
    holds dataclasses, tuples and immutable scalars, and one dict, its rules, made afresh for
    each view: nothing needs copying (``asdict`` copies everything)."""
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    names = _FIELDS.get(type(value))
    if names is None:
        if not hasattr(value, "__dataclass_fields__"):
            return value
        names = _FIELDS[type(value)] = tuple(f.name for f in fields(value))
    return {name: _plain(getattr(value, name)) for name in names}


_FIELDS: dict[type, tuple[str, ...]] = {}


def _trick_view(trick: Trick) -> TrickView:
    return TrickView(trick.leader, tuple((s, CODES[c]) for s, c in trick.plays), trick.winner)


def _result_view(result: HandResult, seat: int | None) -> HandResultView:
    return HandResultView(
        number=result.number,
        dealer=result.dealer,
        trump=None if result.trump is None else SUIT_CODES[result.trump],
        maker=result.maker,
        tricks_won=result.tricks_won,
        points=result.points,
        outcome=result.outcome.value,
        discard=_seen_discard(result.discard, result.dealer, seat),
    )


def _result_views(state: State, seat: int | None) -> tuple[HandResultView, ...]:
    """Every hand's result; the dealer is reminded of their discard only in the last hand's,
    and only while it is shown beside the next deal (older cards are in play again)."""
    shown = len(state.results) - 1 if state.is_over or not state.tricks else -1
    return tuple(
        _result_view(r, seat if number == shown else None) for number, r in enumerate(state.results)
    )


def _seen_discard(discard: int | None, dealer: int, seat: int | None) -> str | None:
    return CODES[discard] if discard is not None and seat is not None and seat == dealer else None


_MAKES_THE_UPCARDS_SUIT = frozenset({ActionKind.ORDER_UP, ActionKind.ACCEPT})


def _hand_log(
    number: int,
    dealer: int,
    upcard: int,
    bids: tuple[Action, ...],
    discard: int | None,
    trump: int | None,
    tricks: tuple[Trick, ...],
    seat: int | None,
) -> list[LogEntry]:
    """A hand's moves in order: the deal, the bidding, the dealer's discard, the tricks."""
    log = [LogEntry(number, "deal", dealer, card=CODES[upcard])]
    for bid in bids:
        suit = (
            SUIT_CODES[trump] if bid.kind in _MAKES_THE_UPCARDS_SUIT and trump is not None else ""
        )
        log.append(LogEntry(number, "bid", bid.seat, action=str(bid), suit=suit))
        if bid.kind in (ActionKind.ACCEPT, ActionKind.TAKE_UP) and discard is not None:
            log.append(
                LogEntry(number, "discard", dealer, card=_seen_discard(discard, dealer, seat) or "")
            )
    for trick in tricks:
        log.extend(LogEntry(number, "play", s, card=CODES[c]) for s, c in trick.plays)
        log.append(LogEntry(number, "trick", trick.winner))
    return log


def _log(state: State, seat: int | None) -> tuple[LogEntry, ...]:
    log = []
    results = state.results
    current = None if state.is_over else state
    # The last hand, until the next one has a trick: at the end, the last hand alone.
    shown = results[-1:] if state.is_over or not state.tricks else ()
    for result in shown:
        log += _hand_log(
            result.number, result.dealer, result.upcard, result.bids, result.discard,
            result.trump, result.tricks, seat,
        )  # fmt: skip
        log.append(
            LogEntry(
                result.number, "result", result.maker,
                outcome=result.outcome.value, tricks_won=result.tricks_won,
            )
        )  # fmt: skip
    if current is not None:
        log += _hand_log(
            state.hand_number, state.dealer, state.upcard, state.bids, state.discard,
            state.trump, state.tricks, seat,
        )  # fmt: skip
        log.extend(LogEntry(state.hand_number, "play", s, card=CODES[c]) for s, c in state.trick)
    return tuple(log)


def _last_trick(state: State) -> TrickView | None:
    if state.tricks:
        return _trick_view(state.tricks[-1])
    if state.results and state.results[-1].tricks:
        return _trick_view(state.results[-1].tricks[-1])
    return None


def view_for(state: State, seat: int | None) -> View:
    """What ``seat`` (0 or 1; None for a spectator) may see of ``state``."""
    if seat not in (0, 1, None):
        raise ValueError("A view is for seat 0, seat 1 or a spectator (None)")
    trump = NO_TRUMP if state.trump is None else state.trump
    own = ()
    if seat is not None:
        own = tuple(
            CODES[c] for c in sorted(cards_in(state.hands[seat]), key=lambda c: sort_key(c, trump))
        )
    sizes = (state.hands[0].bit_count(), state.hands[1].bit_count())
    return View(
        seat=seat,
        rules=state.rules.as_dict(),
        hand_number=state.hand_number,
        dealer=state.dealer,
        phase=state.phase.value,
        turn=state.turn,
        scores=state.scores,
        hand=own,
        hand_sizes=sizes,
        # Both players saw the upcard turned, whatever became of it.
        upcard=CODES[state.upcard],
        upcard_suit=None if state.upcard_suit is None else SUIT_CODES[state.upcard_suit],
        upcard_fate=state.upcard_fate.value,
        trump=None if state.trump is None else SUIT_CODES[state.trump],
        maker=state.maker,
        discard=(
            CODES[state.discard]
            if state.discard is not None and seat is not None and seat == state.dealer
            else None
        ),
        bids=tuple((a.seat, str(a)) for a in state.bids),
        leader=state.leader,
        trick=tuple((s, CODES[c]) for s, c in state.trick),
        tricks=tuple(_trick_view(t) for t in state.tricks),
        tricks_won=state.tricks_won,
        results=_result_views(state, seat),
        last_trick=_last_trick(state),
        log=_log(state, seat),
        legal_actions=tuple(str(a) for a in legal_actions(state, seat)) if seat is not None else (),
        winner=state.winner,
    )


def hidden_cards(state: State, seat: int | None) -> set[str]:
    """Codes of the cards ``seat`` must not see now: for tests and leak checks."""
    hidden = set()
    for other in (0, 1):
        if other != seat:
            hidden.update(CODES[c] for c in cards_in(state.hands[other]))
    hidden.update(CODES[c] for c in cards_in(state.stock))
    if state.discard is not None and seat != state.dealer:
        hidden.add(CODES[state.discard])
    # The upcard was shown to everybody: taken up, it is in the dealer's hand but not a secret.
    hidden.discard(CODES[state.upcard])
    return hidden


def shown_from_last_hand(state: State, seat: int | None) -> set[str]:
    """Codes of the last hand's cards that the view still shows (its log, its last trick)
    until this hand's first trick is taken (or, once the match is over, the hand before the
    last): cards seen face up then, now shuffled into new
    hands, so a leak check must not count their codes as this hand's secrets."""
    finished = state.results[:-1] if state.is_over else () if state.tricks else state.results
    if not finished:
        return set()
    last = finished[-1]
    shown = {CODES[c] for trick in last.tricks for _, c in trick.plays}
    shown.add(CODES[last.upcard])
    if last.discard is not None and seat == last.dealer:
        shown.add(CODES[last.discard])
    return shown
