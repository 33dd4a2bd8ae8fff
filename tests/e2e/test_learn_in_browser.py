"""A newcomer finds "Learn in one hand" on the home page and plays the guided hand to the end
by clicking, in English and in Thai."""

from __future__ import annotations

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("code", ["en", "th"])
def test_a_newcomer_completes_the_guided_hand_by_clicking(live_server_url, new_page, code):
    page = new_page()
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": code}
    page.context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])
    page.goto(live_server_url + "/")
    page.click("[data-learn]")
    page.wait_for_selector("[data-guide-line]")
    title = page.locator("h1").inner_text()
    assert (title == "Learn in one hand") == (code == "en")
    first = page.locator("[data-guide-line]").first.inner_text()
    assert first and (("upcard" in first) == (code == "en"))
    for _ in range(15):
        if page.locator("[data-learn-done]").count():
            break
        # A card or a call: the first the newcomer may choose (wrong choices are allowed).
        page.locator("[data-learn-move] button").first.click()
        page.wait_for_load_state()
    assert page.locator("[data-learn-done] a").count() == 2
    assert page.locator("[data-hand-summary]").count() == 1
    page.click("[data-learn-done] [data-action=play-computer]")
    page.wait_for_url("**/accounts/login/**")  # a newcomer without an account logs in first
