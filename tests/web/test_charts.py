"""The profile's rating chart: its values labelled beyond the top and the bottom, the dates of
a few of its points under it in the viewer's language."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import translation

from games import services
from games.presentation.charts import line_chart
from tests.support.matches import resign

START = datetime(2026, 3, 2, 18, 30, tzinfo=UTC)


def test_a_chart_labels_round_values_between_its_lowest_and_highest():
    chart = line_chart([1500, 1516, 1531, 1519, 1547, 1580, 1562])
    words = [t.words for t in chart.values]
    assert words[0] == "1500" and words[-1] == "1580"
    assert words[1:-1] == ["1520", "1540", "1560"]  # a round step, 4 parts at most
    ys = [t.at for t in chart.values]
    assert ys == sorted(ys, reverse=True)  # upwards: SVG's y grows downwards
    assert all(a - b >= 22 for a, b in zip(ys, ys[1:], strict=False))  # labels never touch


def test_a_flat_chart_has_one_value_label():
    assert [t.words for t in line_chart([1500, 1500]).values] == ["1500"]


def test_a_chart_dates_a_few_points_in_the_viewers_language():
    values = [1500 + 7 * i for i in range(10)]
    dates = [START + timedelta(days=3 * i) for i in range(10)]
    with translation.override("en"):
        chart = line_chart(values, dates)
    ticks = chart.dates
    assert [t.words for t in ticks] == ["03/02/2026", "03/11/2026", "03/20/2026", "03/29/2026"]
    assert [t.anchor for t in ticks] == ["start", "middle", "middle", "end"]
    assert ticks[0].at == chart.left and ticks[-1].at == chart.width - chart.pad
    with translation.override("th"):
        thai = line_chart(values, dates)
    assert thai.dates[0].words == "2 มี.ค. 2026"
    with translation.override("so"):  # a language Django has no formats for: the site's
        assert line_chart(values, dates).dates[0].words == "02/03/2026"


def test_a_day_of_many_matches_is_dated_once():
    dates = [START + timedelta(minutes=i) for i in range(6)]
    with translation.override("en"):
        assert [t.words for t in line_chart(list(range(6)), dates).dates] == ["03/02/2026"]
    assert line_chart([1500]).dates == []  # no dates given: none shown


@pytest.mark.django_db
def test_the_profiles_chart_shows_dates_and_values(alice, bob):
    for _ in range(3):
        match = services.match_join(user=alice, match_id=services.match_create(user=bob).pk)
        resign(bob, match)
    client = Client()
    client.force_login(bob)
    page = client.get("/users/alice/").content.decode()
    svg = re.search(r"<svg[^>]*data-rating-chart.*?</svg>", page, re.S).group(0)
    assert len(re.findall(r"data-value-tick>\d+<", svg)) >= 3
    dates = re.findall(r"data-date-tick>([^<]+)<", svg)
    assert dates and all(re.fullmatch(r"\d\d/\d\d/\d{4}", d) for d in dates)
