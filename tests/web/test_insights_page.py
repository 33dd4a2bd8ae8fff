"""The insights page: the player's own, another's only if they allow it, filters from a GET
form, too few hands said in words, and a fixed number of queries whatever the matches."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from tests.support import insights as rows

pytestmark = pytest.mark.django_db


def _page(client, user, player, query: str = ""):
    client.force_login(user)
    return client.get(reverse("insights", args=[player.username]) + query)


def test_my_insights_show_my_figures_beside_my_bands(client, alice, bob):
    match = rows.finished_match(alice, bob)
    rows.hands(alice, match, [{"maker": True, "bid": "name", "trumps": 3, "bowers": 1,
                               "scored": 1, "conceded": 0}] * 25)  # fmt: skip
    response = _page(client, alice, alice)
    assert response.status_code == 200
    text = response.content.decode()
    assert "+1.00" in text  # a point a hand as maker
    assert "data-points-chart" in text and "<table" in text
    assert "from 1400 to 1600" in text


def test_too_few_hands_say_so_instead_of_a_figure(client, alice, bob):
    rows.hands(alice, rows.finished_match(alice, bob), [{}] * 7)
    text = _page(client, alice, alice).content.decode()
    assert "Too few hands to tell (7)" in text


def test_another_players_insights_are_refused_in_words_unless_they_allow_it(client, alice, bob):
    response = _page(client, bob, alice)
    assert response.status_code == 403
    assert "keeps their insights to themselves" in response.content.decode()
    services.insights_public_set(user=alice, allowed=True)
    assert _page(client, bob, alice).status_code == 200


def test_the_setting_is_saved_from_the_settings_page(client, alice):
    client.force_login(alice)
    action = f'action="{reverse("insights_public_set")}"'

    def form() -> str:
        page = client.get(reverse("settings")).content.decode()
        return page.split(action)[1].split("</form>")[0]

    assert " checked" not in form()
    client.post(reverse("insights_public_set"), {"allowed": "yes"})
    assert 'value="yes" checked' in form()


def test_filters_come_from_the_query_and_a_bad_one_is_refused_in_words(client, alice, bob):
    rows.hands(alice, rows.finished_match(alice, bob, rated=False), [{}] * 20)
    rows.hands(alice, rows.finished_match(alice, bob), [{}] * 3)
    text = _page(client, alice, alice, "?rated=rated").content.decode()
    assert "Too few hands to tell (3)" in text
    assert '<option value="rated" selected>' in text
    bad = _page(client, alice, alice, "?period=7")
    assert bad.status_code == 400 and "Choose the filters" in bad.content.decode()


def test_the_profile_and_the_menu_link_to_the_insights(client, alice, bob):
    client.force_login(alice)
    mine = client.get(reverse("profile", args=["alice"])).content.decode()
    assert reverse("insights", args=["alice"]) in mine
    theirs = client.get(reverse("profile", args=["bob"])).content.decode()
    assert "data-insights-link" not in theirs


def test_the_page_takes_as_many_queries_for_thirty_matches_as_for_one(
    client, alice, bob, django_assert_max_num_queries
):
    client.force_login(alice)
    rows.hands(alice, rows.finished_match(alice, bob), [{}] * 2)
    with django_assert_max_num_queries(40) as one:
        _page(client, alice, alice)
    for _n in range(30):
        match = rows.finished_match(alice, bob)
        rows.hands(alice, match, [{}] * 2)
        rows.decisions(alice, match, [0.1, 0.2])
    with django_assert_max_num_queries(len(one.captured_queries)):
        _page(client, alice, alice)
