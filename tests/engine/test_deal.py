"""The seeded deal: the same seed and options always give the same cards, everywhere."""

from __future__ import annotations

from collections import Counter

from games.engine import deal, first_dealer, new_match
from games.engine.cards import DECKS, card_codes
from games.engine.rules import _shuffle


def test_a_seed_gives_the_same_deal_on_every_machine_and_python_version():
    # Pinned output of the BLAKE2b-driven shuffle: a change here changes every past match.
    dealt = deal(20261129, 0, 24)
    assert [" ".join(card_codes(hand)) for hand in dealt.hands] == [
        "KS JS AH 9H TD",
        "JD KD QH AC AD",
    ]
    assert card_codes([dealt.upcard]) == ["QD"]
    assert " ".join(card_codes(dealt.stock)) == "9C AS KC 9D TS JC QC 9S QS KH JH TH TC"
    assert card_codes(deal(20261129, 0, 25).stock)[0] == "JK"
    assert " ".join(card_codes(deal(20261129, 0, 32).hands[0])) == "KH AD 8C JS 7C"


def test_each_deal_uses_every_card_of_its_deck_once():
    for deck in (24, 25, 32):
        dealt = deal(7, 3, deck)
        cards = [*dealt.hands[0], *dealt.hands[1], dealt.upcard, *dealt.stock]
        assert sorted(cards) == sorted(DECKS[deck])
        assert len(dealt.hands[0]) == len(dealt.hands[1]) == 5


def test_hands_of_one_match_are_shuffled_afresh():
    assert deal(7, 0) != deal(7, 1)
    assert deal(7, 0) != deal(8, 0)


def test_the_match_deals_what_deal_says():
    state = new_match(99)
    dealt = deal(99, 0)
    assert state.hand_cards(0) == tuple(sorted(dealt.hands[0]))
    assert state.upcard == dealt.upcard


def test_a_partial_shuffle_agrees_with_the_full_one():
    full = _shuffle(5, 2, 32, 31)
    assert _shuffle(5, 2, 32, 11)[:11] == full[:11]


def test_first_dealer_is_chosen_by_the_seed_and_both_seats_deal_first():
    counts = Counter(first_dealer(seed) for seed in range(2000))
    assert 900 < counts[0] < 1100
    assert new_match(12).dealer == first_dealer(12)


def test_upcards_are_spread_over_the_whole_deck():
    # A smoke test of fairness: over many deals every card is turned up roughly equally often.
    counts = Counter(deal(seed, 0, 24).upcard for seed in range(24 * 400))
    assert set(counts) == set(DECKS[24])
    assert max(counts.values()) < 1.3 * 400 and min(counts.values()) > 0.7 * 400


def test_real_match_seeds_are_128_bit_secrets():
    from games.engine import new_seed

    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert max(seeds).bit_length() > 100
