"""Elo arithmetic against values computed by hand."""

from __future__ import annotations

import pytest

from games import rating


def test_equal_players_expect_half_a_point():
    assert rating.expected(1500, 1500) == 0.5


def test_a_200_point_favourite_expects_about_three_quarters():
    # 1 / (1 + 10^(-200/400)) = 1 / 1.316227... = 0.759747...
    assert rating.expected(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert rating.expected(1400, 1600) == pytest.approx(0.240253, abs=1e-6)


def test_k_is_40_for_the_first_20_rated_matches_then_20():
    assert [rating.k_factor(n) for n in (0, 19, 20, 100)] == [40, 40, 20, 20]


def test_new_players_gain_and_lose_20_against_each_other():
    assert rating.change(1500, 1500, 1.0, 0) == 20
    assert rating.change(1500, 1500, 0.0, 0) == -20


def test_a_favourite_gains_little_and_an_upset_pays_a_lot():
    assert rating.change(1600, 1400, 1.0, 30) == 5  # 20 * 0.240253 = 4.8
    assert rating.change(1400, 1600, 0.0, 30) == -5
    assert rating.change(1400, 1600, 1.0, 0) == 30  # 40 * 0.759747 = 30.4


def test_provisional_ratings_show_a_question_mark():
    assert rating.display(1500, 0) == "1500?"
    assert rating.display(1620, 20) == "1620"
