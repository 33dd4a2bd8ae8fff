"""The insights' rows and figures: each figure equals the count done by hand from the
matches' own hand results (or from rows built with known facts), filters and too few hands
included."""

from __future__ import annotations

import pytest

from games import services
from games.bots.hand_facts import trumps_held
from games.db import selectors
from games.engine.cards import SUIT_CODES, mask_of, parse_cards
from games.models import InsightDecision, InsightHand, Match, PlayerRating
from games.public.insights import MINIMUM, Filters
from tests.support import insights as rows
from tests.support import matches

pytestmark = pytest.mark.django_db

HEARTS = SUIT_CODES.index("H")


def test_trumps_held_counts_the_left_bower_and_the_joker_as_trumps_and_bowers():
    hand = mask_of(parse_cards("JH JD AH 9C JK"))
    assert trumps_held(hand, HEARTS) == (4, 3)
    assert trumps_held(mask_of(parse_cards("AH KH 9S TS QC")), HEARTS) == (2, 0)


def _by_hand(match: Match, seat: int) -> dict:
    """The player's hands counted by hand from the engine's own results."""
    played = [r for r in match.state.results if r.maker is not None]
    mine = [r for r in played if r.maker == seat]
    theirs = [r for r in played if r.maker != seat]

    def net(r):
        return r.points[seat] - r.points[seat ^ 1]

    return {
        "hands": len(played),
        "net": sum(net(r) for r in played),
        "maker": len(mine),
        "maker_net": sum(net(r) for r in mine),
        "dealer": sum(1 for r in played if r.dealer == seat),
        "euchred": sum(1 for r in mine if r.outcome.value == "euchred"),
        "marches": sum(1 for r in mine if r.outcome.value == "march"),
        "euchres": sum(1 for r in theirs if r.outcome.value == "euchred"),
    }


def test_a_finished_match_writes_each_players_hands_and_the_figures_equal_the_hand_count(
    alice, bob
):
    played = rows.played(alice, bob, 3)
    expected: dict = {}
    for match in played:
        for key, value in _by_hand(match, match.seat_of(alice)).items():
            expected[key] = expected.get(key, 0) + value
    found = selectors.insights(player=alice, filters=Filters())
    assert found.hands.mine.count == expected["hands"] >= MINIMUM
    assert found.hands.mine.value == round(expected["net"] / expected["hands"], 2)
    assert found.maker.mine.count == expected["maker"]
    assert found.defender.mine.count == expected["hands"] - expected["maker"]
    assert found.dealer.mine.count == expected["dealer"]
    assert found.not_dealer.mine.count == expected["hands"] - expected["dealer"]
    assert (found.euchred.mine.times, found.euchred.mine.count) == (
        expected["euchred"],
        expected["maker"],
    )
    assert found.marches.mine.times == expected["marches"]
    assert found.euchres.mine.times == expected["euchres"]
    # Every bid of alice's is in one row of trumps held, and in one of bowers held.
    assert sum(r.mine.count for r in found.bids) == expected["maker"]
    assert sum(r.mine.count for r in found.bowers) == expected["maker"]
    # Her choices are timed from the move before (a hand's first one is not).
    assert InsightDecision.objects.filter(player=alice, seconds__isnull=False).exists()
    assert not InsightHand.objects.filter(player=bob).exclude(match__in=played).exists()


def test_recording_a_match_again_changes_nothing(alice, bob):
    (match,) = rows.played(alice, bob, 1)
    before = list(InsightHand.objects.filter(match=match).values_list("player", "hand", "scored"))
    services.insights_record(match=match)
    after = list(InsightHand.objects.filter(match=match).values_list("player", "hand", "scored"))
    assert sorted(before) == sorted(after) and before


def test_the_backfill_writes_the_rows_of_matches_that_ended_before_the_insights(alice, bob):
    (match,) = rows.played(alice, bob, 1)
    services.insights_forget(match_id=match.pk)
    assert services.insights_backfill() == 1
    assert InsightHand.objects.filter(match=match).exists()
    assert services.insights_backfill() == 0


def test_a_voided_match_counts_no_more(alice, bob, moderators_group, django_user_model):
    (match,) = rows.played(alice, bob, 1)
    moderator = django_user_model.objects.create_user("mod", password="x")
    moderator.groups.add(moderators_group)
    services.match_void(moderator=moderator, match_id=match.pk, reason="cheating")
    assert not InsightHand.objects.filter(match=match).exists()


def test_the_analysis_gives_each_choice_its_loss(alice, bob):
    (match,) = rows.played(alice, bob, 1)
    choices = list(InsightDecision.objects.filter(match=match).values_list("index", flat=True))
    services.insights_losses(match_id=match.pk, losses={i: 0.25 for i in choices})
    found = selectors.insights(player=alice, filters=Filters())
    mine = InsightDecision.objects.filter(match=match, player=alice).count()
    assert found.accuracy.mine.count == mine
    assert found.accuracy.mine.value == (0.25 if mine >= MINIMUM else None)


def _bid(trumps: int, outcome: str, bowers: int = 0, **more) -> dict:
    scored, conceded = {"made": (1, 0), "march": (2, 0), "euchred": (0, 2)}[outcome]
    return {"maker": True, "bid": "order_up", "trumps": trumps, "bowers": bowers,
            "outcome": outcome, "scored": scored, "conceded": conceded, **more}  # fmt: skip


def test_bids_are_counted_by_trumps_held_and_by_how_they_ended(alice, bob):
    match = rows.finished_match(alice, bob)
    facts = [_bid(2, "made")] * 12 + [_bid(2, "euchred", 1)] * 6 + [_bid(2, "march", 2)] * 2
    facts += [_bid(4, "march", 2)] * 3 + [_bid(1, "euchred")]
    rows.hands(alice, match, facts)
    found = selectors.insights(player=alice, filters=Filters())
    two = next(r for r in found.bids if (r.bid, r.held) == ("order_up", "2"))
    assert (two.mine.count, two.mine.made, two.mine.march, two.mine.euchred) == (20, 12, 2, 6)
    assert two.mine.share("euchred") == 0.3
    four = next(r for r in found.bids if (r.bid, r.held) == ("order_up", "4+"))
    assert (four.mine.count, four.mine.march, four.mine.share("march")) == (3, 3, None)
    one = next(r for r in found.bids if (r.bid, r.held) == ("order_up", "1"))
    assert one.mine.euchred == 1
    by_bowers = {r.held: r.mine.count for r in found.bowers}
    assert by_bowers == {"0": 13, "1": 6, "2+": 5}
    assert (found.euchred.mine.times, found.euchred.mine.count) == (7, 24)
    assert found.marches.mine.value == round(5 / 24, 4)


def test_too_few_hands_give_no_value_but_their_count(alice, bob):
    rows.hands(alice, rows.finished_match(alice, bob), [{}] * 7)
    found = selectors.insights(player=alice, filters=Filters())
    assert (found.hands.mine.value, found.hands.mine.count) == (None, 7)
    assert found.defender.mine.count == 7 and found.maker.mine.count == 0


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (Filters(), 5 * 20),
        (Filters(period="30"), 4 * 20),
        (Filters(period="90"), 4 * 20),
        (Filters(period="365"), 5 * 20),
        (Filters(rated="rated"), 4 * 20),
        (Filters(rated="casual"), 20),
        (Filters(opponent="computer"), 20),
        (Filters(opponent="people"), 4 * 20),
        (Filters(deck=32), 20),
        (Filters(target=5), 20),
        (Filters(period="30", deck=32), 20),
    ],
)
def test_each_filter_counts_only_the_matches_it_names(alice, bob, filters, expected):
    for options in (
        {"days_ago": 100},
        {"rated": False},
        {"computer": "hard"},
        {"deck": 32},
        {"target": 5},
    ):
        rows.hands(alice, rows.finished_match(alice, bob, **options), [{"conceded": 1}] * 20)
    found = selectors.insights(player=alice, filters=filters)
    assert found.hands.mine.count == expected
    assert found.hands.mine.value == -1.0


def test_the_band_counts_the_players_rated_within_100_but_not_the_player(
    alice, bob, carol, django_user_model
):
    far = django_user_model.objects.create_user("dave", password="x")
    for user, value in ((alice, 1500), (bob, 1590), (carol, 1420), (far, 1700)):
        PlayerRating.objects.update_or_create(user=user, defaults={"value": value})
    match = rows.finished_match(alice, bob)
    rows.hands(alice, match, [{"scored": 1, "conceded": 0}] * 20)
    rows.hands(bob, match, [{"scored": 0, "conceded": 1}] * 10)
    rows.hands(carol, rows.finished_match(carol, far), [{"scored": 2, "conceded": 0}] * 10)
    rows.hands(far, rows.finished_match(far, carol), [{"scored": 2, "conceded": 0}] * 30)
    found = selectors.insights(player=alice, filters=Filters())
    assert (found.band_low, found.band_high, found.band_players) == (1400, 1600, 2)
    assert found.hands.mine.value == 1.0
    assert (found.hands.band.count, found.hands.band.value) == (20, 0.5)


def test_the_figures_take_the_same_few_queries_for_one_match_or_thirty(
    alice, bob, django_assert_max_num_queries
):
    for _n in range(30):
        match = rows.finished_match(alice, bob)
        rows.hands(alice, match, [_bid(3, "made"), {}])
        rows.decisions(alice, match, [0.1, 0.0, None])
    with django_assert_max_num_queries(8):
        found = selectors.insights(player=alice, filters=Filters())
    assert found.hands.mine.count == 60 and found.accuracy.mine.count == 60


def test_a_match_against_a_person_played_out_is_recorded_once_for_each_player(alice, bob):
    match = matches.play_to_the_end(matches.start(alice, bob, rated=False), seed=3)
    people = set(InsightHand.objects.filter(match=match).values_list("player", flat=True))
    assert people == {alice.pk, bob.pk}
    assert not InsightHand.objects.filter(match=match, rated=True).exists()


def test_the_command_records_the_matches_without_rows(alice, bob):
    from io import StringIO

    from django.core.management import call_command

    (match,) = rows.played(alice, bob, 1)
    services.insights_forget(match_id=match.pk)
    out = StringIO()
    call_command("record_insights", stdout=out)
    assert "Recorded the insights of 1 finished match(es)." in out.getvalue()
    assert InsightHand.objects.filter(match=match).exists()
