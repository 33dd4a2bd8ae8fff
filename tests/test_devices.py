"""A browser's User-Agent read into words a person reads, as the sessions' list and the
new-device mail name it (games.presentation.devices)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.presentation.devices import device_words

CHROME = "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0"


@pytest.mark.parametrize(
    ("user_agent", "words"),
    [
        (f"Mozilla/5.0 (Linux; Android 14; Pixel 8) {CHROME} Mobile Safari/537.36",
         "Chrome · Android"),
        (f"Mozilla/5.0 (Windows NT 10.0; Win64; x64) {CHROME} Safari/537.36 Edg/124.0.0.0",
         "Edge · Windows"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
         "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", "Safari · iOS"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0",
         "Firefox · macOS"),
        (f"Mozilla/5.0 (X11; Linux x86_64) {CHROME} Safari/537.36 OPR/109.0.0.0",
         "Opera · Linux"),
        (f"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) {CHROME} Safari/537.36", "Chrome · ChromeOS"),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
         "HeadlessChrome/131.0.0.0 Safari/537.36", "Chrome · Linux"),
        ("curl/8.5.0", "curl"),
        ("Mozilla/5.0 (Windows NT 10.0) SomethingNew/1.0", "A browser on Windows"),
        ("", "An unknown browser"),
    ],
)  # fmt: skip
def test_common_browsers_and_systems_are_named(user_agent, words):
    assert device_words(user_agent) == words


def test_the_words_are_in_the_players_language():
    with translation.override("am"):
        said = device_words(f"Mozilla/5.0 (Linux; Android 14) {CHROME}")
    assert "Chrome" in said and "Android" in said
