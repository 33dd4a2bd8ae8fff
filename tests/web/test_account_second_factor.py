"""The second factor on the account page and at the log-in, and the admin that opens to staff
only in a session its code verified."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

from games.services import second_factors
from tests.support.second_factors import app_device, code_now, log_in, wrong_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="Moderate-me-1", is_staff=True)
    user.groups.add(moderators_group)
    return user


def logged_in_with_password(user, password: str, target="/admin/") -> tuple[Client, object]:
    client = Client()
    given = {"username": user.username, "password": password}
    return client, client.post(f"/accounts/login/?next={target}", given)


def test_a_moderator_without_a_second_factor_is_sent_to_set_one_up(staff):
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/games/match/", follow=True)
    assert response.redirect_chain[-1][0].endswith("/settings/account/#second-factor")
    page = response.content.decode()
    assert "The admin opens only with a second factor" in page
    assert "Staff accounts need a second factor" in page
    assert client.get("/admin/").status_code == 302  # still shut


def test_with_a_second_factor_the_admin_opens_after_the_code_and_not_before(staff):
    device = app_device(staff)
    client, response = logged_in_with_password(staff, "Moderate-me-1")
    assert response.status_code == 302 and response.url == "/accounts/login/code"
    assert SESSION_KEY not in client.session  # the password alone logs nobody in
    shut = client.get("/admin/", follow=True).redirect_chain[-1][0]
    assert shut.startswith("/accounts/login/?next=")
    refused = client.post("/accounts/login/code", {"code": wrong_code(device)})
    assert refused.status_code == 403
    assert "That code is not right" in refused.content.decode()
    code = code_now(device)
    response = client.post("/accounts/login/code", {"code": code})
    assert response.status_code == 302 and response.url == "/admin/"
    assert client.get("/admin/games/match/").status_code == 200
    # The same code again, in another session: refused as used.
    other, _ = logged_in_with_password(staff, "Moderate-me-1")
    replayed = other.post("/accounts/login/code", {"code": code})
    assert replayed.status_code == 403
    assert "That code was used already" in replayed.content.decode()
    assert other.get("/admin/").status_code == 302


def test_a_logged_in_staff_session_not_verified_is_asked_for_the_code(staff):
    device = app_device(staff)
    client = Client()
    client.force_login(staff)  # a session from before the second factor was set up
    response = client.get("/admin/games/match/")
    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    response = client.get(response.url)
    assert response.url.startswith("/accounts/login/code?next=")
    page = client.get(response.url).content.decode()
    assert "This page opens only after a code" in page
    response = client.post(response.url, {"code": code_now(device)})
    assert response.url == "/admin/games/match/"
    assert client.get("/admin/games/match/").status_code == 200


def test_the_code_steps_attempts_are_limited_in_words(staff, settings):
    settings.SECOND_FACTOR_ATTEMPTS = 3
    device = app_device(staff)
    client, _ = logged_in_with_password(staff, "Moderate-me-1")
    for _ in range(3):
        assert client.post("/accounts/login/code", {"code": wrong_code(device)}).status_code == 403
    response = client.post("/accounts/login/code", {"code": code_now(device)})
    assert response.status_code == 429
    assert "Too many codes were tried" in response.content.decode()
    assert SESSION_KEY not in client.session


def test_the_shared_helpers_verified_session_opens_the_admin(staff):
    assert log_in(Client(), staff).get("/admin/").status_code == 200


def test_setting_it_up_shows_the_key_then_the_recovery_codes_once(alice, alice_page):
    page = alice_page.get("/settings/account/").content.decode()
    assert "Set up a second factor" in page
    alice_page.post("/settings/account/second-factor/begin")
    page = alice_page.get("/settings/account/").content.decode()
    assert "<svg" in page and 'role="img"' in page  # the QR code, drawn on the server
    secret = re.search(r"data-second-factor-secret>([A-Z2-7 ]+)<", page).group(1)
    device = TOTPDevice.objects.get(user=alice, confirmed=False)
    assert "".join(secret.split()) == device.config_url.split("secret=")[1].split("&")[0]
    refused = alice_page.post("/settings/account/second-factor/confirm", {"code": "12"})
    assert refused.status_code in (400, 403)
    assert not second_factors.has_second_factor(alice)
    shown = alice_page.post("/settings/account/second-factor/confirm", {"code": code_now(device)})
    assert shown.status_code == 200 and shown["Cache-Control"] == "no-store"
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", shown.content.decode())
    assert len(codes) == 10
    again = alice_page.get("/settings/account/").content.decode()
    assert not any(code in again for code in codes)  # shown once
    assert "10 recovery codes left" in again


def test_a_player_with_a_second_factor_logs_in_in_two_steps_with_a_recovery_code(alice):
    app_device(alice)
    codes = second_factors.recovery_codes_renew(
        user=alice, password="correct horse 1", code=code_now(app_device(alice))
    )
    client, response = logged_in_with_password(alice, "correct horse 1", "/play/")
    page = client.get(response.url).content.decode()
    assert "The password of alice is right" in page
    response = client.post("/accounts/login/code", {"code": codes[3]}, follow=True)
    assert response.wsgi_request.user == alice
    assert "You used a recovery code: 9 are left" in response.content.decode()
    other, _ = logged_in_with_password(alice, "correct horse 1", "/play/")
    assert other.post("/accounts/login/code", {"code": codes[3]}).status_code == 403


def test_the_code_step_without_a_password_sends_to_the_log_in(client):
    response = client.post("/accounts/login/code", {"code": "123456"})
    assert response.status_code == 302 and response.url == "/accounts/login/"


def test_turning_it_off_on_the_page_needs_the_password_and_a_code(alice, alice_page):
    device = app_device(alice)
    url = "/settings/account/second-factor/off"
    refused = alice_page.post(url, {"password": "wrong", "code": code_now(device)})
    assert refused.status_code == 403 and "That is not your password" in refused.content.decode()
    refused = alice_page.post(url, {"password": "correct horse 1", "code": wrong_code(device)})
    assert refused.status_code == 403 and "That code is not right" in refused.content.decode()
    assert alice_page.post(url, {"password": "correct horse 1"}).status_code == 400
    assert second_factors.has_second_factor(alice)
    done = alice_page.post(
        url, {"password": "correct horse 1", "code": code_now(device)}, follow=True
    )
    assert "Your second factor is off" in done.content.decode()
    assert not second_factors.has_second_factor(alice)
