"""The hard computer reads the opponent's bids: the hands it searches fit them."""

from __future__ import annotations

import random
import statistics

from games.bots import medium, reading
from games.bots.seen import seen_from, suit_index
from games.engine import Action, Rules, apply, new_match, view_for
from games.engine.cards import EFFECTIVE_SUIT, cards_in


def _after(seed: int, moves: list[str]):
    """The view of the seat to act once ``moves`` were made from a new match's first deal."""
    state = new_match(seed, Rules())
    for text in moves:
        state = apply(state, Action.parse(state.turn, text))
    return view_for(state, state.turn)


def _trumps(hand: int, trump: int) -> int:
    return sum(1 for c in cards_in(hand) if EFFECTIVE_SUIT[trump][c] == trump)


def _both(view, count: int = 400):
    seen = seen_from(view)
    uniform = seen.opponent_hands(random.Random(1), count)
    read = reading.opponent_hands(view, seen, random.Random(1), count)
    return seen, uniform, read


def _consistent(seen, hands: list[int]) -> bool:
    allowed = seen.candidates() | seen.opponent_holds
    return all(
        h & ~allowed == 0
        and h & seen.opponent_holds == seen.opponent_holds
        and h.bit_count() == seen.opponent_size
        for h in hands
    )


def test_a_maker_who_ordered_up_is_searched_with_more_trumps_than_a_uniform_draw_gives():
    for seed in range(1, 6):
        view = _after(seed, ["order_up", "take_up"])  # the non-dealer orders, the dealer takes
        if view.phase != "discard":
            continue
        trump = suit_index(view.trump)
        seen, uniform, read = _both(view)
        assert _consistent(seen, read) and len(read) == 400
        more = statistics.mean(_trumps(h, trump) for h in read)
        alike = statistics.mean(_trumps(h, trump) for h in uniform)
        assert more > alike + 0.5, (seed, more, alike)
        # A hand without a single trump is all but ruled out: it would not have ordered.
        assert sum(_trumps(h, trump) == 0 for h in read) < 0.25 * sum(
            _trumps(h, trump) == 0 for h in uniform
        )


def test_an_opponent_who_passed_twice_is_searched_with_weaker_hands():
    view = _after(36, ["pass", "pass", "pass"])  # the dealer to name, the opponent passed twice
    assert view.phase == "round_two" and view.seat == view.dealer
    up = suit_index(view.upcard_suit)
    seen, uniform, read = _both(view)
    assert _consistent(seen, read)

    def best(h: int) -> float:
        return medium.best_suit(h, up)[1]

    assert statistics.mean(map(best, read)) < statistics.mean(map(best, uniform)) - 0.5
    strong = [h for h in uniform if best(h) >= medium.MAKE_AT + 1]
    assert strong, "the uniform draw holds hands worth naming"
    assert sum(best(h) >= medium.MAKE_AT + 1 for h in read) < 0.5 * len(strong)


def test_without_a_telling_bid_the_draw_is_the_uniform_one():
    view = _after(3, [])  # the first call of the match: the opponent has said nothing
    seen = seen_from(view)
    assert reading.likelihood(view, seen) is None
    assert reading.opponent_hands(view, seen, random.Random(5), 60) == seen.opponent_hands(
        random.Random(5), 60
    )
