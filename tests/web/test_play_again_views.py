"""The pages of playing again: the lobby's quick start and watch list, the end screen and its
rematch, challenges from a profile, the invite, the fair deal, accounts and the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from games import services
from games.models import Challenge, Match, MatchStatus, ModerationAction, Report
from tests.support.matches import both_acted, play_to_the_end, start
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def logged_in(user) -> Client:
    client = Client()
    log_in(client, user)
    return client


# The lobby -----------------------------------------------------------------------------------


def test_the_lobby_starts_with_the_quick_start_then_open_matches_then_the_rest(alice, bob):
    services.match_create(user=bob)
    page = logged_in(alice).get("/play/").content.decode()
    order = [
        page.index("data-quick-start"),
        page.index('data-action="quick-computer"'),
        page.index('data-action="find-opponent"'),
        page.index("Open matches to join"),
        page.index("My matches in play"),
        page.index("Matches to watch"),
        page.index("data-more-options"),  # every rule, one click away
    ]
    assert order == sorted(order)
    assert '<details class="panel more-options" data-more-options>' in page  # closed


def test_one_click_on_a_strength_starts_a_running_match_against_the_computer(alice):
    client = logged_in(alice)
    page = client.get("/play/").content.decode()
    assert 'name="computer-strength" value="medium"' in page
    response = client.post(
        "/play/computer",
        {"computer-deck": "24", "computer-target": "10", "computer-strength": "easy"},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert (match.status, match.computer, match.deck, match.target) == ("active", "easy", 24, 10)


def test_find_an_opponent_in_the_lobby(alice, bob):
    waiting = services.match_create(user=bob)
    response = logged_in(alice).post("/play/find", {"find-deck": "24", "find-target": "10"})
    assert response["Location"] == f"/matches/{waiting.pk}/"
    assert Match.objects.get(pk=waiting.pk).player1 == alice
    refused = logged_in(alice).post("/play/find", {"find-deck": "23", "find-target": "10"})
    assert refused.status_code == 400 and Match.objects.count() == 1


def test_the_watch_list_shows_players_score_and_deck_of_matches_others_may_watch(alice, bob, carol):
    shown = start(alice, bob, deck=32)
    start(carol, bob, spectators_allowed=False)
    page = logged_in(carol).get("/play/").content.decode()
    watch = page[page.index("Matches to watch") :]
    assert f'data-watch="{shown.pk}"' in watch and "alice v bob" in watch
    assert "0–0" in watch and "32 cards · to 10" in watch
    assert "carol v bob" not in watch
    theirs = logged_in(alice).get("/play/").content.decode()  # alice's own: hers to play
    assert f'data-watch="{shown.pk}"' not in theirs[theirs.index("Matches to watch") :]


# The end screen and the rematch ----------------------------------------------------------------


@pytest.fixture
def finished(alice, bob) -> Match:
    return play_to_the_end(start(alice, bob))


def test_the_end_screen_shows_score_hands_ratings_and_where_to_go(finished, alice):
    page = logged_in(alice).get(f"/matches/{finished.pk}/").content.decode()
    mine = finished.state.scores[finished.seat_of(alice)]
    theirs = finished.state.scores[finished.seat_of(alice) ^ 1]
    assert f"Final score: you {mine}, bob {theirs}" in page
    assert "Hands won: you " in page
    assert "1500? → " in page  # provisional ratings carry their mark
    for hook in ('data-action="rematch"', "data-replay", 'data-action="lobby"'):
        assert hook in page


def test_a_rematch_offer_and_its_acceptance_through_the_pages(finished, alice, bob):
    offered = logged_in(alice).post(f"/matches/{finished.pk}/rematch", **HTMX)
    assert offered.status_code == 200 and "data-rematch-waiting" in offered.content.decode()
    assert 'data-action="rematch"' not in offered.content.decode()
    page = logged_in(bob).get(f"/matches/{finished.pk}/").content.decode()
    assert 'data-action="accept-rematch"' in page and 'data-action="decline-rematch"' in page
    accepted = logged_in(bob).post(f"/matches/{finished.pk}/rematch/accept", **HTMX)
    new = Match.objects.get(pk=finished.pk).next_match
    assert accepted["HX-Redirect"] == f"/matches/{new.pk}/"
    # Without htmx, a plain redirect; the old match links to the new one.
    again = logged_in(alice).post(f"/matches/{finished.pk}/rematch")
    assert again.status_code == 302 and again["Location"] == f"/matches/{new.pk}/"
    assert "data-next-match" in logged_in(alice).get(f"/matches/{finished.pk}/").content.decode()


def test_a_declined_rematch_says_so_to_the_player_who_offered(finished, alice, bob):
    logged_in(alice).post(f"/matches/{finished.pk}/rematch", **HTMX)
    logged_in(bob).post(f"/matches/{finished.pk}/rematch/decline", **HTMX)
    page = logged_in(alice).get(f"/matches/{finished.pk}/").content.decode()
    assert "bob declined the rematch." in page and 'data-action="rematch"' not in page
    refused = logged_in(bob).post(f"/matches/{finished.pk}/rematch/accept", **HTMX)
    assert refused.status_code == 409 and "no rematch offer" in refused.content.decode()


def test_playing_the_computer_again_is_one_click(alice):
    match = services.match_create_computer(user=alice, strength="medium")
    match = services.match_resign(user=alice, match_id=both_acted(match).pk)
    response = logged_in(alice).post(f"/matches/{match.pk}/rematch", **HTMX)
    new = Match.objects.get(pk=match.pk).next_match
    assert response["HX-Redirect"] == f"/matches/{new.pk}/" and new.computer == "medium"


def test_before_both_moved_the_board_offers_a_free_abort_not_a_resignation(alice, bob):
    match = start(alice, bob)
    page = logged_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "leaving costs nothing" in page and "Resign this match?" not in page
    page = logged_in(alice).get(f"/matches/{both_acted(match).pk}/").content.decode()
    assert "Resign this match?" in page and "leaving costs nothing" not in page
    aborted = services.match_resign(user=alice, match_id=start(alice, bob).pk)
    page = logged_in(alice).get(f"/matches/{aborted.pk}/").content.decode()
    assert "Aborted: a player left before both had made a first move" in page


def test_the_match_page_counts_its_spectators(alice, bob, carol):
    match = start(alice, bob)
    services.connection_open(match_id=match.pk, user=carol, channel_name="carol-1")
    services.connection_open(match_id=match.pk, user=alice, channel_name="alice-1")
    page = logged_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-spectators="1"' in page and "1 person watching" in page


# The invite and the fair deal ------------------------------------------------------------------


def test_the_creator_sees_the_options_and_an_invite_with_a_copy_button(alice):
    match = services.match_create(user=alice, deck=25, target=7, move_seconds=120)
    page = logged_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "25 cards · to 7" in page and "120 s a move" in page
    url = f"http://testserver/matches/{match.pk}/"
    assert f'data-action="copy-invite" data-copy="{url}"' in page
    assert "js/copy.js" in page


def test_the_fair_deal_is_a_collapsed_section_and_the_command_is_on_the_replay(finished, alice):
    page = logged_in(alice).get(f"/matches/{finished.pk}/").content.decode()
    assert '<details class="fair-deal" data-fair-deal>' in page and "data-seed" in page
    assert "games.engine.verify" not in page
    replay = logged_in(alice).get(f"/matches/{finished.pk}/replay").content.decode()
    assert f"python -m games.engine.verify --seed {finished.seed}" in replay


# Challenges ------------------------------------------------------------------------------------


def test_a_profile_has_a_challenge_form_but_not_ones_own(alice, bob):
    assert 'data-action="challenge"' in logged_in(alice).get("/users/bob/").content.decode()
    assert 'data-action="challenge"' not in logged_in(alice).get("/users/alice/").content.decode()
    services.computer_user("easy")
    page = logged_in(alice).get("/users/computer-easy/").content.decode()
    assert 'data-action="challenge"' not in page


def test_a_challenge_sent_from_a_profile_and_accepted(alice, bob):
    options = {"challenge-deck": "32", "challenge-target": "7", "challenge-move_seconds": "30"}
    client = logged_in(alice)
    response = client.post("/users/bob/challenge", {**options, "challenge-rated": "on"})
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.deck, challenge.target, challenge.move_seconds, challenge.rated) == (
        32, 7, 30, True,
    )  # fmt: skip
    page = client.get(response["Location"]).content.decode()
    assert "Challenge sent to bob" in page
    accepted = logged_in(bob).post(f"/challenges/{challenge.pk}/accept")
    match = Match.objects.get()
    assert accepted["Location"] == f"/matches/{match.pk}/" and match.deck == 32


def test_challenge_refusals_have_words_and_change_nothing(alice, bob):
    bad = logged_in(alice).post("/users/bob/challenge", {"challenge-deck": "99"})
    assert bad.status_code == 400 and not Challenge.objects.exists()
    itself = logged_in(alice).post(
        "/users/alice/challenge", {"challenge-deck": "24", "challenge-target": "10"}
    )
    assert itself.status_code == 403 and "You cannot challenge yourself" in itself.content.decode()
    assert logged_in(alice).post("/users/nobody/challenge").status_code == 404
    challenge = services.challenge_create(user=alice, challenged=bob)
    other = logged_in(alice).post(f"/challenges/{challenge.pk}/accept")
    assert other.status_code == 403 and "Only the challenged player" in other.content.decode()
    assert logged_in(bob).post("/challenges/999999/accept").status_code == 404
    declined = logged_in(bob).post(f"/challenges/{challenge.pk}/decline", {"next": "/rules/"})
    assert declined["Location"] == "/rules/"
    assert Challenge.objects.get().status == "declined" and not Match.objects.exists()


# History ---------------------------------------------------------------------------------------


def test_a_voided_match_stays_in_the_history_marked(alice, bob):
    moderator = type(alice).objects.create_superuser("mod", password="x")
    match = play_to_the_end(start(alice, bob))
    services.match_void(moderator=moderator, match_id=match.pk, reason="collusion")
    page = logged_in(alice).get("/history/").content.decode()
    assert f'data-match="{match.pk}"' in page and "Voided by a moderator" in page
    aborted = services.match_resign(user=alice, match_id=start(alice, bob).pk)
    page = logged_in(alice).get("/history/").content.decode()
    assert f'data-match="{aborted.pk}"' in page and "data-aborted" in page
    won_or_lost = logged_in(alice).get("/history/?result=lost").content.decode()
    won_or_lost += logged_in(alice).get("/history/?result=won").content.decode()
    assert "Voided by a moderator" not in won_or_lost and "data-aborted" not in won_or_lost


# Accounts --------------------------------------------------------------------------------------


def test_a_wrong_password_says_so_once(alice):
    page = Client().post("/accounts/login/", {"username": "alice", "password": "nope"})
    text = page.content.decode()
    assert text.count("Please enter a correct username and password") == 1


def test_logging_out_says_so_on_the_page_it_lands_on(alice):
    client = logged_in(alice)
    response = client.post("/accounts/logout/", follow=True)
    assert "You are logged out." in response.content.decode()


# The admin -------------------------------------------------------------------------------------


@pytest.fixture
def moderator(django_user_model):
    user = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    codes = ["moderate_match", "view_match", "change_match", "view_report", "change_report"]
    user.user_permissions.set(Permission.objects.filter(codename__in=codes))
    return logged_in(user)


def test_a_finished_matchs_clock_fields_are_read_only_in_the_admin(moderator, alice, bob):
    active = start(alice, bob)
    page = moderator.get(f"/admin/games/match/{active.pk}/change/").content.decode()
    assert 'name="move_seconds"' in page  # a match in play may have its clock changed
    finished = play_to_the_end(start(alice, bob))
    page = moderator.get(f"/admin/games/match/{finished.pk}/change/").content.decode()
    assert 'name="move_seconds"' not in page and 'name="turn_started_at' not in page


def test_a_reports_page_resolves_or_dismisses_it_with_a_reason(moderator, alice, bob):
    match = start(alice, bob)
    first = services.report_create(reporter=alice, match_id=match.pk, reason="abuse")
    second = services.report_create(reporter=bob, match_id=match.pk, reason="stalling")
    url = f"/admin/games/report/{first.pk}/change/"
    page = moderator.get(url).content.decode()
    assert 'name="_resolve"' in page and 'name="_dismiss"' in page
    moderator.post(url, {"_resolve": "Resolve", "moderation_reason": ""})
    assert Report.objects.get(pk=first.pk).status == "open"  # no reason: nothing happens
    response = moderator.post(url, {"_resolve": "Resolve", "moderation_reason": "warned"})
    assert response.status_code == 302 and Report.objects.get(pk=first.pk).status == "resolved"
    url = f"/admin/games/report/{second.pk}/change/"
    moderator.post(url, {"_dismiss": "Dismiss", "moderation_reason": "no stalling"})
    assert Report.objects.get(pk=second.pk).status == "dismissed"
    assert list(ModerationAction.objects.values_list("kind", "reason").order_by("pk")) == [
        ("resolve", "warned"), ("dismiss", "no stalling"),
    ]  # fmt: skip


def test_the_adjudicate_form_has_no_winner_chosen(moderator, alice, bob):
    match = start(alice, bob)
    page = moderator.post(
        "/admin/games/match/",
        {"action": "adjudicate_match", "_selected_action": [match.pk]},
    ).content.decode()
    assert '<option value="" selected disabled>' in page
    assert f'<option value="{alice.pk}" selected' not in page
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


def test_new_opponent_from_the_end_screen_finds_a_match_with_the_same_deck_and_target(
    alice, bob, carol
):
    finished = play_to_the_end(start(alice, bob, deck=32, target=7))
    page = logged_in(alice).get(f"/matches/{finished.pk}/").content.decode()
    assert 'data-action="new-opponent"' in page and 'name="find-deck" value="32"' in page
    waiting = services.match_create(user=carol, deck=32, target=7)
    response = logged_in(alice).post("/play/find", {"find-deck": "32", "find-target": "7"}, **HTMX)
    assert response["HX-Redirect"] == f"/matches/{waiting.pk}/"
    assert Match.objects.get(pk=waiting.pk).player1 == alice
