"""Two edges of the analysis found by an independent solver, each from the position it was
found in: a dealer who passes a hand out in round two scores 0 (not the next deal's value);
a dealer who took the upcard up and then showed out of its suit discarded it (the search,
the hard computer and the hints must not give it back to them)."""

from __future__ import annotations

import itertools
import random

from games.bots import hard
from games.bots.analysis import decide, perfect_value
from games.bots.hint import hint
from games.bots.seen import SUITS, seen_from
from games.engine import Rules, apply, legal_actions, new_match, view_for
from games.engine.cards import CODES, DECK_MASKS, EFFECTIVE_SUIT, cards_in
from games.engine.state import Action, Phase

RULES = Rules(deck=24, target=10)


def _play(state, *texts):
    for text in texts:
        state = apply(state, Action.parse(state.turn, text))
    return state


def test_a_dealer_passing_the_hand_out_in_round_two_is_valued_at_nothing():
    # The first deal where everyone passes to the dealer's last call and the next deal,
    # played perfectly, is not worth 0 to the dealer: the old value took that deal's.
    for seed in range(1, 500):
        state = _play(new_match(seed, RULES), "pass", "pass", "pass")
        assert state.phase is Phase.ROUND_TWO and state.turn == state.dealer
        dealer = state.dealer
        passed = apply(state, Action.parse(dealer, "pass"))
        assert passed.hand_number == state.hand_number + 1  # the next deal
        if perfect_value(passed, dealer) != 0:
            break
    else:
        raise AssertionError("no deal found whose next deal is worth something")
    decision = decide(state, "pass", 3, random.Random(1), 20, {})
    options = {o.action: o for o in decision.options}
    assert options["pass"].perfect == 0 and options["pass"].known == 0.0
    assert perfect_value(passed, dealer, number=state.hand_number) == 0
    # The hard computer and the hints value it the same: the hand scores nothing.
    assert hard.values(view_for(state, dealer), random.Random(1), 20)["pass"] == 0.0


def _dealer_discards_the_upcard_and_shows_out_of_trump():
    """Seed 7: the dealer holds no club; the king of clubs is turned up, the elder orders it
    up, the dealer takes it and discards it, and cannot follow the ace of clubs led."""
    state = new_match(7, RULES)
    dealer, elder = state.dealer, state.dealer ^ 1
    assert CODES[state.upcard] == "KC" and state.turn == elder
    clubs = SUITS.index("C")
    assert not any(EFFECTIVE_SUIT[clubs][c] == clubs for c in cards_in(state.hands[dealer]))
    state = _play(state, "order_up", "take_up", "discard:KC", "play:AC")
    state = _play(state, str(legal_actions(state)[0]))  # any card: the dealer has no club
    assert state.turn == elder and not state.trick
    return state, elder


def test_a_dealer_who_discarded_the_upcard_is_not_given_it_back():
    state, elder = _dealer_discards_the_upcard_and_shows_out_of_trump()
    view = view_for(state, elder)
    seen = seen_from(view)
    upcard = 1 << state.upcard
    assert not seen.opponent_holds & upcard
    hands = seen.opponent_hands(random.Random(1), 10_000)  # few enough: every one of them
    assert hands and not any(h & upcard for h in hands)
    assert state.hands[elder ^ 1] in hands  # what the dealer really holds is possible


def test_the_hard_computer_and_the_hints_search_hands_the_dealer_may_hold():
    state, elder = _dealer_discards_the_upcard_and_shows_out_of_trump()
    view = view_for(state, elder)
    # The dealer's possible hands, counted here from the table: any of the cards the elder
    # has not seen (the upcard was discarded) but no club, as many as the dealer holds.
    clubs = SUITS.index("C")
    seen_cards = state.hands[elder] | 1 << state.upcard
    for trick in state.tricks:
        for _seat, c in trick.plays:
            seen_cards |= 1 << c
    pool = [c for c in cards_in(DECK_MASKS[24] & ~seen_cards) if EFFECTIVE_SUIT[clubs][c] != clubs]
    size = len(state.hand_cards(elder ^ 1))
    possible = [sum(1 << c for c in pick) for pick in itertools.combinations(pool, size)]
    assert state.hands[elder ^ 1] in possible
    totals = hard._play_totals(view, seen_from(view), possible, hard.points, {})
    exact = {f"play:{CODES[c]}": total / len(possible) for c, total in totals.items()}
    # Few enough to search them all: the hard computer's values are exactly those.
    assert hard.values(view, random.Random(1), 10_000) == exact
    # The elder holds the last trump, and the dealer none: keeping it is as good as any.
    # Given the upcard back, the dealer was thought to hold a trump over it (9C at -0.98).
    assert exact["play:9C"] == max(exact.values())
    # The hint (the hard computer's choice, from a sample of those hands) is one of the best.
    found = hint(view, random.Random(1))
    assert exact[found.action] == max(exact.values())
