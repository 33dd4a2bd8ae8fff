"""The admin as a read-only record of matches: staff see everything, nobody edits history."""

from __future__ import annotations

import pytest

from games import services
from games.engine import legal_actions
from tests.matches import resign

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("mod", password="Moderate-me-1")


def test_staff_find_a_match_by_player_and_read_its_move_log(client, staff, alice, bob):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    state = match.state
    services.move_apply(
        user=match.players[state.turn], match_id=match.pk,
        action=str(legal_actions(state)[0]), version=1,
    )  # fmt: skip
    client.force_login(staff)
    listing = client.get("/admin/games/match/?q=alic").content.decode()
    assert f"/admin/games/match/{match.pk}/change/" in listing
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert match.seed in page  # moderators may see the seed
    assert str(legal_actions(state)[0]) in page  # the move log
    assert 'name="moves-0-action"' not in page  # read-only: no form field for a move


def test_nobody_edits_or_deletes_matches_moves_or_ratings_in_the_admin(client, staff, alice, bob):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    resign(alice, match)
    client.force_login(staff)
    assert client.get(f"/admin/games/match/{match.pk}/delete/").status_code == 403
    assert client.get("/admin/games/match/add/").status_code == 403
    client.post(f"/admin/games/match/{match.pk}/change/", {"seed": "1", "status": "open"})
    match.refresh_from_db()
    assert match.seed != "1" and match.status == "finished"  # read-only fields are ignored
    assert client.get("/admin/games/ratingchange/add/").status_code == 403


def test_players_cannot_open_the_admin(client, alice):
    client.force_login(alice)
    response = client.get("/admin/games/match/")
    assert response.status_code == 302 and "/admin/login/" in response.url
