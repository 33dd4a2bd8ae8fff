"""The mail of a log-in from a new device, sent by the task worker to a real SMTP server
(tests.support.mail): to a confirmed address, naming the device and the time, with a link to
the account page; never for a known device, nor to an address not confirmed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from tests.support.tasks import run_due_tasks

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/124.0.0.0 Mobile Safari/537.36"
LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/125.0"


def logged_in(user, password: str, browser: Client | None = None) -> Client:
    browser = browser or Client(HTTP_USER_AGENT=PHONE)
    answer = browser.post("/accounts/login/", {"username": user.username, "password": password})
    assert answer.status_code == 302
    return browser


@pytest.fixture
def confirmed(django_user_model):
    """A player whose address is confirmed (``User.email`` holds only a confirmed one)."""
    return django_user_model.objects.create_user(
        "dana", email="dana@example.org", password="correct horse 4"
    )


def test_a_new_device_is_mailed_and_a_known_one_is_not(inbox, confirmed, alice):
    phone = logged_in(confirmed, "correct horse 4")
    run_due_tasks()
    [mail] = inbox.wait_for(1)
    assert mail["To"] == "dana@example.org"
    assert mail["Subject"] == "A log-in from a new device: Chrome · Android"
    body = mail.get_content()
    assert "Chrome · Android" in body and "(UTC)" in body
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    account = re.search(r"http://testserver(/settings/account/#sessions)", body).group(1)
    page = phone.get(account).content.decode()  # the link: the list, where it can be ended
    assert "Chrome · Android" in page and "data-this-device" in page
    phone.post("/accounts/logout/")
    logged_in(confirmed, "correct horse 4", phone)  # the same browser: known
    run_due_tasks()
    # Another new device after it: its mail is the next one, so none came between.
    logged_in(confirmed, "correct horse 4", Client(HTTP_USER_AGENT=LAPTOP))
    run_due_tasks()
    mails = inbox.wait_for(2)
    assert len(mails) == 2
    assert mails[1]["Subject"] == "A log-in from a new device: Firefox · Windows"


def test_an_address_not_confirmed_gets_no_new_device_mail(inbox, alice, confirmed):
    services.mail_address_set(user=alice, address="alice@example.org")
    [link] = inbox.wait_for(1)  # the confirmation link, and only that
    assert link["To"] == "alice@example.org"
    logged_in(alice, "correct horse 1")
    run_due_tasks()
    logged_in(confirmed, "correct horse 4")  # a confirmed player's mail comes after
    run_due_tasks()
    mails = inbox.wait_for(2)
    assert [m["To"] for m in mails] == ["alice@example.org", "dana@example.org"]
    assert "new device" in mails[1]["Subject"]


def test_a_player_who_turned_these_mails_off_gets_none(inbox, confirmed, alice):
    services.mail_kind_set(user=confirmed, kind="new_login", wanted=False)
    logged_in(confirmed, "correct horse 4")
    run_due_tasks()
    alice.email = "alice@example.org"
    alice.save()
    logged_in(alice, "correct horse 1")
    run_due_tasks()
    # The worker sends as it runs: a mail to dana would have come before alice's.
    assert [m["To"] for m in inbox.wait_for(1)] == ["alice@example.org"]
