"""The moderators' desk, used the way a moderator uses it: admin actions with a reason."""

from __future__ import annotations

import html

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.test import Client

from euchre_site.asgi import application
from games import services
from games.db import selectors
from games.models import Match, MatchStatus, ModerationAction, PlayerRating, RatingChange, Report
from tests.support.matches import resign
from tests.support.moderation import run_action
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db


def finished(winner, loser) -> Match:
    match = services.match_join(user=winner, match_id=services.match_create(user=loser).pk)
    return resign(loser, match)


def active(a, b) -> Match:
    return services.match_join(user=b, match_id=services.match_create(user=a).pk)


def ratings():
    return {r.user.username: r.value for r in PlayerRating.objects.select_related("user")}


def test_the_action_first_asks_for_a_reason(moderator, alice, bob):
    match = finished(alice, bob)
    page = moderator.client.post(
        "/admin/games/match/", {"action": "void_matches", "_selected_action": [match.pk]}
    ).content.decode()
    assert "Reason (kept in the audit log)" in page
    response = run_action(moderator, "games/match", "void_matches", [match.pk], reason="  ")
    assert "Give a reason" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and not ModerationAction.objects.exists()


def test_voiding_reverses_the_ratings_exactly_and_is_audited(moderator, alice, bob):
    first = finished(alice, bob)
    before = ratings()
    second = finished(bob, alice)
    run_action(moderator, "games/match", "void_matches", [second.pk])
    second.refresh_from_db()
    assert second.status == MatchStatus.VOIDED
    assert ratings() == before
    assert not RatingChange.objects.filter(match=second).exists()
    assert RatingChange.objects.filter(match=first).count() == 2
    entry = ModerationAction.objects.get()
    assert (entry.kind, entry.match, entry.moderator, entry.reason) == (
        "void", second, moderator, "Seen in the logs",
    )  # fmt: skip
    page = Client()
    page.force_login(alice)
    assert "voided this match" in page.get(f"/matches/{second.pk}/").content.decode()


def test_adjudicating_awards_the_match_and_rates_it(moderator, alice, bob):
    match = active(alice, bob)
    response = run_action(
        moderator, "games/match", "adjudicate_match", [match.pk], winner=str(bob.pk)
    )
    assert "Adjudicate match: 1 done." in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.winner == bob
    assert match.end_reason == "adjudicated"
    assert ratings() == {"alice": 1480, "bob": 1520}
    assert ModerationAction.objects.get().player == bob


def test_aborting_ends_a_match_with_no_result(moderator, alice, bob):
    match = active(alice, bob)
    run_action(moderator, "games/match", "abort_matches", [match.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.winner is None
    assert not RatingChange.objects.exists()


def test_a_suspended_player_cannot_log_in_or_play_and_the_opponent_is_told(
    moderator, alice, bob, carol
):
    in_play = active(alice, bob)
    waiting = services.match_create(user=alice)
    run_action(moderator, "auth/user", "suspend_players", [alice.pk])
    alice.refresh_from_db()
    assert not alice.is_active
    page = Client().post("/accounts/login/", {"username": "alice", "password": "correct horse 1"})
    assert page.status_code == 200 and "_auth_user_id" not in page.wsgi_request.session
    in_play.refresh_from_db()
    assert in_play.winner == bob and in_play.end_reason == "adjudicated"
    waiting.refresh_from_db()
    assert waiting.status == MatchStatus.ABORTED
    bobs = Client()
    bobs.force_login(bob)
    page = bobs.get(f"/matches/{in_play.pk}/").content.decode()
    assert "A moderator adjudicated this match: you win it." in page
    kinds = sorted(ModerationAction.objects.values_list("kind", flat=True))
    assert kinds == ["abort", "adjudicate", "suspend"]
    with pytest.raises(services.GameError):
        services.move_apply(user=alice, match_id=in_play.pk, action="pass", version=in_play.version)
    run_action(moderator, "auth/user", "reinstate_players", [alice.pk], reason="Appeal upheld")
    alice.refresh_from_db()
    assert alice.is_active


@pytest.mark.django_db(transaction=True)
def test_a_suspended_players_session_no_longer_opens_a_socket(alice, bob, django_user_model):
    match = active(alice, bob)
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    mod = django_user_model.objects.create_user("mod2", is_staff=True)
    services.player_suspend(moderator=mod, player=alice, reason="abuse")

    async def connect():
        ws = WebsocketCommunicator(
            application, f"/ws/matches/{match.pk}/",
            headers=[
                (b"host", b"testserver"), (b"origin", b"http://testserver"), (b"cookie", cookie),
            ],
        )  # fmt: skip
        assert (await ws.connect())[0]
        return (await ws.receive_output(timeout=5)).get("code")

    assert async_to_sync(connect)() == 4401
    assert client.get("/play/").status_code == 302  # the old session is logged out too


def test_players_report_their_opponent_and_moderators_handle_the_queue(moderator, alice, bob):
    match = active(alice, bob)
    reporter = Client()
    reporter.force_login(alice)
    page = reporter.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="report"' in page and "Report bob" in page
    response = reporter.post(
        f"/matches/{match.pk}/report", {"reason": "abuse", "details": "Rude in chat"}, follow=True
    )
    assert "a moderator will look at your report" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.status) == (alice, bob, "open")
    queue = moderator.client.get("/admin/games/report/?status__exact=open").content.decode()
    assert f"/admin/games/report/{report.pk}/change/" in queue
    run_action(moderator, "games/report", "resolve_reports", [report.pk], reason="Warned")
    report.refresh_from_db()
    assert report.status == "resolved"
    assert ModerationAction.objects.get().kind == "resolve"
    bad = reporter.post(f"/matches/{match.pk}/report", {"reason": "made-up"}, follow=True)
    assert "Choose a reason" in bad.content.decode() and Report.objects.count() == 1


def test_outsiders_cannot_report_or_moderate(alice, bob, carol):
    match = active(alice, bob)
    outsider = Client()
    outsider.force_login(carol)
    response = outsider.post(f"/matches/{match.pk}/report", {"reason": "abuse"})
    assert response.status_code == 403 and not Report.objects.exists()
    response = outsider.post(
        "/admin/games/match/",
        {"action": "void_matches", "_selected_action": [match.pk], "apply": "1", "reason": "x"},
    )
    assert response.status_code == 302 and "/admin/login/" in response.url
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


def test_the_audit_log_cannot_be_edited_or_deleted(moderator, alice, bob):
    match = finished(alice, bob)
    run_action(moderator, "games/match", "void_matches", [match.pk])
    entry = ModerationAction.objects.get()
    superuser = Client()
    log_in(superuser, type(alice).objects.create_superuser("root", password="Root-pass-9"))
    assert superuser.get(f"/admin/games/moderationaction/{entry.pk}/delete/").status_code == 403
    superuser.post(f"/admin/games/moderationaction/{entry.pk}/change/", {"reason": "edited"})
    entry.refresh_from_db()
    assert entry.reason == "Seen in the logs"
    with pytest.raises(ValueError, match="append-only"):
        entry.save()


def test_moderators_cannot_change_moves_seeds_or_ratings(moderator, alice, bob):
    match = finished(alice, bob)
    client = moderator.client
    assert client.get("/admin/games/ratingchange/add/").status_code == 403
    client.post(f"/admin/games/match/{match.pk}/change/", {"seed": "1"})
    match.refresh_from_db()
    assert match.seed != "1"
    rating = PlayerRating.objects.first()
    client.post(f"/admin/games/playerrating/{rating.pk}/change/", {"value": 3000})
    rating.refresh_from_db()
    assert rating.value != 3000


def test_a_player_can_report_from_the_replay_too(alice, bob):
    match = finished(alice, bob)
    client = Client()
    client.force_login(bob)
    page = client.get(f"/matches/{match.pk}/replay").content.decode()
    assert "Report alice" in page
    client.post(
        f"/matches/{match.pk}/report", {"reason": "stalling", "back": f"/matches/{match.pk}/replay"}
    )
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (bob, alice, "stalling")


def test_a_moderator_stops_a_program_by_revoking_its_token_and_the_player_stays(
    moderator, alice, bob
):
    row, token = services.api_token_create(user=alice, name="my bot", scopes=["read", "play"])
    program = Client(headers={"authorization": f"Bearer {token}"})
    assert program.get("/api/v1/account").status_code == 200
    listing = moderator.client.get("/admin/games/apitoken/?q=alice").content.decode()
    assert "my bot" in listing and row.digest not in listing  # the hash is not shown either
    page = moderator.client.post(
        "/admin/games/apitoken/", {"action": "revoke_tokens", "_selected_action": [row.pk]}
    ).content.decode()
    assert "Reason (kept in the audit log)" in page
    response = run_action(moderator, "games/apitoken", "revoke_tokens", [row.pk], reason="Spam")
    assert "Revoke API tokens: 1 done." in response.content.decode()
    refused = program.get("/api/v1/account")
    assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
    alice.refresh_from_db()
    assert alice.is_active  # the account stays; only the program stopped
    audit = ModerationAction.objects.get()
    assert (audit.kind, audit.player, audit.reason) == ("revoke_token", alice, "Spam")
    # Again: nothing more to do, and nothing more in the audit log.
    run_action(moderator, "games/apitoken", "revoke_tokens", [row.pk], reason="Spam")
    assert ModerationAction.objects.count() == 1


def test_only_moderators_who_may_suspend_may_revoke_tokens(django_user_model, alice):
    row, _token = services.api_token_create(user=alice, name="my bot", scopes=["read"])
    viewer = django_user_model.objects.create_user("viewer", password="Look-only-1", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_apitoken"))
    client = Client()
    log_in(client, viewer)
    listing = client.get("/admin/games/apitoken/").content.decode()
    assert "my bot" in listing and "revoke_tokens" not in listing
    client.post(
        "/admin/games/apitoken/",
        {"action": "revoke_tokens", "_selected_action": [row.pk], "apply": "1", "reason": "x"},
    )
    row.refresh_from_db()
    assert row.revoked_at is None


@pytest.mark.parametrize("lookup", ["seed__startswith", "seed__gt", "seed", "snapshot__icontains"])
def test_the_match_list_takes_no_filter_on_the_seed_or_the_hands(moderator, alice, bob, lookup):
    # Whether the row shows for ?seed__startswith=<digit> would read the seed out digit by
    # digit, and with it both hands: every such address is refused alike.
    match = active(alice, bob)
    answers = set()
    for guess in ["0", "1", "5", match.seed[:1], match.seed]:
        page = moderator.client.get("/admin/games/match/", {"id__exact": match.pk, lookup: guess})
        row = f"/admin/games/match/{match.pk}/change/"
        answers.add((page.status_code, row in page.content.decode()))
    assert answers == {(400, False)}
    listed = moderator.client.get("/admin/games/match/", {"id__exact": match.pk})
    assert listed.status_code == 200 and f"/admin/games/match/{match.pk}/change/" in (
        listed.content.decode()
    )


def test_a_suspended_player_who_logs_in_is_told_so_with_the_reason(moderator, alice):
    services.player_suspend(moderator=moderator, player=alice, reason="Abusive chat in match 12")
    page = Client().post("/accounts/login/", {"username": "alice", "password": "correct horse 1"})
    text = html.unescape(page.content.decode())
    assert page.status_code == 200
    assert "This account is suspended" in text and "Abusive chat in match 12" in text
    assert "correct username and password" not in text
    # A wrong password says nothing of the suspension.
    wrong = Client().post("/accounts/login/", {"username": "alice", "password": "guess"})
    assert "suspended" not in wrong.content.decode()


def test_the_void_confirmation_shows_the_rating_changes_it_undoes(moderator, alice, bob):
    match = finished(alice, bob)
    changes = {c.player.username: c for c in RatingChange.objects.filter(match=match)}
    page = moderator.client.post(
        "/admin/games/match/", {"action": "void_matches", "_selected_action": [match.pk]}
    ).content.decode()
    assert "Rating changes this undoes" in page
    for name, change in changes.items():
        row = f"<td>{name}</td><td>{change.before}</td><td>{change.after}</td>"
        assert row in page and f"{change.delta:+d}" in page


def test_history_reads_as_history_in_the_admin(moderator, alice, bob, django_user_model):
    # Even to an administrator, who may change a match in play's clock.
    root = django_user_model.objects.create_superuser("root", password="Root-of-it-all-1")
    admin = Client()
    log_in(admin, root)
    match = finished(alice, bob)
    page = admin.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert 'name="_save"' not in page  # a finished match: nothing to save
    assert admin.post(f"/admin/games/match/{match.pk}/change/", {}).status_code == 403
    live = active(alice, bob)
    assert 'name="_save"' in admin.get(f"/admin/games/match/{live.pk}/change/").content.decode()
    reporter = Client()
    reporter.force_login(alice)
    reporter.post(f"/matches/{live.pk}/report", {"reason": "abuse", "details": "Rude"})
    report = Report.objects.get()
    answer = moderator.client.get(f"/admin/games/report/{report.pk}/change/").content.decode()
    assert 'name="_save"' not in answer and 'name="_resolve"' in answer
    resolved = moderator.client.post(
        f"/admin/games/report/{report.pk}/change/",
        {"_resolve": "1", "moderation_reason": "Warned"},
    )
    assert resolved.status_code == 302
    report.refresh_from_db()
    assert report.status == "resolved"


def test_the_players_list_offers_no_bulk_delete_beside_suspend(django_user_model, alice):
    root = django_user_model.objects.create_superuser("root", password="Root-of-it-all-1")
    admin = Client()
    log_in(admin, root)
    page = admin.get("/admin/auth/user/").content.decode()
    assert 'value="suspend_players"' in page and 'value="delete_selected"' not in page


def test_after_a_void_every_page_tells_one_rating_history(moderator, alice, bob):
    first = finished(alice, bob)  # alice wins: this one is voided later
    second = finished(bob, alice)  # bob wins
    third = finished(alice, bob)
    run_action(moderator, "games/match", "void_matches", [first.pk])
    for player in (alice, bob):
        changes = list(RatingChange.objects.filter(player=player).order_by("created_at", "pk"))
        assert [c.match_id for c in changes] == [second.pk, third.pk]
        assert changes[0].before == 1500 and changes[0].played == 0  # as if first never was
        assert changes[1].before == changes[0].after and changes[1].played == 1
        rating = PlayerRating.objects.get(user=player)
        assert changes[-1].after == rating.value and rating.rated_matches == 2
        assert selectors.rating_history(user=player) == [1500, changes[0].after, rating.value]
    # The later match's end screen shows the same numbers as the profile.
    viewer = Client()
    viewer.force_login(alice)
    end = viewer.get(f"/matches/{third.pk}/").content.decode()
    mine = RatingChange.objects.get(player=alice, match=third)
    assert f"{mine.before_display} → {mine.after_display}" in html.unescape(end)
    profile = html.unescape(viewer.get("/users/alice/").content.decode())
    assert PlayerRating.objects.get(user=alice).display in profile
