"""The admin as a read-only record of matches: staff see everything, nobody edits history."""

from __future__ import annotations

import pytest

from games import services
from games.engine import legal_actions
from games.engine.verify import commitment
from tests.support.matches import resign
from tests.support.second_factors import log_in

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
    log_in(client, staff)
    listing = client.get("/admin/games/match/?q=alic").content.decode()
    assert f"/admin/games/match/{match.pk}/change/" in listing
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert str(legal_actions(state)[0]) in page  # the move log
    assert 'name="moves-0-action"' not in page  # read-only: no form field for a move


def test_no_seed_in_the_admin_while_the_match_is_in_play_only_its_commitment(
    client, staff, alice, bob
):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    log_in(client, staff)
    pages = [
        client.get(f"/admin/games/match/{match.pk}/change/"),
        client.get("/admin/games/match/"),
        client.get(f"/admin/games/match/{match.pk}/history/"),
    ]
    for page in pages:
        assert page.status_code == 200
        assert match.seed not in page.content.decode()
    found = client.get(f"/admin/games/match/?q={match.seed[:12]}").content.decode()
    assert "0 results" in found  # nor can it be found by guessing at it
    assert commitment(int(match.seed)) in pages[0].content.decode()
    services.match_resign(user=alice, match_id=match.pk)
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert match.seed in page  # over: anyone may check the deals


def test_the_dealers_discard_is_hidden_in_the_admins_move_log_until_the_end(
    client, staff, alice, bob
):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    state = match.state
    dealer = state.dealer
    match = services.move_apply(
        user=match.players[state.turn], match_id=match.pk, action="order_up", version=1
    ).match
    while not any(str(a).startswith("discard") for a in legal_actions(match.state)):
        take = next(str(a) for a in legal_actions(match.state) if str(a) in ("take_up", "accept"))
        match = services.move_apply(
            user=match.players[dealer], match_id=match.pk, action=take, version=match.version
        ).match
    discard = next(str(a) for a in legal_actions(match.state) if str(a).startswith("discard"))
    services.move_apply(
        user=match.players[dealer], match_id=match.pk, action=discard, version=match.version
    )
    log_in(client, staff)
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert discard not in page and "discard (shown when the match is over)" in page


def test_nobody_edits_or_deletes_matches_moves_or_ratings_in_the_admin(client, staff, alice, bob):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    resign(alice, match)
    log_in(client, staff)
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
