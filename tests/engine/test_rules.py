"""One test per rule of docs/RULES.md, positions built from compact card strings."""

from __future__ import annotations

import pytest

from games.engine import Rules, action, apply, legal_actions, new_match
from games.engine.cards import POWER, parse_card, parse_cards
from games.engine.errors import (
    CardNotHeld,
    DealerMustName,
    DealerMustTakeUp,
    MatchOver,
    MustFollowSuit,
    NotYourTurn,
    SuitTurnedDown,
    UnknownAction,
    WrongPhase,
)
from games.engine.rules import STUCK_FROM_DEAL
from games.engine.state import HandOutcome, Phase, UpcardFate
from games.engine.view import view_for
from tests.support.positions import bidding, position


def legal(state, seat=None) -> list[str]:
    return sorted(str(a) for a in legal_actions(state, seat))


def act(state, seat: int, *texts: str):
    for text in texts:
        state = apply(state, action(seat, text))
    return state


def cards(state, seat: int) -> str:
    return " ".join(view_for(state, seat).hand)


# Card order -------------------------------------------------------------------------------


def test_trump_order_with_clubs_trump_is_right_bower_left_bower_then_ace_down():
    order = parse_cards("JC JS AC KC QC TC 9C")
    power = POWER[0][0]  # clubs trump, clubs led
    assert [power[c] for c in order] == sorted((power[c] for c in order), reverse=True)
    assert len({power[c] for c in order}) == len(order)


def test_plain_suit_order_is_ace_king_queen_jack_ten_nine():
    order = parse_cards("AD KD QD JD TD 9D 8D 7D")
    power = POWER[0][1]  # clubs trump, diamonds led
    assert [power[c] for c in order] == sorted((power[c] for c in order), reverse=True)


def test_any_trump_beats_the_ace_of_the_suit_led():
    state = position(hands=("AS KH", "9H QD"), trump="H", leader=0, trick="AS")
    after = act(state, 1, "play:9H")
    assert after.tricks[-1].winner == 1


def test_off_suit_card_never_wins_when_it_cannot_follow():
    state = position(hands=("9S KH", "AD QH"), trump="C", leader=0, trick="9S")
    after = act(state, 1, "play:AD")
    assert after.tricks[-1].winner == 0


# Following suit and the left bower -------------------------------------------------------


def test_left_bower_follows_trump_not_its_printed_suit():
    # Hearts trump: the jack of diamonds is a heart. Diamonds led: it need not (may not) follow.
    state = position(hands=("9D", "JD KS QH"), trump="H", leader=0, trick="9D")
    assert legal(state) == ["play:JD", "play:KS", "play:QH"]
    # Trump led: the left bower is the only heart-suit card held, so it must be played.
    state = position(hands=("AH", "JD KS QD"), trump="H", leader=0, trick="AH")
    assert legal(state) == ["play:JD"]


def test_left_bower_beats_the_ace_of_trump():
    state = position(hands=("AH", "JD KS"), trump="H", leader=0, trick="AH")
    assert act(state, 1, "play:JD").tricks[-1].winner == 1


def test_right_bower_beats_the_left_bower():
    state = position(hands=("JD", "JH KS"), trump="H", leader=0, trick="JD")
    assert act(state, 1, "play:JH").tricks[-1].winner == 1


def test_must_follow_suit_when_able():
    state = position(hands=("KS", "9S AH QD"), trump="H", leader=0, trick="KS")
    assert legal(state) == ["play:9S"]
    with pytest.raises(MustFollowSuit, match="You must follow spades"):
        apply(state, action(1, "play:AH"))


def test_a_player_who_cannot_follow_may_play_any_card():
    state = position(hands=("KS", "9D AH QC"), trump="H", leader=0, trick="KS")
    assert legal(state) == ["play:9D", "play:AH", "play:QC"]


def test_leader_may_lead_any_card():
    state = position(hands=("9D AH QC JS", "9S TS QS KS"), trump="H", leader=0)
    assert legal(state) == ["play:9D", "play:AH", "play:JS", "play:QC"]


def test_winner_of_a_trick_leads_the_next():
    state = position(hands=("KS 9D", "AS QD"), trump="H", leader=0, trick="")
    state = act(state, 0, "play:KS")
    state = act(state, 1, "play:AS")
    assert state.turn == 1 and state.leader == 1 and state.trick == ()


# The joker (25-card deck) -----------------------------------------------------------------

JOKER_DECK = Rules(deck=25)


def test_joker_is_the_highest_trump():
    state = position(hands=("JH", "JK 9S"), trump="H", leader=0, trick="JH", rules=JOKER_DECK)
    assert act(state, 1, "play:JK").tricks[-1].winner == 1


def test_joker_follows_trump_and_must_be_played_to_a_trump_lead():
    state = position(hands=("9H", "JK AS"), trump="H", leader=0, trick="9H", rules=JOKER_DECK)
    assert legal(state) == ["play:JK"]


def test_joker_is_not_a_card_of_a_plain_suit_led():
    state = position(hands=("9S", "JK AD"), trump="H", leader=0, trick="9S", rules=JOKER_DECK)
    assert legal(state) == ["play:AD", "play:JK"]


def test_joker_upcard_dealer_names_its_suit_before_any_bid():
    state = bidding(hands=("9C TC QC KC AC", "9D TD QD KD AD"), upcard="JK", rules=JOKER_DECK)
    assert state.phase is Phase.NAME_JOKER and state.turn == state.dealer == 1
    assert legal(state) == ["joker:C", "joker:D", "joker:H", "joker:S"]
    with pytest.raises(NotYourTurn):
        apply(state, action(0, "order_up"))
    with pytest.raises(WrongPhase, match="name its suit"):
        apply(state, action(1, "pass"))
    state = act(state, 1, "joker:S")
    # Bidding proceeds as if a spade had been turned up: the non-dealer may order it up.
    assert state.phase is Phase.ROUND_ONE and state.turn == 0
    state = act(
        state,
        0,
        "order_up",
    )
    assert state.trump == 3 and state.maker == 0
    state = act(state, 1, "take_up")
    assert "JK" in cards(state, 1)


def test_joker_suit_counts_as_turned_down_in_round_two():
    state = bidding(hands=("9C TC QC KC AC", "9D TD QD KD AD"), upcard="JK", rules=JOKER_DECK)
    state = act(state, 1, "joker:S")
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    with pytest.raises(SuitTurnedDown):
        apply(state, action(0, "name:S"))


# Deal ------------------------------------------------------------------------------------


def test_each_player_gets_five_cards_and_the_upcard_proposes_trump():
    state = new_match(42)
    view = view_for(state, 0)
    assert view.hand_sizes == (5, 5)
    assert view.upcard_suit == view.upcard[1]
    assert state.phase is Phase.ROUND_ONE
    assert state.turn == state.dealer ^ 1  # the non-dealer speaks first


# Bidding, round one ------------------------------------------------------------------------


def test_non_dealer_may_pass_or_order_it_up():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    assert legal(state) == ["order_up", "pass"]
    assert legal(state, 1) == []


def test_ordering_up_makes_the_upcard_suit_trump_and_the_non_dealer_maker():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    state = act(state, 0, "order_up")
    assert state.trump == 2 and state.maker == 0
    assert state.phase is Phase.DEALER_DECIDES and state.turn == 1
    assert legal(state) == ["leave", "take_up"]


def test_dealer_takes_up_the_upcard_and_discards_one_card_face_down():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    state = act(state, 0, "order_up")
    state = act(state, 1, "take_up")
    assert state.phase is Phase.DISCARD and state.turn == 1
    assert view_for(state, 1).hand_sizes == (5, 6)
    assert "KH" in cards(state, 1)
    assert legal(state) == sorted(f"discard:{c}" for c in "QS KS 9D TH AC KH".split())
    state = act(state, 1, "discard:9D")
    assert state.phase is Phase.PLAY and state.turn == 0 and state.leader == 0
    assert view_for(state, 1).discard == "9D"
    assert view_for(state, 0).discard is None  # face down: the non-dealer never sees it
    assert view_for(state, None).discard is None


def test_dealer_may_leave_the_upcard_after_being_ordered_up():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    state = act(state, 0, "order_up")
    state = act(state, 1, "leave")
    assert state.upcard_fate is UpcardFate.LEFT
    assert state.trump == 2 and state.maker == 0
    assert state.phase is Phase.PLAY and state.turn == 0
    assert view_for(state, 1).hand_sizes == (5, 5)


def test_dealer_must_take_up_option_refuses_leaving_it():
    rules = Rules(dealer_must_take_up=True)
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH", rules=rules)
    state = act(state, 0, "order_up")
    assert legal(state) == ["take_up"]
    with pytest.raises(DealerMustTakeUp, match="must take up"):
        apply(state, action(1, "leave"))


def test_dealer_accepts_after_a_pass_and_becomes_maker():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    state = act(state, 0, "pass")
    assert legal(state) == ["accept", "pass"]
    state = act(state, 1, "accept")
    assert state.trump == 2 and state.maker == 1
    assert state.phase is Phase.DISCARD and "KH" in cards(state, 1)


def test_both_passing_turns_the_upcard_down_and_starts_round_two():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    assert state.phase is Phase.ROUND_TWO and state.turn == 0
    assert state.upcard_fate is UpcardFate.TURNED_DOWN


# Bidding, round two -------------------------------------------------------------------------


def _round_two(rules: Rules | None = None):
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH", rules=rules)
    return act(act(state, 0, "pass"), 1, "pass")


def test_round_two_any_suit_but_the_turned_down_one_may_be_named():
    state = _round_two()
    assert legal(state) == ["name:C", "name:D", "name:S", "pass"]


def test_turned_down_suit_is_refused():
    with pytest.raises(SuitTurnedDown, match="You cannot name the suit that was turned down"):
        apply(_round_two(), action(0, "name:H"))


def test_naming_a_suit_makes_it_trump_and_the_namer_maker_and_the_non_dealer_leads():
    state = act(_round_two(), 0, "pass")
    state = act(state, 1, "name:S")
    assert state.trump == 3 and state.maker == 1
    assert state.phase is Phase.PLAY and state.turn == 0


def test_both_passing_twice_voids_the_hand_and_the_other_player_deals():
    state = _round_two()
    dealer, number, scores = state.dealer, state.hand_number, state.scores
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    assert state.hand_number == number + 1
    assert state.dealer == dealer ^ 1
    assert state.scores == scores
    assert state.last_hand.outcome is HandOutcome.PASSED_OUT
    assert state.last_hand.points == (0, 0)
    assert state.phase in (Phase.ROUND_ONE, Phase.NAME_JOKER)


def test_stick_the_dealer_forbids_the_dealer_to_pass_in_round_two():
    state = act(_round_two(Rules(stick_the_dealer=True)), 0, "pass")
    assert legal(state) == ["name:C", "name:D", "name:S"]
    with pytest.raises(DealerMustName, match="dealer must name a suit"):
        apply(state, action(1, "pass"))


def test_stick_the_dealer_still_lets_the_non_dealer_pass():
    state = _round_two(Rules(stick_the_dealer=True))
    assert "pass" in legal(state)


def _pass_out(state):
    """Both players pass twice (round one, then round two)."""
    for _ in range(4):
        state = apply(state, action(state.turn, "pass"))
    return state


def test_from_the_thirtieth_deal_on_the_dealer_is_stuck_so_a_marathon_of_passes_ends():
    state = new_match(seed=36)
    for _ in range(STUCK_FROM_DEAL - 1):  # deals 1 to 29: passed out, no points
        state = _pass_out(state)
    assert len(state.results) == STUCK_FROM_DEAL - 1 and state.scores == (0, 0)
    assert all(r.outcome is HandOutcome.PASSED_OUT for r in state.results)
    for _ in range(3):  # deal 30: round one passed, then the non-dealer passes in round two
        state = apply(state, action(state.turn, "pass"))
    assert state.phase is Phase.ROUND_TWO and state.turn == state.dealer
    assert "pass" not in legal(state)
    assert list(view_for(state, state.turn).legal_actions) == legal(state)
    with pytest.raises(DealerMustName, match="dealer must name a suit"):
        apply(state, action(state.turn, "pass"))
    # Every hand from here on scores, so passing whenever allowed still ends the match.
    while not state.is_over:
        choices = legal(state)
        state = apply(state, action(state.turn, "pass" if "pass" in choices else choices[0]))
    assert len(state.results) <= STUCK_FROM_DEAL - 1 + 2 * state.rules.target - 1
    assert all(r.outcome is not HandOutcome.PASSED_OUT for r in state.results[29:])


def test_before_the_thirtieth_deal_the_dealer_may_still_pass_round_two():
    state = new_match(seed=36)
    for _ in range(STUCK_FROM_DEAL - 2):
        state = _pass_out(state)
    for _ in range(3):
        state = apply(state, action(state.turn, "pass"))
    assert state.hand_number == STUCK_FROM_DEAL - 2 and "pass" in legal(state)


# Scoring ------------------------------------------------------------------------------------


def _last_trick(won: tuple[int, int], maker_wins_last: bool, scores=(0, 0), target=10):
    # Seat 0 is maker and leads the fifth trick: AH (trump) beats 9C, or 9C loses to AH.
    hands = ("AH", "9C") if maker_wins_last else ("9C", "AH")
    state = position(
        hands=hands,
        trump="H",
        leader=0,
        maker=0,
        tricks_won=won,
        scores=scores,
        rules=Rules(target=target),
    )
    return act(act(state, 0, f"play:{hands[0].split()[0]}"), 1, f"play:{hands[1]}")


def test_maker_taking_three_tricks_scores_one_point():
    state = _last_trick((2, 2), maker_wins_last=True)
    assert state.last_hand.outcome is HandOutcome.MADE
    assert state.scores == (1, 0)


def test_maker_taking_four_tricks_scores_one_point():
    state = _last_trick((3, 1), maker_wins_last=True)
    assert state.last_hand.tricks_won == (4, 1)
    assert state.scores == (1, 0)


def test_march_scores_two_points():
    state = _last_trick((4, 0), maker_wins_last=True)
    assert state.last_hand.outcome is HandOutcome.MARCH
    assert state.scores == (2, 0)


def test_euchred_maker_gives_the_defender_two_points():
    state = _last_trick((2, 2), maker_wins_last=False)
    assert state.last_hand.outcome is HandOutcome.EUCHRED
    assert state.scores == (0, 2)


def test_match_ends_at_once_when_a_player_reaches_the_target():
    state = _last_trick((4, 0), maker_wins_last=True, scores=(8, 9))
    assert state.phase is Phase.MATCH_OVER
    assert state.winner == 0 and state.scores == (10, 9)
    assert state.turn is None and legal_actions(state) == ()
    with pytest.raises(MatchOver, match="The match is over"):
        apply(state, action(0, "pass"))


def test_match_goes_on_below_the_target():
    state = _last_trick((2, 2), maker_wins_last=True, scores=(8, 9))
    assert state.phase is not Phase.MATCH_OVER and state.scores == (9, 9)


def test_target_option_changes_the_winning_score():
    state = _last_trick((2, 2), maker_wins_last=True, scores=(4, 0), target=5)
    assert state.phase is Phase.MATCH_OVER and state.winner == 0


def test_next_hand_is_dealt_by_the_other_seat_after_a_scored_hand():
    state = _last_trick((2, 2), maker_wins_last=True)
    assert state.dealer == 0  # the position's dealer was 1
    assert state.hand_number == 1 and view_for(state, 0).hand_sizes == (5, 5)


# Illegal actions: each is refused with its message and changes nothing -----------------


def _refused(state, act_, error, message):
    before = state
    snapshot = dict(state.__dict__)
    with pytest.raises(error, match=message):
        apply(state, act_)
    assert state is before and state.__dict__ == snapshot


def test_out_of_turn_is_refused():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    _refused(state, action(1, "pass"), NotYourTurn, "It is not your turn")


def test_card_not_held_is_refused():
    state = position(hands=("9D AH", "9S TS"), trump="H", leader=0)
    _refused(state, action(0, "play:JH"), CardNotHeld, "You do not have the jack of hearts")


def test_not_following_suit_is_refused():
    state = position(hands=("KS", "9S AH"), trump="H", leader=0, trick="KS")
    _refused(state, action(1, "play:AH"), MustFollowSuit, "You must follow spades")


def test_bidding_during_play_is_refused():
    state = position(hands=("9D AH", "9S TS"), trump="H", leader=0)
    _refused(state, action(0, "order_up"), WrongPhase, "You cannot order it up now")


def test_playing_during_bidding_is_refused():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    _refused(state, action(0, "play:JH"), WrongPhase, "You cannot play a card now")


def test_dealer_word_from_the_non_dealer_is_refused():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    _refused(state, action(0, "accept"), WrongPhase, "pass or order it up")


def test_discarding_a_card_not_held_is_refused():
    state = bidding(hands=("JH JD AH 9C TS", "QS KS 9D TH AC"), upcard="KH")
    state = act(state, 0, "order_up")
    state = act(state, 1, "take_up")
    _refused(state, action(1, "discard:JH"), CardNotHeld, "You do not have the jack of hearts")


def test_unknown_actions_cannot_even_be_built():
    for seat, text in [(0, "bet:5"), (0, "play:ZZ"), (0, "name:X"), (2, "pass"), (0, None)]:
        with pytest.raises(UnknownAction):
            action(seat, text)


def test_something_that_is_no_action_is_refused():
    _refused(new_match(3), "pass", UnknownAction, "not an action")
    state = position(hands=("9D AH", "9S TS"), trump="H", leader=0)
    _refused(state, "play:9D", UnknownAction, "not an action")


def test_seeds_must_be_non_negative_integers():
    with pytest.raises(ValueError, match="seed"):
        new_match(-1)


def test_rules_refuse_impossible_options():
    with pytest.raises(ValueError, match="24, 25 or 32"):
        Rules(deck=52)
    with pytest.raises(ValueError, match="target"):
        Rules(target=0)


def test_card_codes_round_trip():
    assert parse_card("th") == parse_card("TH")
    assert [str(action(0, f"play:{c}")) for c in ("JK", "7C", "AS")] == [
        "play:JK",
        "play:7C",
        "play:AS",
    ]


def test_persisted_enum_values_never_change():
    from games.engine.state import ActionKind

    assert [p.value for p in Phase] == [
        "name_joker",
        "round_one",
        "dealer_decides",
        "discard",
        "round_two",
        "play",
        "match_over",
    ]
    assert [o.value for o in HandOutcome] == ["made", "march", "euchred", "passed_out"]
    assert [f.value for f in UpcardFate] == ["face_up", "taken_up", "left", "turned_down"]
    assert [k.value for k in ActionKind] == [
        "pass",
        "order_up",
        "accept",
        "take_up",
        "leave",
        "name",
        "joker",
        "discard",
        "play",
    ]
