"""Verified mail, through a real SMTP server: an address gets nothing but its confirmation
link until that link is followed (once, before it expires); changing it asks for the password
and tells the old address; the mails' one-click unsubscription (RFC 8058) stops that kind only,
on a POST; password resets go to confirmed addresses, one mail an address within the limit
however many accounts share it; turn mails at most one a match a day unless asked for each."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.utils import timezone

from games import services
from games.models import AccountEvent, MailConfirmation, Match, MatchStatus
from games.services import mail_addresses
from tests.support.mail import address_confirmed, confirm_link
from tests.support.matches import pass_if_allowed
from tests.support.tasks import run_due_tasks

pytestmark = pytest.mark.django_db(transaction=True)

MAIL_DELAY = 61  # a turn's mail waits a minute for the player to arrive (TURN_MAIL_DELAY)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def turn_of(player, match: Match) -> Match:
    """Moves by whoever acts until it is ``player``'s turn."""
    match = Match.objects.select_related("player0", "player1").get(pk=match.pk)
    while match.status == MatchStatus.ACTIVE and match.players[match.state.turn] != player:
        match = pass_if_allowed(match)
    return match


def turn_away_and_back(player, match: Match) -> Match:
    """The turn passes to the other player, then back to ``player``."""
    match = Match.objects.select_related("player0", "player1").get(pk=match.pk)
    while match.players[match.state.turn] == player:
        match = pass_if_allowed(match)
    return turn_of(player, match)


def correspondence(a, b) -> Match:
    return services.match_join(user=b, match_id=services.match_create(user=a, days_per_move=3).pk)


def test_an_unconfirmed_address_gets_nothing_but_its_link_until_it_is_followed(inbox, bob):
    client = Client()
    signed_up = client.post("/accounts/signup/", {
        "username": "dana", "email": "dana@example.com",
        "password1": "correct horse 9", "password2": "correct horse 9",
    })  # fmt: skip
    assert signed_up.status_code == 302
    (link_mail,) = inbox.wait_for(1)
    assert link_mail["To"] == "dana@example.com"
    assert link_mail["Subject"] == "Confirm your email address"
    assert "List-Unsubscribe" not in link_mail  # the link only: nothing to unsubscribe from
    dana = get_user_model().objects.get(username="dana")
    assert dana.email == ""  # nothing confirmed yet
    page = client.get("/settings/account/").content.decode()
    assert "dana@example.com is not confirmed yet" in page
    assert "You have no confirmed address" in page
    # Her turn in a correspondence match, and a password reset: nothing goes.
    match = turn_of(dana, correspondence(bob, dana))
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    reset = Client().post("/accounts/password_reset/", {"email": "dana@example.com"})
    assert reset.status_code == 302
    assert mail_addresses.mail_address(dana, "arena") is None
    assert len(inbox.wait_for(2, seconds=0.5)) == 1  # the link, still alone
    # She follows the link, as from her mail: a page with a button, then the button.
    link = confirm_link(link_mail)
    asked = Client().get(link)
    assert "Is dana@example.com your address?" in asked.content.decode()
    dana.refresh_from_db()
    assert dana.email == ""  # opening the link (a mail scanner does) confirms nothing
    done = Client().post(link)
    assert "dana@example.com is confirmed" in done.content.decode()
    dana.refresh_from_db()
    assert dana.email == "dana@example.com"
    assert AccountEvent.objects.filter(user=dana, kind="mail_confirmed").exists()
    # Now her turn's mail arrives.
    turn_away_and_back(dana, match)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    mails = inbox.wait_for(2)
    assert [m["To"] for m in mails] == ["dana@example.com", "dana@example.com"]
    assert mails[1]["Subject"] == "Your turn against bob"


def test_a_confirmation_link_works_once_and_not_once_expired(inbox, alice):
    services.mail_address_set(user=alice, address="alice@example.com")
    link = confirm_link(inbox.wait_for(1)[0])
    assert Client().post(link).status_code == 200
    for again in (Client().post(link), Client().get(link)):
        assert again.status_code == 409
        assert "This link was used already" in again.content.decode()
    services.mail_address_set(user=alice, address="alice@example.org")
    late = confirm_link(inbox.wait_for(2)[-1])
    MailConfirmation.objects.filter(address="alice@example.org").update(
        sent_at=timezone.now() - timedelta(hours=49)
    )
    expired = Client().post(late)
    assert expired.status_code == 409
    assert "This link has expired" in expired.content.decode()
    bad = Client().post("/mail/confirm/not-a-key/")
    assert bad.status_code == 404 and "This link is not valid" in bad.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # the expired one changed nothing


def test_changing_the_address_asks_for_the_password_and_tells_the_old_one(inbox, alice):
    address_confirmed(alice, "alice@example.com", inbox)
    page = logged_in(alice)
    wrong = page.post(
        "/settings/account/mail", {"email": "mallory@example.com", "password": "wrong"}
    )
    assert wrong.status_code == 403
    assert "That is not your password" in wrong.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert not MailConfirmation.objects.filter(address="mallory@example.com").exists()
    assert inbox.wait_for(1, seconds=0.5) == []  # nobody mailed
    bad = page.post("/settings/account/mail", {"email": "not an address", "password": "x"})
    assert bad.status_code == 400 and "Enter a valid email address" in bad.content.decode()
    changed = page.post(
        "/settings/account/mail",
        {"email": "alice@example.org", "password": "correct horse 1"},
        follow=True,
    )
    assert changed.status_code == 200
    told, link_mail = inbox.wait_for(2)
    assert (told["To"], told["Subject"]) == ("alice@example.com", "Your email address was changed")
    assert "keeps getting our emails until the new one is confirmed" in told.get_content()
    assert link_mail["To"] == "alice@example.org"
    assert "alice@example.org is not confirmed yet" in changed.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # the old one keeps the mail until then
    # The link sent again: the first one stops working.
    assert page.post("/settings/account/mail/again").status_code == 302
    newer = inbox.wait_for(3)[-1]
    assert newer["To"] == "alice@example.org"
    assert Client().post(confirm_link(link_mail)).status_code == 404
    assert Client().post(confirm_link(newer)).status_code == 200
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    kinds = list(AccountEvent.objects.filter(user=alice).values_list("kind", flat=True))
    assert kinds.count("mail_set") == 2 and kinds.count("mail_confirmed") == 2


def test_sending_the_link_again_is_limited(inbox, alice, settings):
    services.mail_address_set(user=alice, address="alice@example.com")
    page = logged_in(alice)
    for _ in range(settings.MAIL_CONFIRM_LIMIT - 1):
        assert page.post("/settings/account/mail/again").status_code == 302
    refused = page.post("/settings/account/mail/again")
    assert refused.status_code == 429
    assert "Too many requests" in refused.content.decode()
    assert len(inbox.wait_for(settings.MAIL_CONFIRM_LIMIT + 1, seconds=0.5)) == 3


def test_one_click_unsubscription_stops_that_kind_only_and_only_on_a_post(inbox, alice):
    address_confirmed(alice, "alice@example.com", inbox)
    link = f"/mail/unsubscribe/{mail_addresses.unsubscribe_token(alice.pk, 'turn')}/"
    shown = Client().get(link)  # a mail scanner, or the player, opens it
    assert shown.status_code == 200 and "stop these emails?" in shown.content.decode()
    assert mail_addresses.mail_address(alice, "turn") == "alice@example.com"
    # A mail program's own "unsubscribe": a POST, no page, no CSRF token, no log-in.
    posted = Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert posted.status_code == 200
    assert mail_addresses.mail_address(alice, "turn") is None
    for kind in ("arena", "new_login", "security"):
        assert mail_addresses.mail_address(alice, kind) == "alice@example.com"
    page = logged_in(alice).get("/settings/account/").content.decode()
    assert re.search(r'name="turn"[^>]*>', page).group(0).find("checked") == -1
    assert "checked" in re.search(r'name="arena"[^>]*>', page).group(0)

    class LongAgo(signing.TimestampSigner):
        def timestamp(self):
            return signing.b62_encode(int(time.time()) - 91 * 24 * 3600)

    old = LongAgo(salt=mail_addresses.UNSUBSCRIBE_SALT).sign_object([alice.pk, "arena"])
    expired = Client().post(f"/mail/unsubscribe/{old}/")
    assert expired.status_code == 409 and "This link has expired" in expired.content.decode()
    assert mail_addresses.mail_address(alice, "arena") == "alice@example.com"


def test_password_resets_go_to_a_confirmed_address_once_however_many_accounts_share_it(
    inbox, alice, bob, carol
):
    for user in (alice, bob):
        address_confirmed(user, "shared@example.com", inbox)
    services.mail_address_set(user=carol, address="carol@example.com")  # never confirmed
    inbox.messages.clear()
    answers = set()
    for _ in range(40):  # the attack: one address, posted again and again, by nobody
        response = Client().post("/accounts/password_reset/", {"email": "shared@example.com"})
        answers.add((response.status_code, response["Location"]))
    carols = Client().post("/accounts/password_reset/", {"email": "carol@example.com"})
    nobody = Client().post("/accounts/password_reset/", {"email": "nobody@example.com"})
    answers |= {(r.status_code, r["Location"]) for r in (carols, nobody)}
    assert answers == {(302, "/accounts/password_reset/done/")}  # the same whatever happened
    (mail,) = inbox.wait_for(2, seconds=0.5)  # one mail, for both accounts
    assert mail["To"] == "shared@example.com"
    body = mail.get_content()
    assert body.count("/accounts/reset/") == 2
    assert "This address belongs to your account" in body


def test_turn_mails_at_most_one_a_match_a_day_unless_asked_for_each(inbox, alice, bob):
    for user, address in ((alice, "alice@example.com"), (bob, "bob@example.com")):
        address_confirmed(user, address, inbox)
    match = turn_of(alice, correspondence(alice, bob))
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    assert [m["To"] for m in inbox.wait_for(1)] == ["alice@example.com"]
    match = turn_of(bob, match)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    match = turn_of(alice, match)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    # bob is told once; alice's turn again the same day: no second mail.
    assert [m["To"] for m in inbox.wait_for(3, seconds=0.5)] == [
        "alice@example.com", "bob@example.com",
    ]  # fmt: skip
    saved = logged_in(alice).post(
        "/settings/account/mail/kinds", {"turn": "on", "turn_each": "on", "arena": "on"}
    )
    assert saved.status_code == 302
    assert mail_addresses.mail_address(alice, "new_login") is None  # unticked: off
    turn_away_and_back(alice, match)
    run_due_tasks(as_if_seconds_passed=MAIL_DELAY)
    assert [m["To"] for m in inbox.wait_for(3)][-1] == "alice@example.com"


def test_the_settings_page_keeps_only_the_switch_and_sends_to_the_account_page(inbox, alice):
    page = logged_in(alice)
    shown = page.get("/settings/").content.decode()
    assert "You have no confirmed address" in shown and "/settings/account/#mail" in shown
    assert 'name="email"' not in shown
    address_confirmed(alice, "alice@example.com", inbox)
    assert (
        "We email alice@example.com, a confirmed address."
        in page.get("/settings/").content.decode()
    )
    assert page.post("/settings/turn-mail", {"email": "x@example.com"}).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # the switch changes no address
