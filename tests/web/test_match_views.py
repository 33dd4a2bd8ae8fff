"""Accounts, lobby and match pages, with and without htmx; bad input gets a clear 4xx."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.engine import legal_actions
from games.engine.cards import CODES, cards_in
from games.models import Match, MatchStatus
from tests.support.mail import address_confirmed
from tests.support.matches import play_to_the_end, resign
from tests.support.positions import codes_in

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def active(alice, bob) -> Match:
    return services.match_join(user=bob, match_id=services.match_create(user=alice).pk)


def client_for(client_factory, user):
    c = client_factory()
    c.force_login(user)
    return c


@pytest.fixture
def clients(alice, bob, carol):
    from django.test import Client

    return {u.username: client_for(Client, u) for u in (alice, bob, carol)}


def to_act(match: Match):
    match.refresh_from_db()
    return match.players[match.state.turn]


def hand_codes(match: Match, seat: int) -> set[str]:
    return {CODES[c] for c in cards_in(match.state.hands[seat])}


# Accounts ----------------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in_and_back(client, active):
    for path in ("/play/", f"/matches/{active.pk}/", "/users/alice/"):
        response = client.get(path)
        assert response.status_code == 302
        assert response.url == f"/accounts/login/?next={path}"


def test_signing_up_logs_in_and_opens_the_lobby(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "",
            "password1": "Zebra-cards-41",
            "password2": "Zebra-cards-41",
        },
    )
    assert response.status_code == 302 and response.url == "/play/"
    page = client.get("/play/").content.decode()
    assert "dora" in page and 'data-action="create-match"' in page


def test_after_signing_up_next_leads_only_to_a_page_of_this_site(client):
    data = {"password1": "Zebra-cards-41", "password2": "Zebra-cards-41"}
    inside = client.post("/accounts/signup/?next=/leaderboard/", {**data, "username": "fay"})
    assert inside.url == "/leaderboard/"
    client.logout()
    outside = client.post(
        "/accounts/signup/?next=https://evil.example/", {**data, "username": "gus"}
    )
    assert outside.url == "/play/"


def test_weak_passwords_are_refused_with_the_reason(client):
    response = client.post(
        "/accounts/signup/", {"username": "ed", "password1": "12345678", "password2": "12345678"}
    )
    assert response.status_code == 400
    assert "This password is too common" in response.content.decode()
    assert not get_user_model().objects.filter(username="ed").exists()


def test_log_in_and_log_out(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "correct horse 1"})
    assert response.status_code == 302
    assert client.get("/play/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/play/").status_code == 302


def test_password_reset_sends_a_mail(client, alice, mailoutbox):
    address_confirmed(alice, "alice@example.com")
    response = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and "/accounts/reset/" in mailoutbox[0].body


def test_profile_shows_member_since_and_record(clients, active, alice):
    resign(alice, active)
    page = clients["carol"].get("/users/bob/").content.decode()
    assert "Member since" in page and "1 won, 0 lost" in page
    assert clients["carol"].get("/users/nobody/").status_code == 404


# Lobby -------------------------------------------------------------------------------------


def test_creating_a_match_opens_it_with_an_invite_link(clients):
    response = clients["alice"].post("/play/create", {"deck": "32", "target": "7", "rated": "on"})
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"
    assert (match.deck, match.target, match.rated) == (32, 7, True)
    page = clients["alice"].get(response.url).content.decode()
    assert "Waiting for an opponent" in page
    assert re.search(rf'<a data-invite href="/matches/{match.pk}/">', page)


def test_bad_match_options_are_refused_with_a_message(clients):
    response = clients["alice"].post("/play/create", {"deck": "52", "target": "10"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


def test_the_lobby_lists_open_matches_of_others_with_a_join_button(clients, alice):
    services.match_create(user=alice)
    page = clients["bob"].get("/play/").content.decode()
    assert 'data-action="join"' in page and "alice" in page
    mine = clients["alice"].get("/play/").content.decode()
    assert 'data-action="join"' not in mine  # nobody joins their own match


def test_the_invite_link_offers_to_join_and_joining_starts_the_match(clients, alice):
    match = services.match_create(user=alice)
    page = clients["bob"].get(f"/matches/{match.pk}/").content.decode()
    assert "alice invites you to a match" in page and 'data-action="join"' in page
    response = clients["bob"].post(f"/matches/{match.pk}/join")
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


# The board ---------------------------------------------------------------------------------


def test_the_board_names_my_cards_and_only_counts_the_opponents(clients, active):
    page = clients["alice"].get(f"/matches/{active.pk}/").content.decode()
    seat = active.seat_of(active.player0)
    mine, theirs = hand_codes(active, seat), hand_codes(active, seat ^ 1)
    assert mine <= codes_in(page)
    assert not theirs & codes_in(page)
    assert f'data-match-id="{active.pk}"' in page and 'data-version="1"' in page


def test_the_board_offers_exactly_my_legal_actions(clients, active):
    user = to_act(active)
    page = clients[user.username].get(f"/matches/{active.pk}/").content.decode()
    offered = set(re.findall(r'name="action" value="([^"]+)"', page))
    assert offered == {str(a) for a in legal_actions(active.state)}
    assert "data-your-turn" in page
    other = "bob" if user.username == "alice" else "alice"
    page = clients[other].get(f"/matches/{active.pk}/").content.decode()
    assert not re.findall(r'name="action"', page) and "data-your-turn" not in page


def test_a_spectator_sees_neither_hand(clients, active):
    page = clients["carol"].get(f"/matches/{active.pk}/").content.decode()
    assert not (hand_codes(active, 0) | hand_codes(active, 1)) & codes_in(page)
    assert 'name="action"' not in page


def test_an_htmx_move_returns_the_board_partial(clients, active):
    user = to_act(active)
    text = str(legal_actions(active.state)[0])
    response = clients[user.username].post(
        f"/matches/{active.pk}/act", {"action": text, "version": 1}, **HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and body.lstrip().startswith('<div id="board"')
    assert 'data-version="2"' in body


def test_a_move_without_javascript_redirects_back_to_the_match(clients, active):
    user = to_act(active)
    text = str(legal_actions(active.state)[0])
    response = clients[user.username].post(
        f"/matches/{active.pk}/act", {"action": text, "version": 1}
    )
    assert response.status_code == 302 and response.url == f"/matches/{active.pk}/"


def test_order_it_up_and_the_other_bidding_words_are_the_games_own(clients, active):
    user = to_act(active)
    state = active.state
    page = clients[user.username].get(f"/matches/{active.pk}/").content.decode()
    if state.phase.value == "name_joker":
        expected = ["Joker is clubs", "Joker is hearts"]
    elif state.turn == state.dealer:
        expected = [
            'data-action="accept"><span data-label>Accept it',
            'data-action="pass"><span data-label>Pass',
        ]
    else:
        expected = [
            'data-action="order_up"><span data-label>Order it up',
            'data-action="pass"><span data-label>Pass',
        ]
    for words in expected:
        assert words in page


BAD = [
    # (who, form, htmx, status, message)
    ("waiting", {"action": "pass", "version": "1"}, True, 400, "It is not your turn"),
    ("to_act", {"action": "play:9C", "version": "1"}, True, 400, "You cannot play a card now"),
    ("to_act", {"action": "pass", "version": "0"}, True, 409, "changed since you saw it"),
    ("carol", {"action": "pass", "version": "1"}, True, 403, "not playing in this match"),
    ("to_act", {"action": "pass"}, True, 400, "could not be read"),
    ("to_act", {"action": "pass", "version": "x"}, True, 400, "could not be read"),
    ("to_act", {"action": "x" * 500, "version": "1"}, False, 400, "could not be read"),
    ("waiting", {"action": "pass", "version": "1"}, False, 400, "It is not your turn"),
]


@pytest.mark.parametrize(("who", "form", "htmx", "status", "message"), BAD)
def test_bad_input_gets_a_readable_4xx_and_changes_nothing(
    clients, active, who, form, htmx, status, message
):
    acting = to_act(active)
    waiting = active.players[active.state.turn ^ 1]
    user = {"to_act": acting, "waiting": waiting}.get(who)
    client = clients[user.username] if user else clients[who]
    before = (active.version, active.snapshot, active.moves.count())
    response = client.post(f"/matches/{active.pk}/act", form, **(HTMX if htmx else {}))
    assert response.status_code == status
    assert message in response.content.decode()
    active.refresh_from_db()
    assert (active.version, active.snapshot, active.moves.count()) == before


def test_a_finished_match_refuses_moves(clients, active, alice):
    resign(alice, active)
    response = clients["bob"].post(
        f"/matches/{active.pk}/act", {"action": "pass", "version": "2"}, **HTMX
    )
    assert response.status_code == 409 and "This match is over" in response.content.decode()
    page = clients["bob"].get(f"/matches/{active.pk}/").content.decode()
    assert 'data-match-over data-winner="bob"' in page and "You won the match" in page


def test_an_unknown_match_is_a_404(clients):
    assert clients["alice"].get("/matches/424242/").status_code == 404
    assert (
        clients["alice"].post("/matches/424242/act", {"action": "pass", "version": 1}).status_code
        == 404
    )


def test_polling_the_board_answers_204_until_something_changes(clients, active):
    url = f"/matches/{active.pk}/board?version=1"
    assert clients["alice"].get(url, **HTMX).status_code == 204
    user = to_act(active)
    services.move_apply(
        user=user, match_id=active.pk, action=str(legal_actions(active.state)[0]), version=1
    )
    response = clients["alice"].get(url, **HTMX)
    assert response.status_code == 200 and 'data-version="2"' in response.content.decode()


def test_get_is_refused_on_action_endpoints(clients, active):
    assert clients["alice"].get(f"/matches/{active.pk}/act").status_code == 405


def test_the_end_of_a_rated_match_shows_both_rating_changes(clients, active, alice):
    resign(alice, active)
    page = clients["alice"].get(f"/matches/{active.pk}/").content.decode()
    # Provisional ratings (fewer than 20 rated matches) carry their mark on the end screen.
    assert "alice: 1500? → 1480? (-20)" in page and "bob: 1500? → 1520? (+20)" in page
    assert "1520?" in clients["carol"].get("/users/bob/").content.decode()


def test_a_player_changes_their_password(clients, alice):
    response = clients["alice"].post(
        "/accounts/password_change/",
        {
            "old_password": "correct horse 1",
            "new_password1": "Another-deal-77",
            "new_password2": "Another-deal-77",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("Another-deal-77")


def test_the_seed_is_committed_to_during_play_and_revealed_at_the_end(clients, active, alice):
    from games.engine.verify import commitment

    page = clients["bob"].get(f"/matches/{active.pk}/").content.decode()
    assert commitment(int(active.seed)) in page
    assert active.seed not in page  # whoever knows the seed knows every hand
    resign(alice, active)
    page = clients["bob"].get(f"/matches/{active.pk}/").content.decode()
    assert f"<code data-seed>{active.seed}</code>" in page


def test_the_leaderboard_ranks_players_with_five_rated_matches(
    clients, alice, bob, carol, settings
):
    settings.RATED_MATCHES_PER_PAIR_PER_DAY = 5  # all five count
    for _ in range(5):  # bob beats alice five times; carol plays none
        match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
        resign(alice, match)
    casual = services.match_join(
        user=carol, match_id=services.match_create(user=alice, rated=False).pk
    )
    resign(alice, casual)
    page = clients["carol"].get("/leaderboard/").content.decode()
    rows = re.findall(r'<tr data-player="(\w+)">(.*?)</tr>', page, re.S)
    assert [name for name, _ in rows] == ["bob", "alice"]
    bob_row, alice_row = rows[0][1], rows[1][1]
    assert "5–0" in bob_row and "0–5" in alice_row
    assert re.search(r"<td>15\d\d\?</td>", bob_row)
    assert "carol" not in [name for name, _ in rows]


def _finished(winner_loser_pairs, rated=True):
    for winner, loser in winner_loser_pairs:
        match = services.match_join(
            user=winner, match_id=services.match_create(user=loser, rated=rated).pk
        )
        resign(loser, match)


def test_history_lists_my_finished_matches_newest_first_with_filters(clients, alice, bob, carol):
    _finished([(alice, bob), (bob, alice)])
    _finished([(alice, carol)], rated=False)
    page = clients["alice"].get("/history/").content.decode()
    rows = re.findall(r'<tr data-match="\d+">(.*?)</tr>', page, re.S)
    assert len(rows) == 3
    assert "carol" in rows[0] and "casual" in rows[0]  # newest first
    assert "Lost" in rows[1] and "-22" in rows[1]  # 1520 losing to 1480
    assert "Won" in rows[2] and "+20" in rows[2]
    only_bob = clients["alice"].get("/history/?opponent=BOB&result=won").content.decode()
    assert len(re.findall(r"<tr data-match=", only_bob)) == 1
    casual = clients["alice"].get("/history/?kind=casual").content.decode()
    assert len(re.findall(r"<tr data-match=", casual)) == 1


def test_history_loads_more_rows_with_htmx(clients, alice, bob):
    from games.db.selectors.matches import HISTORY_PAGE_SIZE

    _finished([(alice, bob)] * (HISTORY_PAGE_SIZE + 2), rated=False)
    first = clients["alice"].get("/history/").content.decode()
    assert len(re.findall(r"<tr data-match=", first)) == HISTORY_PAGE_SIZE
    assert 'data-action="load-more"' in first
    more = clients["alice"].get("/history/?page=2", **HTMX).content.decode()
    assert "<html" not in more and len(re.findall(r"<tr data-match=", more)) == 2
    assert 'data-action="load-more"' not in more
    assert clients["alice"].get("/history/?page=x").status_code == 200


def test_the_profile_draws_the_rating_history_as_svg(clients, alice, bob):
    _finished([(bob, alice), (bob, alice), (alice, bob)])
    page = clients["carol"].get("/users/bob/").content.decode()
    svg = re.search(r"<svg[^>]*data-rating-chart.*?</svg>", page, re.S).group(0)
    points = re.search(r'<polyline points="([^"]+)"', svg).group(1).split()
    assert len(points) == 4  # the start and after each of three rated matches
    ys = [float(p.split(",")[1]) for p in points]
    assert ys[0] > ys[1] > ys[2] < ys[3]  # up, up, down (SVG y grows downwards)
    assert "<script" not in page.split("<main")[1].split("</main>")[0]
    assert "No rated match yet" in clients["carol"].get("/users/carol/").content.decode()


def test_the_replay_shows_every_card_face_up_step_by_step(clients, active):
    from games.engine import deal

    match = play_to_the_end(active, seed=4)
    first = deal(int(match.seed), 0, match.deck)
    page = clients["carol"].get(f"/matches/{match.pk}/replay").content.decode()
    assert 'data-step="0"' in page and "The first deal." in page
    dealt = {CODES[c] for c in (*first.hands[0], *first.hands[1], first.upcard)}
    shown = codes_in(page.split('<section class="panel summary">')[0])
    assert dealt <= shown  # both hands and the upcard, face up
    steps = match.moves.count()
    last = clients["carol"].get(f"/matches/{match.pk}/replay?step={steps}").content.decode()
    assert f'data-step="{steps}"' in last
    scores = match.snapshot["scores"]
    names = (match.player0.username, match.player1.username)
    assert f"Score: {names[0]} {scores[0]}, {names[1]} {scores[1]}" in last
    summary = re.findall(r"<tr><td data-label=\"Hand\">\d+</td>", last)
    assert len(summary) == len(match.snapshot["results"])
    partial = clients["carol"].get(f"/matches/{match.pk}/replay?step=3", **HTMX).content.decode()
    assert partial.lstrip().startswith('<div id="replay"') and 'data-step="3"' in partial
    assert (
        'data-step="0"'
        in clients["carol"].get(f"/matches/{match.pk}/replay?step=-5").content.decode()
    )
    # At either end the ways past it are shown, but are no links.
    nav = re.compile(r'<(a|span) class="button small secondary" data-nav="(\w+)"')
    assert dict((n, tag) for tag, n in nav.findall(page)) == {
        "first": "span", "previous": "span", "next": "a", "last": "a"
    }  # fmt: skip
    assert dict((n, tag) for tag, n in nav.findall(last)) == {
        "first": "a", "previous": "a", "next": "span", "last": "span"
    }  # fmt: skip
    assert 'data-nav="next" role="link" aria-disabled="true"' in last


def test_the_replay_stays_closed_while_the_match_runs(clients, active):
    response = clients["alice"].get(f"/matches/{active.pk}/replay")
    assert response.status_code == 403
    body = response.content.decode()
    assert "The replay opens when the match is over" in body
    assert not (hand_codes(active, 0) | hand_codes(active, 1)) & codes_in(body)
