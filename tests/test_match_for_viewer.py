"""One selector for "the match this viewer may see, or a refusal"
(``selectors.match_for_viewer``): the pages, the board's socket, the API and its streams all
ask it, and each words its refusal its own way (tests/web/test_privacy.py,
tests/api/test_endpoints.py, tests/web/test_consumers.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games import services
from games.db import selectors
from games.public import PublicMatch
from tests.support.api import program, token_for
from tests.support.matches import resign, start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("match_id", [10**9, 2**63, 10**30, 0, -1])
def test_no_such_match_is_refused_as_not_found(alice, match_id):
    with pytest.raises(services.NotFound) as refused:
        selectors.match_for_viewer(match_id=match_id, user=alice)
    assert refused.value.code == "no_such_match"


def test_a_private_match_in_play_is_its_players_alone_until_it_is_over(alice, bob, carol):
    match = start(alice, bob, spectators_allowed=False)
    for outsider in (carol, AnonymousUser()):
        with pytest.raises(services.NotAllowed) as refused:
            selectors.match_for_viewer(match_id=match.pk, user=outsider)
        assert refused.value.code == "not_open_to_watch"
    for player in (alice, bob):
        assert selectors.match_for_viewer(match_id=match.pk, user=player).pk == match.pk
    resign(alice, match)
    assert selectors.match_for_viewer(match_id=match.pk, user=carol).status == "finished"


def test_the_match_comes_with_what_its_board_needs(alice, bob, django_assert_num_queries):
    match = start(alice, bob)
    found = selectors.match_for_viewer(match_id=match.pk, user=alice)
    with django_assert_num_queries(0):  # its players' ratings and settings came with it
        public = PublicMatch.of(found)
    assert public.names == ("alice", "bob") and public.version == match.version


def test_the_api_refuses_as_the_selector_does(alice, bob, carol):
    match = start(alice, bob, spectators_allowed=False)
    api = program(token_for(carol))
    closed = api.get(f"/api/v1/matches/{match.pk}")
    missing = api.get("/api/v1/matches/999999999")
    assert (closed.status_code, closed.json()["code"]) == (403, "not_open_to_watch")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_such_match")
