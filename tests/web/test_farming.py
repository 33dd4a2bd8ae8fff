"""Rating farming: only a few rated matches a day between the same two players count (the rest
are casual, and the joiner is told first), and moderators can list suspicious pairs."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Match, RatingChange
from tests.support.matches import resign
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    log_in(client, user)
    return client


def resigned_round(creator, joiner) -> Match:
    """A rated match both begin, then the joiner resigns (before both had acted it would be
    called off, and count for nothing)."""
    match = services.match_join(user=joiner, match_id=services.match_create(user=creator).pk)
    return resign(joiner, match)


def test_past_the_days_rated_matches_between_two_players_the_rest_are_casual(
    alice, bob, carol, settings
):
    settings.RATED_MATCHES_PER_PAIR_PER_DAY = 3
    rounds = [resigned_round(alice, bob) for _ in range(5)]
    assert [m.rated for m in rounds] == [True, True, True, False, False]
    assert RatingChange.objects.filter(player=alice).count() == 3
    assert resigned_round(alice, carol).rated  # another opponent counts as usual


def test_the_joiner_is_told_before_joining_that_the_match_will_be_casual(alice, bob, settings):
    settings.RATED_MATCHES_PER_PAIR_PER_DAY = 2
    for _ in range(2):
        resigned_round(alice, bob)
    waiting = services.match_create(user=alice)
    page = client_of(bob).get(f"/matches/{waiting.pk}/").content.decode()
    assert "data-casual-note" in page and "this one will be casual" in page
    lobby = client_of(bob).get("/play/").content.decode()
    assert "casual for you" in lobby
    assert "data-casual-note" not in client_of(alice).get("/play/").content.decode()


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="Moderate-me-1", is_staff=True)
    user.groups.add(moderators_group)
    return user


def test_moderators_filter_suspicious_pairs(moderator, alice, bob, carol, settings):
    settings.RATED_MATCHES_PER_PAIR_PER_DAY = 3
    farmed = [resigned_round(alice, bob) for _ in range(3)]
    honest = resigned_round(alice, carol)  # one resignation: normal
    listing = client_of(moderator).get("/admin/games/match/?suspicious=pairs")
    page = listing.content.decode()
    assert listing.status_code == 200 and "suspicious pairs" in page
    for match in farmed:
        assert f"/admin/games/match/{match.pk}/change/" in page
    assert f"/admin/games/match/{honest.pk}/change/" not in page
