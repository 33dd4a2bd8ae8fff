"""The site's translation catalogues (locale/<code>/LC_MESSAGES/django.po), read and written
with polib. Used by ``manage.py update_catalogues`` and the tests that keep every catalogue
complete and current."""

from __future__ import annotations

import re
from pathlib import Path

import polib
from django.conf import settings


def path_of(code: str) -> Path:
    return Path(settings.LOCALE_PATHS[0]) / code / "LC_MESSAGES" / "django.po"


def read(path: Path) -> polib.POFile:
    """A catalogue; iterating it gives its entries (the header is its ``metadata``)."""
    return polib.pofile(str(path), wrapwidth=0)


def key(entry: polib.POEntry) -> tuple[str | None, str, str | None]:
    """What identifies an entry: its context, its text and its plural text."""
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or None)


def strings(entry: polib.POEntry) -> list[str]:
    """The entry's translations: its one string, or each plural form."""
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def missing(catalogue: polib.POFile) -> list[polib.POEntry]:
    """Entries without a whole translation: empty, fuzzy, or short of a plural form."""
    found = re.search(r"nplurals=(\d+)", catalogue.metadata.get("Plural-Forms", ""))
    plurals = int(found.group(1)) if found else 2
    return [
        entry
        for entry in catalogue
        if not entry.obsolete
        and (
            entry.fuzzy
            or not all(strings(entry))
            or (entry.msgid_plural and len(entry.msgstr_plural) < plurals)
        )
    ]
