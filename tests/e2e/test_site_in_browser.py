"""The site in a real browser: the page renders offline and the live connection comes up."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_page_shows_the_game_and_goes_live(live_server_url, new_page):
    page = new_page()
    outside = []
    page.on("request", lambda r: outside.append(r.url) if "127.0.0.1" not in r.url else None)
    page.goto(live_server_url + "/")
    assert page.locator("h1").inner_text() == "Two-hand euchre, played live"
    badge = page.locator("[data-connection]")
    badge.and_(page.locator("[data-connection=live]")).wait_for(timeout=10_000)
    assert badge.inner_text() == "● Live"
    assert page.evaluate("typeof window.htmx") == "object"  # htmx came from our static files
    assert outside == []  # nothing fetched from anywhere else


def test_home_page_fits_a_phone_screen(live_server_url, new_page):
    page = new_page(width=375, height=740)
    page.goto(live_server_url + "/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # The hero's five cards stay one row (they wrapped onto a second).
    tops = page.locator(".cards-row .card").evaluate_all(
        "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(tops) == 5 and len(set(tops)) == 1, tops
