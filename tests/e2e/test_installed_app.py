"""The installed app in Chromium: the manifest parsed with no installability error, the
service worker controlling the page after a reload, its cache this deploy's only, and with the
network off a page asked for shows the offline page in the player's language (again after they
change language), never a match page seen before; the settings' Install button as the browser
offers it or not. The worker's push handlers are not driven here (headless Chromium drops a
notification shown from a push now and then); what a push service receives from the site:
tests/worker/test_push.py."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games import services
from games.web import pwa
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, shot
from tests.support.matches import start
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db(transaction=True)

KEPT = """async () => {
  const names = await caches.keys();
  const kept = {};
  for (const name of names) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map(request => new URL(request.url).pathname);
  }
  return kept;
}"""


@pytest.fixture
def profile(browser, tmp_path):
    """A browser profile on disk: Chromium offers no install in the fresh contexts of the other
    browser tests, which are incognito ones (the installability error "in-incognito")."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 375, "height": 667},
    )  # fmt: skip
    yield context
    for page in context.pages:
        shot(page, "installed-app")
    context.close()


def offline_page_in(page, code: str) -> None:
    """The page is the offline page, in ``code``: its title and heading in that language."""
    page.wait_for_selector(f"html[lang='{code}'] [data-offline-page]")
    with translation.override(code):
        title = f"{translation.gettext('Offline')} · {translation.gettext('Two-hand euchre')}"
        heading = translation.gettext("You are offline")
    assert page.title() == title
    assert page.inner_text("[data-offline-page] h1") == heading
    assert page.locator("#board").count() == 0


def install_section(page, state: str, name: str) -> None:
    """The settings' install section in ``state``: "offered" (the browser's offer came: the
    button), "none" (its sentence instead); photographed with SCREENSHOTS=1."""
    section = page.locator(f"#install[data-install='{state}']")
    section.locator(f"[data-install-when='{state}']").first.wait_for()
    assert section.locator("[data-action=install]").is_visible() == (state == "offered")
    section.scroll_into_view_if_needed()
    shot(page, f"installed-app-settings-{name}", full_page=False)


def test_the_site_installs_and_offline_shows_its_page_in_the_players_language_never_a_match(
    live_server_url, profile, new_page, alice, bob
):
    services.player_language_set(user=alice, language="th")  # the session takes it at log-in
    match = start(alice, bob, move_seconds=None)
    client = Client()
    log_in(client, alice)
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    profile.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])
    page = profile.pages[0] if profile.pages else profile.new_page()
    # An earlier deploy's cache, made before the worker first comes (/sw.js as a document runs
    # none of the site's scripts): the worker deletes it as it takes over.
    page.goto(live_server_url + "/sw.js")
    page.evaluate("caches.open('euchre-static-0123456789abcdef').then(() => true)")

    page.goto(live_server_url + "/play/")
    page.wait_for_selector("html[data-offline-ready='th']")  # the worker keeps the Thai page
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_server_url}/manifest.webmanifest?lang=th"
    assert manifest["errors"] == []
    assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    kept = page.evaluate(KEPT)
    version = pwa.kept().version  # the same static files as the server's: the same version
    assert list(kept) == [f"euchre-static-{version}"]  # the earlier one deleted
    # Static files and the offline page; no page of the player's, no board, no API answer.
    assert sorted(kept[f"euchre-static-{version}"]) == sorted([*pwa.kept().urls, "/offline/"])

    match_page = f"{live_server_url}/matches/{match.pk}/"
    page.goto(match_page)
    page.wait_for_selector("#board")
    page.context.set_offline(True)
    page.goto(match_page)
    offline_page_in(page, "th")
    assert page.url == match_page  # the page asked for, to try again
    shot(page, "installed-app-offline-th")
    page.goto(live_server_url + "/play/")
    offline_page_in(page, "th")

    page.context.set_offline(False)
    page.goto(live_server_url + "/settings/")
    install_section(page, "offered", "th")  # Chromium offers to install the site
    page.select_option("#settings-language", "am")  # language.js sends it at once
    page.wait_for_selector("html[lang='am'][data-offline-ready='am']")
    install_section(page, "offered", "am")
    page.context.set_offline(True)
    page.goto(match_page)
    offline_page_in(page, "am")
    shot(page, "installed-app-offline-am")
    page.context.set_offline(False)

    incognito = new_page(width=375, height=667, logged_in=alice)  # no install offered there
    incognito.goto(live_server_url + "/settings/")
    install_section(incognito, "none", "am-no-offer")
