"""What one seat, or a spectator, may see of a match.

``view_for`` is the only way out of the engine for anything a person or a bot is shown: it
copies the public facts and the viewer's own cards and nothing else, so the opponent's hand,
the stock and (for the non-dealer) the discard cannot leak from a page built on it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .cards import CODES, NO_TRUMP, SUIT_CODES, cards_in, sort_key
from .rules import legal_actions
from .state import HandResult, State, Trick


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
    legal_actions: tuple[str, ...]
    winner: int | None

    def as_dict(self) -> dict:
        return asdict(self)


def _trick_view(trick: Trick) -> TrickView:
    return TrickView(trick.leader, tuple((s, CODES[c]) for s, c in trick.plays), trick.winner)


def _result_view(result: HandResult) -> HandResultView:
    return HandResultView(
        number=result.number,
        dealer=result.dealer,
        trump=None if result.trump is None else SUIT_CODES[result.trump],
        maker=result.maker,
        tricks_won=result.tricks_won,
        points=result.points,
        outcome=result.outcome.value,
    )


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
        results=tuple(_result_view(r) for r in state.results),
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
