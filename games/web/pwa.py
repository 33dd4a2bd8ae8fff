"""The installed app's pieces: the static files its service worker keeps (templates/pwa/sw.js)
and their version, and the web app manifest's fields.

The worker keeps the site's own static files (css, js, fonts, images) and htmx, and serves
them from its cache; the cache is named after their version, so a deploy that changes any of
them gives a new /sw.js, which the browser installs, and the old cache is deleted. The storage
(STORAGES, settings.py) names no file by its contents (CompressedStaticFilesStorage), so the
version is a digest of the files' served names and bytes: the same files, the same version, on
every process of a deploy; with a hashing storage (ManifestStaticFilesStorage) the names carry
the digest too.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.staticfiles import finders
from django.templatetags.static import static

# What the worker keeps: the site's own folders by these suffixes (not the fonts' build script,
# nor the licence), and the htmx that every page loads (django-htmx's {% htmx_script %}).
KEPT_FOLDERS = ("css", "js", "fonts", "img")
KEPT_SUFFIXES = (".css", ".js", ".woff2", ".svg", ".png")
HTMX = ("django_htmx/htmx-2.min.js", "django_htmx/ext/hx-ws-2.min.js")

# The manifest's icons (static/img/build_icons.py makes them): "any" rounded, "maskable" with
# the felt to every edge and the card in the safe circle.
ICONS = (
    ("img/icon-192.png", 192, "any"),
    ("img/icon-512.png", 512, "any"),
    ("img/icon-maskable-192.png", 192, "maskable"),
    ("img/icon-maskable-512.png", 512, "maskable"),
)
NOTIFICATION_ICON = "img/icon-192.png"
# The table's colours (static/css/site.css): the header's dark felt and the felt.
THEME_COLOUR = "#0a3622"
BACKGROUND_COLOUR = "#0f5132"


@dataclass(frozen=True)
class Kept:
    """The worker's cache: its version and the addresses of the files in it."""

    version: str
    urls: tuple[str, ...]


def version_of(files: Iterable[tuple[str, bytes]]) -> str:
    """A short digest of (served name, bytes) pairs, in the order given."""
    digest = hashlib.blake2b(digest_size=8)
    for name, content in files:
        digest.update(name.encode() + b"\0" + len(content).to_bytes(8, "big") + content)
    return digest.hexdigest()


def kept_names() -> list[str]:
    """The static files the worker keeps, by their names in the static folders."""
    names = set()
    for finder in finders.get_finders():
        if not isinstance(finder, finders.FileSystemFinder):
            continue  # the site's own folder (STATICFILES_DIRS); the apps' only for htmx
        for name, _storage in finder.list([]):
            name = name.replace("\\", "/")
            if name.split("/")[0] in KEPT_FOLDERS and name.endswith(KEPT_SUFFIXES):
                names.add(name)
    names.update(name for name in HTMX if finders.find(name))
    return sorted(names)


@functools.cache
def kept() -> Kept:
    """Read once a process: a deploy's static files do not change under a running process."""
    names = kept_names()
    urls = tuple(static(name) for name in names)
    files = []
    for name, url in zip(names, urls, strict=True):
        with open(finders.find(name), "rb") as file:
            files.append((url, file.read()))
    return Kept(version=version_of(files), urls=urls)


def icons() -> list[dict]:
    return [
        {"src": static(name), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for name, size, purpose in ICONS
    ]
