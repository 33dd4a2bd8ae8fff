"""The installed app's pieces: the web app manifest (its words in each language, its icons
real PNG files of the sizes it claims, maskable ones among them), the service worker's
address and headers, and the offline page (the language asked for, nothing of the player's).
The worker itself runs in Chromium: tests/e2e/test_installed_app.py."""

from __future__ import annotations

import json
import struct

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.utils import translation

from games.web import pwa

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """A PNG file's width and height, from its header (the IHDR chunk comes first)."""
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is no PNG"
    return struct.unpack(">II", head[16:24])


def file_of(url: str) -> str:
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert found, f"{url}: no such static file"
    return found


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_the_manifest_names_the_site_in_each_language(code):
    response = Client().get(f"/manifest.webmanifest?lang={code}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Content-Language"] == code and response["Cache-Control"] == "max-age=3600"
    manifest = json.loads(response.content)
    with translation.override(code):
        assert manifest["name"] == translation.gettext("Two-hand euchre")
        short = translation.pgettext("the app's name under its icon on a home screen", "Euchre")
        assert manifest["short_name"] == short
        footer = "Two players · 24, 25 or 32 cards · first to the target wins"
        assert manifest["description"] == translation.gettext(footer)
    assert manifest["lang"] == code and manifest["dir"] == "ltr"
    # One app in every language, opening at the lobby, every page of the site within it.
    assert (manifest["id"], manifest["start_url"], manifest["scope"]) == ("/", "/play/", "/")
    assert manifest["display"] == "standalone"
    assert (manifest["theme_color"], manifest["background_color"]) == ("#0a3622", "#0f5132")


def test_each_page_links_the_manifest_in_its_own_language(alice_page):
    page = alice_page.get("/play/", HTTP_ACCEPT_LANGUAGE="so").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=so">' in page
    assert '<script src="/static/js/pwa.js" defer></script>' in page


def test_the_manifests_icons_are_pngs_of_the_sizes_they_claim_maskable_ones_among_them():
    icons = json.loads(Client().get("/manifest.webmanifest").content)["icons"]
    for icon in icons:
        width, height = png_size(file_of(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png", icon
    by_purpose = {(icon["purpose"], icon["sizes"]) for icon in icons}
    for purpose in ("any", "maskable"):  # 192 for the home screen, 512 for the splash screen
        assert {(purpose, "192x192"), (purpose, "512x512")} <= by_purpose
    static = Client().get(icons[-1]["src"])  # served as the browser fetches it
    assert static.status_code == 200 and static["Content-Type"] == "image/png"


def test_an_unknown_language_is_refused_in_words():
    for path in ("/manifest.webmanifest?lang=xx", "/offline/?lang=xx"):
        response = Client().get(path)
        assert response.status_code == 400
        assert "Choose a language from the list." in response.content.decode()


def test_the_service_worker_is_served_at_the_root_never_cached_with_its_version_and_files():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"  # the browser asks at each visit
    first, code = response.content.decode().split("\n", 1)
    site = json.loads(first.removeprefix("const SITE = ").removesuffix(";"))
    kept = pwa.kept()
    assert site["version"] == kept.version and site["files"] == list(kept.urls)
    assert (site["offline"], site["icon"]) == ("/offline/", "/static/img/icon-192.png")
    assert "/static/css/site.css" in site["files"] and "/static/js/pwa.js" in site["files"]
    # Only static files are kept: no page, no board, no API answer.
    assert all(url.startswith(settings.STATIC_URL) for url in site["files"])
    assert 'addEventListener("push"' in code and 'addEventListener("notificationclick"' in code


def test_the_version_changes_with_any_file_kept_and_only_then():
    files = [("/static/css/site.css", b"body {}"), ("/static/js/pwa.js", b"1;")]
    assert pwa.version_of(files) == pwa.version_of(list(files))
    assert pwa.version_of(files) != pwa.version_of([files[0], ("/static/js/pwa.js", b"2;")])
    renamed = [files[0], ("/static/js/pwa.0f1e2d.js", b"1;")]  # a hashing storage's new name
    assert pwa.version_of(files) != pwa.version_of(renamed)


def test_the_offline_page_speaks_the_language_asked_for_and_holds_nothing_of_the_player(
    alice, alice_page
):
    response = alice_page.get("/offline/?lang=th")
    assert response.status_code == 200 and response["Content-Language"] == "th"
    page = response.content.decode()
    with translation.override("th"):
        title = f"{translation.gettext('Offline')} · {translation.gettext('Two-hand euchre')}"
        assert f"<title>{title}</title>" in page and '<html lang="th"' in page
        assert translation.gettext("You are offline") in page
    assert "data-offline-page" in page and 'href="/static/css/site.css"' in page
    # Kept in the browser: no name, no badge of turns, no token of the session.
    assert "alice" not in page and "csrfmiddlewaretoken" not in page
    assert "data-me" not in page and "turn-badge" not in page
    assert 'href="/settings/"' not in page


def test_without_a_language_the_offline_page_speaks_the_players():
    response = Client().get("/offline/", HTTP_ACCEPT_LANGUAGE="am")
    assert response.status_code == 200 and response["Content-Language"] == "am"
    assert '<html lang="am"' in response.content.decode()


def test_the_settings_page_has_the_install_section_hidden_until_the_browser_offers(alice_page):
    page = alice_page.get("/settings/").content.decode()
    assert 'data-install="none"' in page
    assert '<p data-install-when="offered" hidden><button type="button"' in page
    assert '<p data-install-when="installed" hidden>' in page
