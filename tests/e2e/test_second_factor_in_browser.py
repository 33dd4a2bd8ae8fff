"""A player sets up a second factor in the browser (the key read from the page, the app's
code computed from it), keeps the recovery codes, and the next log-in asks for a code."""

from __future__ import annotations

import pytest
from django.conf import global_settings
from django_otp.plugins.otp_totp.models import TOTPDevice

from games.models import AccountEvent
from games.services import second_factors
from tests.support.browser import shot
from tests.support.second_factors import code_from_key, code_now

pytestmark = pytest.mark.django_db(transaction=True)


def photographed(page, name: str) -> None:
    """With SCREENSHOTS=1, the page at desktop and phone widths, for a person to look at."""
    size = page.viewport_size
    for wide, high in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": wide, "height": high})
        shot(page, f"second-factor-{name}-{wide}")
    page.set_viewport_size(size)


def log_in(page, base: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("[name=username]", "alice")
    page.fill("[name=password]", "correct horse 1")
    page.click("main form button[type=submit]")


def test_setting_up_a_second_factor_then_logging_in_with_its_code(
    live_server_url, new_page, alice, settings
):
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # the server's, to log in
    alice.set_password("correct horse 1")
    alice.save()
    page = new_page(width=1280, height=800)
    log_in(page, live_server_url)
    page.wait_for_url("**/play/")
    page.goto(live_server_url + "/settings/account/#second-factor")
    page.click("[data-action=second-factor-begin]")
    secret = page.inner_text("[data-second-factor-secret]")
    assert page.locator(".qr-code svg[role=img]").is_visible()
    photographed(page, "set-up")
    page.fill("#second-factor-confirm-code", "000000" if code_from_key(secret) != "000000" else "1")
    page.click("[data-action=second-factor-confirm]")
    assert "That code is not right" in page.inner_text("#second-factor")
    assert not second_factors.has_second_factor(alice)
    page.fill("#second-factor-confirm-code", code_from_key(secret))
    page.click("[data-action=second-factor-confirm]")
    codes = page.locator("[data-recovery-codes] code").all_inner_texts()
    assert len(codes) == 10 and "Your second factor is on" in page.inner_text("main")
    photographed(page, "recovery-codes")
    page.reload()
    assert page.locator("[data-recovery-codes]").count() == 0  # shown once
    assert "10 recovery codes left" in page.inner_text("#second-factor")

    other = new_page(width=375, height=667)
    log_in(other, live_server_url)
    other.wait_for_url("**/accounts/login/code")
    assert "The password of alice is right" in other.inner_text("main")
    photographed(other, "code-step")
    other.goto(live_server_url + "/settings/account/")
    assert "/accounts/login/?next=" in other.url  # not logged in before the code
    log_in(other, live_server_url)
    other.wait_for_url("**/accounts/login/code")
    # The app's next code (its current one was taken by the set-up). The device as the server
    # keeps it: a set-up code taken just past a step's end moved its clock a step back
    # (django-otp's OTP_TOTP_SYNC), as a phone's clock running late would have.
    device = TOTPDevice.objects.get(user=alice, confirmed=True)
    other.fill("[name=code]", code_now(device, steps_ahead=1))
    other.click("main form button[type=submit]")
    other.wait_for_url("**/play/")
    other.goto(live_server_url + "/settings/account/")
    assert "Your second factor is on" in other.inner_text("#second-factor")
    photographed(other, "on")
    kinds = set(AccountEvent.objects.filter(user=alice).values_list("kind", flat=True))
    assert {"second_factor_set", "recovery_codes_made", "second_factor_refused"} <= kinds
