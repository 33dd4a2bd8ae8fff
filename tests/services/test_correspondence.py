"""Correspondence matches: days a move, a mail (through a real SMTP server) to the player to
act, at a confirmed address only, at most once a match a day unless they asked for each, with
a link to the match and a one-click unsubscription (never while they are on the match's page,
one who has just joined from the lobby included; its links lead to the address the site is
served at, `make run` on another port included), a lapsed turn ended by the task worker, and
a rating ladder of their own. Time is moved by the test (``tests.support.tasks.age``), never
slept."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games import services
from games.db import selectors
from games.engine.rules import new_match
from games.models import EndReason, Ladder, Match, MatchStatus, PlayerRating, RatingChange
from tests.support.mail import address_confirmed, mails_aged
from tests.support.matches import pass_if_allowed
from tests.support.tasks import age, queued, run_due_tasks

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 24 * 3600
MAIL_DELAY = 61  # a turn's mail waits a minute for the player to arrive (TURN_MAIL_DELAY)


@pytest.fixture
def players(alice, bob, inbox):
    for user, address in ((alice, "alice@example.com"), (bob, "bob@example.com")):
        address_confirmed(user, address, inbox)
    return alice, bob


def links(message) -> tuple[str, str]:
    """The match's link and the unsubscription link of a turn's mail."""
    body = message.get_content()
    match_link = re.search(r"http://testserver(/matches/\d+/)", body).group(1)
    stop_link = re.search(r"http://testserver(/mail/unsubscribe/[^/\s]+/)", body).group(1)
    assert message["List-Unsubscribe"].strip() == f"<http://testserver{stop_link}>"
    return match_link, stop_link


def move(match: Match) -> Match:
    """One move by whoever is to act (a pass when they may)."""
    return pass_if_allowed(Match.objects.select_related("player0", "player1").get(pk=match.pk))


def until_turn_passes(match: Match) -> Match:
    """Moves by the player to act until the turn is the other player's."""
    mover = match.state.turn
    while match.status == MatchStatus.ACTIVE and match.state.turn == mover:
        match = move(match)
    return match


def test_a_correspondence_match_over_three_days_mailed_turn_by_turn_then_lapsed(inbox, players):
    alice, bob = players
    challenge = services.challenge_create(user=alice, challenged=bob, days_per_move=3)
    assert challenge.move_seconds is None  # days a move are its clock
    match = services.challenge_accept(user=bob, challenge_id=challenge.pk)
    assert (match.days_per_move, match.move_seconds, match.rated) == (3, None, True)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)  # the first turn's mail
    expected = 1
    for _day in range(3):  # a turn a day, each player moving when it comes
        mails = inbox.wait_for(expected)
        assert len(mails) == expected
        mail = mails[-1]
        to_act = match.players[Match.objects.get(pk=match.pk).state.turn]
        assert mail["To"] == to_act.email
        assert mail["Subject"] == f"Your turn against {match.opponent_of(to_act).username}"
        assert "3 days a move" in mail.get_content()
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        match_link, _stop = links(mail)
        page = Client()
        page.force_login(to_act)
        answer = page.get(match_link)  # the link works: their match, their turn
        assert answer.status_code == 200
        assert "data-your-turn" in answer.content.decode()
        match = age(match, DAY - 60)  # most of a day passes before they move
        mails_aged(DAY - 60)
        match = until_turn_passes(match)
        run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
        expected += 1
    assert len(inbox.wait_for(expected)) == expected  # one mail a turn, no more
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE  # nobody ran out
    assert match.both_acted
    late = match.players[match.state.turn]
    match = age(match, 3 * DAY + 1)  # the player to act lets the turn lapse
    run_due_tasks()
    match.refresh_from_db()
    assert (match.status, match.end_reason) == (MatchStatus.FINISHED, EndReason.TIMEOUT)
    assert match.winner == match.opponent_of(late)
    # The correspondence ladder changed; the live one did not.
    changes = RatingChange.objects.filter(match=match)
    assert {c.ladder for c in changes} == {Ladder.CORRESPONDENCE} and len(changes) == 2
    winner = PlayerRating.objects.get(user=match.winner)
    loser = PlayerRating.objects.get(user=late)
    assert winner.correspondence > 1500 > loser.correspondence
    assert (winner.value, winner.rated_matches, loser.value, loser.rated_matches) == (
        1500, 0, 1500, 0,
    )  # fmt: skip
    assert selectors.rating_history(user=late) == []
    assert len(selectors.rating_history(user=late, ladder=Ladder.CORRESPONDENCE)) == 2
    assert len(inbox.wait_for(expected)) == expected  # nothing mailed once it ended


def test_the_unsubscription_link_shows_a_button_and_its_post_stops_the_mails(inbox, players):
    alice, bob = players
    match = services.match_join(
        user=bob, match_id=services.match_create(user=alice, days_per_move=1).pk
    )
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    first = inbox.wait_for(1)[0]
    to_act = match.players[match.state.turn]
    _link, stop = links(first)
    answer = Client().get(stop)  # opened from the mail (or by a mail scanner): a button
    assert answer.status_code == 200
    assert "stop these emails?" in answer.content.decode()
    assert selectors.turn_mail_wanted(user=to_act)  # a GET changes nothing
    answer = Client().post(stop)  # the button: no log-in, one click
    assert "we will no longer send you these emails" in answer.content.decode()
    assert not selectors.turn_mail_wanted(user=to_act)
    match = until_turn_passes(match)  # the other player's mail still goes
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    match = until_turn_passes(match)  # back to the one who stopped them: no mail
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    assert [m["To"] for m in inbox.wait_for(3, seconds=1)] == [
        to_act.email, match.opponent_of(to_act).email,
    ]  # fmt: skip
    again = Client().post(stop, {"again": "yes"})
    assert "we will send you these emails again" in again.content.decode()
    assert selectors.turn_mail_wanted(user=to_act)
    # A mail program's own "unsubscribe" (RFC 8058) posts without a page or a CSRF token.
    Client(enforce_csrf_checks=True).post(stop, {"List-Unsubscribe": "One-Click"})
    assert not selectors.turn_mail_wanted(user=to_act)
    refused = Client().get("/mail/unsubscribe/not-a-token/")
    assert refused.status_code == 404
    assert "This link is not valid" in refused.content.decode()
    old = Client().get("/mail/stop/an-old-stop-link/")  # the stop links of older mails
    assert old.status_code == 410 and "This link is out of date" in old.content.decode()


def test_no_mail_to_a_player_at_the_table_nor_without_an_address(inbox, players, carol):
    alice, bob = players
    match = services.match_join(
        user=bob, match_id=services.match_create(user=alice, days_per_move=7).pk
    )
    to_act = match.players[match.state.turn]
    services.connection_open(user=to_act, channel_name="at-the-table", match_id=match.pk)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)  # the move reached them live: no mail
    services.connection_close(channel_name="at-the-table", match_id=match.pk)
    lone = services.match_join(
        user=carol, match_id=services.match_create(user=alice, days_per_move=7).pk
    )
    while lone.players[lone.state.turn] != carol:
        lone = move(lone)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)  # carol has no address
    assert inbox.wait_for(1, seconds=0.5) == []  # neither got a mail
    assert queued("turn_mail") == []  # both tasks ran
    address_confirmed(carol, "carol@example.com", inbox)
    lone = until_turn_passes(until_turn_passes(lone))  # back to carol: now she is told
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    assert [m["To"] for m in inbox.wait_for(1)] == ["carol@example.com"]


def test_days_a_move_are_checked_and_a_correspondence_match_has_no_claim(alice, bob):
    with pytest.raises(services.GameError) as refused:
        services.match_create(user=alice, days_per_move=2)
    assert refused.value.code == "bad_days"
    match = services.match_join(
        user=bob, match_id=services.match_create(user=alice, days_per_move=1).pk
    )
    assert match.claim_opens_at is None
    assert match.deadline - match.turn_started_at == timedelta(days=1)
    assert [m.pk for m in selectors.my_turn_matches(user=match.players[match.state.turn])] == [
        match.pk
    ]


def open_match_where_the_joiner_acts_first(creator) -> Match:
    """A correspondence match waiting for an opponent, dealt so that seat 1 (who joins) acts
    first."""
    match = services.match_create(user=creator, days_per_move=3)
    seed = next(s for s in range(200) if new_match(s, match.rules).turn == 1)
    Match.objects.filter(pk=match.pk).update(seed=seed)
    return match


def test_no_turn_mail_to_a_player_who_joined_from_the_lobby_and_is_on_the_matchs_page(
    inbox, players
):
    alice, bob = players
    match = open_match_where_the_joiner_acts_first(alice)
    page = Client()
    page.force_login(bob)
    joined = page.post(f"/matches/{match.pk}/join")  # the lobby's Join button
    assert (joined.status_code, joined["Location"]) == (302, f"/matches/{match.pk}/")
    assert "data-your-turn" in page.get(joined["Location"]).content.decode()
    run_due_tasks()  # the worker, at once: before the page he was sent to opens its socket
    services.connection_open(user=bob, channel_name="bobs-match-page", match_id=match.pk)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    assert queued("turn_mail") == []  # the turn's mail was decided
    assert inbox.messages == []  # and not sent: he is at the table
    # His move passes the turn to alice, who is on no page of the site: she is mailed.
    until_turn_passes(Match.objects.select_related("player0", "player1").get(pk=match.pk))
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    assert [m["To"] for m in inbox.wait_for(1)] == ["alice@example.com"]


def site_url_of_make_run(port: int) -> str:
    """``settings.SITE_URL`` in the processes `make run PORT=<port>` starts (SITE_URL unset):
    the command make would run, its environment read by Django's settings."""
    root = django_settings.BASE_DIR
    command = subprocess.run(
        [shutil.which("make"), "-n", "run", f"PORT={port}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assignment = re.search(r'^\s*(SITE_URL="[^"]*")', command, re.MULTILINE).group(1)
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env["DJANGO_SETTINGS_MODULE"] = "euchre_site.settings"
    read = "from django.conf import settings; print(settings.SITE_URL)"
    script = f"{assignment}; export SITE_URL; exec {sys.executable} -c '{read}'"
    found = subprocess.run(
        [shutil.which("sh"), "-c", script],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return found.stdout.strip()


def test_under_make_run_on_another_port_every_link_of_a_turn_mail_leads_to_that_port(
    inbox, players, settings
):
    settings.SITE_URL = site_url_of_make_run(8401)
    alice, bob = players
    match = open_match_where_the_joiner_acts_first(alice)
    services.match_join(user=bob, match_id=match.pk)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    mail = inbox.wait_for(1)[0]
    links = re.findall(r"https?://[^\s>]+", mail.get_content()) + [mail["List-Unsubscribe"]]
    assert len(links) >= 3  # the match, the stop link, the settings
    for link in links:
        assert link.strip(" <>").startswith("http://127.0.0.1:8401/"), link
