"""The fair-play signals: each figure equals the count done by hand from a hand-built history;
a cheating pattern crosses its threshold and honest play does not; the facts read from a few
matches played through the services are those of their rows; and a rated match finished and
analysed by a real task worker raises the flag of the person who moved through the API."""

from __future__ import annotations

import math
import random

import pytest

from games import services
from games.models import AccountEvent, EndReason
from games.services import fairplay_signals as fs
from games.services.fairplay_signals import Choice, Facts, Played
from tests.support.matches import resign, start
from tests.support.ways import play_out

THRESHOLDS = fs.THRESHOLDS


def choices(rows) -> list[Choice]:
    """(seconds, loss, spread) rows as one match's decisions."""
    return [Choice(1, *row) for row in rows]


def kinds(signals) -> dict:
    return {s["kind"]: s for s in signals}


def test_agreement_counts_the_best_choices_among_the_decisions_that_matter():
    rows = [(2.0, 0.0, 0.5)] * 70 + [(2.0, 0.4, 0.5)] * 30 + [(2.0, 0.0, 0.0)] * 50
    assert fs.agreement(choices(rows)) == (0.7, 100, 70)  # the 50 trivial ones not counted
    assert fs.agreement(choices(rows[:59])) == (None, 59, 59)  # too few: no figure


def test_average_loss_is_over_every_analysed_decision():
    rows = [(1.0, 0.2, 1.0)] * 30 + [(1.0, 0.0, 0.0)] * 30 + [(1.0, None, 1.0)] * 10
    assert fs.average_loss(choices(rows)) == (pytest.approx(0.1), 60)


def test_a_person_thinking_longer_on_hard_decisions_is_unlike_a_person_far_less_than_a_copier():
    rng = random.Random(1)
    spreads = [rng.choice((0.0, 0.1, 0.5, 1.0, 2.0)) for _ in range(120)]
    person = choices((1.0 + 3 * s + rng.uniform(0, 1), 0.0, s) for s in spreads)
    copier = choices((rng.uniform(3.0, 3.5), 0.0, s) for s in spreads)
    backwards = choices((5.0 - 2 * s, 0.0, s) for s in spreads)
    assert fs.timing(person)[0] < 0.5 < THRESHOLDS["timing"]
    assert 0.8 < fs.timing(copier)[0] < 1.2
    assert fs.timing(backwards)[0] == pytest.approx(2.0)  # fast on hard, slow on trivial
    assert fs.spearman([1, 2, 3], [3, 3, 3]) == 0.0


def played(match_id, opponent, won, reason=EndReason.PLAYED_OUT, moves=100, chance=None):
    return Played(match_id, opponent, won, not won, reason, moves, chance)


def test_stalling_is_the_share_of_lost_matches_left_to_the_clock_or_abandoned():
    history = [
        played(1, 7, False, EndReason.TIMEOUT),
        played(2, 8, False, EndReason.ABANDONED, moves=90),
        played(3, 9, False),
        played(4, 9, False),
        played(5, 9, True, EndReason.TIMEOUT),  # a win: the opponent left
    ]
    assert fs.stalling(history) == (0.5, 4, 2, [1, 2])
    assert fs.stalling(history[:3])[0] is None  # three losses: too few


def test_trading_counts_one_sided_cheap_losses_and_both_sides_read_the_same():
    gave = [
        played(1, 5, False, EndReason.RESIGNED, moves=12, chance=0.5),  # balanced: cheap
        played(2, 5, False, EndReason.TIMEOUT, moves=8),  # early: cheap
        played(3, 5, False, EndReason.RESIGNED, moves=60, chance=0.05),  # lost anyway
        played(4, 5, False, EndReason.TIMEOUT, moves=80),  # late: not cheap
        played(5, 6, True),
    ]
    assert fs.trading(gave, 5) == (4, 2, 0, [1, 2, 3, 4])
    took = [Played(p.match_id, 9, True, False, p.end_reason, p.moves, p.resigned_chance)
            for p in gave[:4]]  # fmt: skip
    assert fs.trading(took, 9) == (4, 2, 1, [1, 2, 3, 4])
    even = [played(1, 5, False, EndReason.RESIGNED, 10, 0.5), played(2, 5, True)]
    assert fs.trading(even, 5)[1] == 0  # one each: not one-sided


def test_the_band_is_the_median_of_its_players_figures_and_its_pooled_stalling():
    def member(n: int, agreeing: int, losses: list[str]) -> Facts:
        rows = [(2.0, 0.0, 1.0)] * agreeing + [(2.0, 0.5, 1.0)] * (20 - agreeing)
        history = [played(10 * n + k, 99, False, reason) for k, reason in enumerate(losses)]
        return Facts(n, False, history, choices(rows))

    band = fs.band_of([
        member(1, 10, [EndReason.TIMEOUT]),
        member(2, 14, [EndReason.PLAYED_OUT, EndReason.PLAYED_OUT]),
        member(3, 18, []),
        Facts(4, False, [], choices([(2.0, 0.0, 1.0)] * 19)),  # too few decisions to count
    ])  # fmt: skip
    assert (band.agreement, band.players) == (0.7, 4)  # 0.5, 0.7, 0.9
    assert band.loss == pytest.approx(0.15)  # 0.25, 0.15, 0.05
    assert band.stalling == pytest.approx(1 / 3, abs=1e-4)  # one loss left of three
    assert band.evenness == 0.0  # every think time 2 s


def honest_facts(rng: random.Random) -> Facts:
    rows = []
    for _ in range(150):
        spread = rng.choice((0.0, 0.2, 0.6, 1.2))
        best = rng.random() < 0.75
        seconds = (1.5 + 2 * spread) * math.exp(rng.gauss(0, 0.5))  # a person's uneven pace
        rows.append((seconds, 0.0 if best else 0.3, spread))
    history = [played(n, 100 + n, n % 2 == 0) for n in range(20)]
    return Facts(1, False, history, choices(rows), moves=400, names={})


def test_a_cheating_pattern_crosses_its_thresholds_and_honest_play_does_not():
    rng = random.Random(56)
    honest = fs.signals_of(honest_facts(rng))
    assert not [s for s in honest if fs.crossing(s)]
    # The computer's choice on all but one decision, quick on the hard ones, slow on the others.
    spreads = [rng.choice((0.2, 0.6, 1.2, 2.0)) for _ in range(150)]
    rows = [(6 - 2 * spread, 0.2 if n == 0 else 0.0, spread) for n, spread in enumerate(spreads)]
    traded = [played(n, 5, False, EndReason.RESIGNED, 10, 0.5) for n in range(3)]
    stalled = [played(10 + n, 20 + n, False, EndReason.TIMEOUT, 70) for n in range(5)]
    cheat = Facts(2, False, traded + stalled, choices(rows), moves=400, api_moves=100,
                  api_matches=[1], shared={5}, names={5: "bob"})  # fmt: skip
    crossed = kinds(s for s in fs.signals_of(cheat) if fs.crossing(s))
    assert set(crossed) == {"agreement", "loss", "timing", "api_moves", "trading", "stalling"}
    assert crossed["agreement"]["value"] == pytest.approx(149 / 150, abs=1e-4)
    assert crossed["loss"]["value"] == pytest.approx(0.2 / 150, abs=1e-4)
    assert crossed["timing"]["threshold"] == pytest.approx(
        0.75 + fs.TIMING_NOISE / 150**0.5, abs=1e-4
    )
    assert crossed["trading"]["detail"]["opponent"] == "bob"
    assert crossed["trading"]["threshold"] == fs.TRADING_SHARED_ADDRESS  # they share an address
    assert crossed["trading"]["matches"] == [0, 1, 2]
    assert crossed["stalling"]["value"] == 5 / 8 and crossed["stalling"]["matches"] == [
        10, 11, 12, 13, 14,
    ]  # fmt: skip
    # A declared bot's times and API moves are its own business.
    bot = Facts(**{**cheat.__dict__, "bot": True})
    assert not {"timing", "evenness", "api_moves"} & set(kinds(fs.signals_of(bot)))


def test_think_times_as_even_as_copying_another_tabs_answer_cross_evenness_a_persons_do_not():
    rng = random.Random(3)
    spreads = [rng.choice((0.0, 0.2, 0.6, 1.2)) for _ in range(100)]
    person = choices(((1.2 + 0.5 * s) * math.exp(rng.gauss(0, 0.55)), 0.0, s) for s in spreads)
    copier = choices((rng.uniform(3.0, 6.0), 0.0, s) for s in spreads)

    def facts(rows) -> Facts:
        return Facts(1, False, [], rows, moves=200)

    even = kinds(fs.signals_of(facts(copier)))["evenness"]
    assert fs.crossing(even) and even["value"] == pytest.approx(
        fs.timing(copier)[2], abs=1e-4
    )  # the coefficient of variation: about 0.19 for times even between 3 and 6 s
    assert 0.15 < even["value"] < THRESHOLDS["evenness"] == even["threshold"]
    assert even["detail"]["decisions"] == 100
    uneven = kinds(fs.signals_of(facts(person)))["evenness"]
    assert not fs.crossing(uneven) and uneven["value"] > 0.45
    assert "evenness" not in kinds(fs.signals_of(facts(copier[:59])))  # too few timed


@pytest.mark.django_db
def test_the_facts_read_from_played_matches_are_their_rows(
    alice, bob, carol, django_assert_max_num_queries
):
    page = {alice.pk: "page_socket", bob.pk: "page_socket", carol.pk: "page_socket"}
    first = play_out(start(alice, bob, seed=5601, target=5), {**page, alice.pk: "api_post"}, 1)
    second = play_out(start(alice, carol, seed=5602, target=5), page, 2)
    third = resign(alice, start(bob, alice, seed=5603))
    for match in (first, second):
        services.match_analyse(match_id=match.pk, samples=4, signals=False)
    for address, user in (("10.1.1.1", alice), ("10.1.1.1", bob), ("10.9.9.9", carol)):
        services.account_event(user=user, kind=AccountEvent.Kind.LOGIN, address=address)
    with django_assert_max_num_queries(8):  # whatever the window: never a query a match
        facts = fs.player_facts(alice.pk)
    assert [p.match_id for p in facts.played] == [third.pk, second.pk, first.pk]
    assert facts.played[0].lost and facts.played[0].end_reason == EndReason.RESIGNED
    assert facts.played[0].resigned_chance == 0.5  # no analysis: the start's
    mine = [m for m in first.moves.all() if m.player_id == alice.pk]
    moves_of_alice = sum(m.player_id == alice.pk for x in (first, second, third)
                         for m in x.moves.all())  # fmt: skip
    assert (facts.moves, facts.api_moves, facts.api_matches) == (
        moves_of_alice,
        len(mine),
        [first.pk],
    )
    assert facts.shared == {bob.pk}  # carol logged in from elsewhere
    analysed = [c for c in facts.choices if c.loss is not None]
    assert {c.match_id for c in analysed} == {first.pk, second.pk}
    assert all(c.spread is not None and c.spread >= 0 for c in analysed)
