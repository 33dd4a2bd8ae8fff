"""A player switches language on the match page and sees the board in it (every offered
language; a screenshot of each lands in artifacts/screenshots/)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from tests.support.browser import shot
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)
OFFERED = [code for code, _name in settings.LANGUAGES]


@pytest.mark.parametrize("code", [c for c in OFFERED if c != "en"] or ["en"])
def test_switching_language_on_the_match_page_translates_the_board(
    live_server_url, new_page, alice, bob, code
):
    match = start(alice, bob)
    player = match.players[match.state.turn]
    page = new_page(width=390, height=844, logged_in=player)  # a phone: long words must fit
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    with translation.override("en"):
        assert page.locator("[data-action=pass] [data-label]").inner_text() == "Pass"
    shot(page, "match-in-en")
    page.select_option("[data-language-choice]", code)  # submits by itself
    page.wait_for_selector(f'html[lang="{code}"]')
    page.wait_for_selector("#board")
    with translation.override(code):
        assert page.locator("[data-action=pass] [data-label]").inner_text() == translation.gettext(
            "Pass"
        )
        # Nobody has moved yet: leaving is a free abort, not a resignation.
        assert translation.gettext("Abort") in page.locator("[data-action=resign]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The scoreboard's headings are whole (its width is fixed: only a long name is cut).
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.scorebox thead :is(th, td)')]
             .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)"""
    )
    assert cut == [], (code, cut)
    shot(page, f"match-in-{code}")
    page.goto(f"{live_server_url}/rules/")
    shot(page, f"rules-in-{code}")


@pytest.mark.parametrize("code", OFFERED)
def test_sign_up_and_log_in_speak_each_language_django_texts_included(
    live_server_url, new_page, code
):
    page = new_page(width=390, height=844)  # a phone: long words must fit
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "domain": "127.0.0.1", "path": "/"}]
    )
    page.goto(f"{live_server_url}/accounts/signup/")
    page.wait_for_selector(f'html[lang="{code}"]')
    page.fill("[name=username]", f"dana{code}")  # sign-ups are limited per name
    page.fill("[name=password1]", "1234")
    page.fill("[name=password2]", "1234")
    page.click("button[type=submit]")  # the password validators refuse it
    page.wait_for_selector(".errorlist")
    with translation.override(code):
        shown = page.inner_text("main")
        assert translation.gettext("This password is entirely numeric.") in shown
        assert translation.gettext("Enter the same password as before, for verification.") in shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"signup-in-{code}")
    page.goto(f"{live_server_url}/accounts/login/")
    page.fill("[name=username]", f"dana{code}")
    page.fill("[name=password]", "wrong")
    page.click("form button[type=submit]")
    page.wait_for_selector("[role=alert], .errorlist")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"login-in-{code}")
