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


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


def placeholders(text: str) -> list[str]:
    """A message's placeholders, sorted: a translation keeps exactly the English ones."""
    return sorted(PLACEHOLDER.findall(text))


def entry_of(catalogue: polib.POFile, msgctxt: str, msgid: str) -> polib.POEntry | None:
    """The singular entry with this context ("" for none) and text, if the catalogue has it."""
    found = catalogue.find(msgid, msgctxt=msgctxt or None)
    return None if found is None or found.obsolete or found.msgid_plural else found


def wording(code: str, msgctxt: str, msgid: str) -> str | None:
    """The catalogue's translation of one singular message, or None when it has no such one."""
    entry = entry_of(read(path_of(code)), msgctxt, msgid)
    return None if entry is None else entry.msgstr


def write_translations(code: str, changes: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """Puts each (context, text, translation) into the language's catalogue, then compiles it
    (polib's compiler: no gettext needed on the server). Returns the (context, text) pairs it
    wrote; a message the catalogue no longer has is left out."""
    path = path_of(code)
    catalogue = read(path)
    written = []
    for msgctxt, msgid, msgstr in changes:
        entry = entry_of(catalogue, msgctxt, msgid)
        if entry is not None:
            entry.msgstr = msgstr
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
            written.append((msgctxt, msgid))
    if written:
        catalogue.save()
        catalogue.save_as_mofile(str(path.with_suffix(".mo")))
        global _looked_at
        _looked_at = 0.0  # this process reads it again at its next request
    return written


_loaded: dict[str, float] = {}
_looked_at = 0.0


def reload_if_changed(now: float, every: float = 2.0) -> bool:
    """Reads the compiled catalogues again when one changed on disk since this process loaded
    them (an accepted suggestion, written by any process): looks at most every ``every``
    seconds. The requests already under way keep the words they started with."""
    global _looked_at
    if now - _looked_at < every:
        return False
    _looked_at = now
    stamps = {}
    for code, _name in settings.LANGUAGES:
        mo = path_of(code).with_suffix(".mo")
        stamps[code] = mo.stat().st_mtime if mo.exists() else 0.0
    changed = bool(_loaded) and stamps != _loaded
    _loaded.update(stamps)
    if changed:
        import gettext

        from django.utils.translation import trans_real

        from .. import caches

        gettext._translations.clear()  # the standard library's cache of catalogue files
        trans_real._translations = {}
        trans_real._default = None
        caches.clear_all()  # words already rendered (the board's pieces, the move log)
    return changed


# Scripts that write no space between words: a message may stand inside a longer run of letters.
UNSPACED = ("th", "my")


def _pattern(text: str, spaced: bool) -> re.Pattern | None:
    """A translation as it reads on a page: its placeholders stand for any words."""
    words = " ".join(re.sub(r"<[^>]+>", " ", text).split())
    if len(words) < 2:
        return None
    parts = [re.escape(p) for p in PLACEHOLDER.split(words)]
    body = r"\s*".join(r".{1,60}?".join(parts).split(r"\ "))
    return re.compile(rf"(?<!\w){body}(?!\w)" if spaced else body)


def messages(code: str, query: str = "", page_text: str | None = None) -> list[dict]:
    """The language's singular messages for its review page: all of them, those whose English
    or translation holds ``query``, or (``page_text``: the words a player saw on a page) those
    that page showed."""
    query = query.strip().lower()
    seen = " ".join(page_text.split()) if page_text is not None else None
    found = []
    for entry in read(path_of(code)):
        if entry.obsolete or entry.msgid_plural or not entry.msgstr:
            continue
        if query and query not in entry.msgid.lower() and query not in entry.msgstr.lower():
            continue
        if seen is not None:
            pattern = _pattern(entry.msgstr, code not in UNSPACED)
            if pattern is None or not pattern.search(seen):
                continue
        found.append({"msgctxt": entry.msgctxt or "", "msgid": entry.msgid, "msgstr": entry.msgstr})
    return found
