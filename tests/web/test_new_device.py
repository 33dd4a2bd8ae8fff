"""A log-in from a browser without a known device cookie is a new device: remembered (only the
cookie's hash), logged, and its mail queued for the task worker; a known browser is not."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import AccountEvent, KnownDevice
from games.web.sessions import DEVICE_COOKIE
from tests.support.tasks import queued

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/124.0.0.0 Mobile Safari/537.36"


def log_in(client: Client, user, password: str) -> None:
    answer = client.post("/accounts/login/", {"username": user.username, "password": password})
    assert answer.status_code == 302


@pytest.mark.django_db
def test_a_first_log_in_from_a_browser_is_a_new_device_and_the_next_is_not(alice):
    browser = Client(HTTP_USER_AGENT=PHONE)
    log_in(browser, alice, "correct horse 1")
    cookie = browser.cookies[DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["max-age"] == 400 * 24 * 3600
    assert len(cookie.value) == 43
    [device] = KnownDevice.objects.filter(user=alice)
    assert cookie.value not in device.digest  # only its hash is kept
    [(player, device, _at)] = queued("new_device_mail")
    assert (player, device) == (alice.pk, PHONE)
    browser.post("/accounts/logout/")
    log_in(browser, alice, "correct horse 1")  # the same browser again: known
    assert browser.cookies[DEVICE_COOKIE].value == cookie.value
    assert len(queued("new_device_mail")) == 1
    kinds = AccountEvent.objects.filter(user=alice).values_list("kind", flat=True)
    assert sorted(kinds) == ["login", "login", "new_device"]


@pytest.mark.django_db
def test_a_cookie_known_for_another_player_is_a_new_device_for_this_one(alice, bob):
    shared = Client(HTTP_USER_AGENT=PHONE)
    log_in(shared, alice, "correct horse 1")
    shared.post("/accounts/logout/")
    log_in(shared, bob, "correct horse 2")
    assert [args[0] for args in queued("new_device_mail")] == [alice.pk, bob.pk]


@pytest.mark.django_db
def test_a_made_up_cookie_is_replaced_and_counts_as_new(alice):
    browser = Client(HTTP_USER_AGENT=PHONE)
    browser.cookies[DEVICE_COOKIE] = "guessed"
    log_in(browser, alice, "correct horse 1")
    assert browser.cookies[DEVICE_COOKIE].value != "guessed"
    assert len(queued("new_device_mail")) == 1
