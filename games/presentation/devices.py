"""A browser's User-Agent in words a person reads ("Chrome · Android"), for the list of a
player's sessions and the mail of a log-in from a new device. A short reading of the common
browsers and systems, not a full parser: what it does not know it says it does not know.
Browsers' and systems' names are their makers' and stay as they are in every language."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

# (pattern, name), the first that matches wins: the order matters, as most browsers' strings
# also name the ones they descend from (Edge's says Chrome and Safari, Chrome's says Safari).
_BROWSERS = (
    (r"\bEdg(e|A|iOS)?/", "Edge"),
    (r"\b(OPR|Opera)/", "Opera"),
    (r"\bSamsungBrowser/", "Samsung Internet"),
    (r"\bYaBrowser/", "Yandex Browser"),
    (r"\b(Firefox|FxiOS)/", "Firefox"),
    (r"\b(Chrome|CriOS|Chromium|HeadlessChrome)/", "Chrome"),
    (r"\bVersion/[\d.]+.*\bSafari/", "Safari"),
    (r"\bcurl/", "curl"),
    (r"\bpython-(requests|urllib|httpx)|\bPython-urllib/|\baiohttp/", "Python"),
)
_SYSTEMS = (
    (r"\bAndroid\b", "Android"),
    (r"\biPad\b", "iPadOS"),
    (r"\b(iPhone|iPod)\b", "iOS"),
    (r"\bCrOS\b", "ChromeOS"),
    (r"\bWindows\b", "Windows"),
    (r"\bMac OS X\b|\bMacintosh\b", "macOS"),
    (r"\bLinux\b", "Linux"),
)


def _first(patterns: tuple[tuple[str, str], ...], user_agent: str) -> str:
    return next((name for pattern, name in patterns if re.search(pattern, user_agent)), "")


def device_parts(user_agent: str) -> tuple[str, str]:
    """The browser's and the system's names read from ``user_agent`` ("" for one unknown)."""
    return _first(_BROWSERS, user_agent or ""), _first(_SYSTEMS, user_agent or "")


def device_words(user_agent: str) -> str:
    """The device in words, in the active language."""
    browser, system = device_parts(user_agent)
    if browser and system:
        # Two names and no word between them: a sentence of two placeholders and one short
        # word ("ee", "sou") would be found in any page's words by the translation page.
        return f"{browser} · {system}"
    if browser:
        return browser
    if system:
        return _("A browser on %(system)s") % {"system": system}
    return _("An unknown browser")
