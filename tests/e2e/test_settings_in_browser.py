"""The settings page holds every setting: the language, the table's look (at once, no
reload), the alerts (the notification switch shows once the page knows the browser can
notify), the API tokens and the bot options; the match page's side panel links to it."""

from __future__ import annotations

import pytest

from tests.support.browser import shot
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (375, 667)])
def test_the_settings_page_changes_the_look_at_once_and_the_language(
    live_server_url, new_page, alice, bob, width, height
):
    match = start(alice, bob)
    page = new_page(width=width, height=height, logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.click("[data-settings-link]")
    page.wait_for_url(f"{live_server_url}/settings/")
    notify = page.locator("[data-action=notify]")
    assert notify.is_visible() and notify.get_attribute("data-pending") is None
    page.click("[data-action=four-colour]")
    page.wait_for_selector("html[data-deck=four]")
    page.click("[data-action=theme][value=dark]")
    page.wait_for_selector("html[data-theme=dark]")
    shot(page, f"settings-{width}")
    page.select_option("#settings-language", "th")  # submits by itself
    page.wait_for_selector('html[lang="th"]')
    assert page.url == f"{live_server_url}/settings/"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
