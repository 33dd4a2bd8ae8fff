"""The site's translation catalogues (locale/<code>/LC_MESSAGES/django.po), read and written
with polib. Used by ``manage.py update_catalogues`` and the tests that keep every catalogue
complete and current."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

import polib
from django.conf import settings

from .wording import problem as wording_problem


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


# A placeholder as the review page looks for a message on a page: it stands for any words.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


def entry_of(catalogue: polib.POFile, msgctxt: str, msgid: str) -> polib.POEntry | None:
    """The singular entry with this context ("" for none) and text, if the catalogue has it."""
    found = catalogue.find(msgid, msgctxt=msgctxt or None)
    return None if found is None or found.obsolete or found.msgid_plural else found


def wording(code: str, msgctxt: str, msgid: str) -> str | None:
    """The catalogue's translation of one singular message, or None when it has no such one."""
    return index(code).wording.get((msgctxt or "", msgid))


def write_translations(code: str, changes: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """Puts each (context, text, translation) into the language's catalogue, then compiles it
    (polib's compiler: no gettext needed on the server). Returns the (context, text) pairs it
    wrote; a message the catalogue no longer has, or a wording the pages could not show as it
    is (``wording.problem``: what ``msgfmt --check-format`` refuses, and markup), is left out."""
    path = path_of(code)
    catalogue = read(path)
    written = []
    for msgctxt, msgid, msgstr in changes:
        entry = entry_of(catalogue, msgctxt, msgid)
        if entry is not None and wording_problem(msgid, msgstr) is None:
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
# The characters of a page's words looked at: the rules page, the longest, shows about 3,500.
PAGE_TEXT_LIMIT = 30_000
# A placeholder stands for at most this many characters of a page's words.
PLACEHOLDER_REACH = 60
# Occurrences of a message's anchor tried before the message is taken as not on the page.
ANCHOR_TRIES = 3


@dataclass(frozen=True)
class Message:
    """A translated message as the review page finds it in a page's words: ``anchor`` is its
    longest run of letters with no space or placeholder, looked for first (a plain substring
    search); ``pattern`` is tried only beside an anchor found, over at most ``reach``
    characters either side."""

    msgctxt: str
    msgid: str
    msgstr: str
    anchor: str
    pattern: re.Pattern | None
    reach: int

    def row(self) -> dict:
        return {"msgctxt": self.msgctxt, "msgid": self.msgid, "msgstr": self.msgstr}


@dataclass(frozen=True)
class Index:
    """A language's catalogue as read once per change of its file: the singular messages in
    order, and the wording of each by (context, text)."""

    messages: tuple[Message, ...]
    wording: dict[tuple[str, str], str]


@dataclass(frozen=True)
class PageMatch:
    """The messages a page's words show, and the patterns run to find them (bounded: at most
    ``ANCHOR_TRIES`` for each message whose anchor is on the page)."""

    found: list[dict]
    searches: int


_indexes: dict[str, tuple[tuple[int, int], Index]] = {}
_indexing = threading.Lock()


def _message(entry: polib.POEntry, spaced: bool) -> Message:
    """A message with what finds it on a page: its translation as it reads there, where each
    placeholder stands for any words and markup is gone."""
    words = " ".join(re.sub(r"<[^>]+>", " ", entry.msgstr).split())
    literal = PLACEHOLDER.split(words)
    runs = [run for part in literal for run in part.split()]
    anchor = max(runs, key=len, default="")
    pattern = None
    if len(words) >= 2 and anchor:
        gap = rf".{{1,{PLACEHOLDER_REACH}}}?"
        body = r"\s*".join(gap.join(re.escape(p) for p in literal).split(r"\ "))
        pattern = re.compile(rf"(?<!\w){body}(?!\w)" if spaced else body)
    reach = len(words) + PLACEHOLDER_REACH * (len(literal) - 1) + 1
    return Message(entry.msgctxt or "", entry.msgid, entry.msgstr, anchor, pattern, reach)


def index(code: str) -> Index:
    """The language's catalogue, read again only when its file changed (an accepted
    suggestion, written by any process)."""
    path = path_of(code)
    info = path.stat()
    stamp = (info.st_mtime_ns, info.st_size)
    cached = _indexes.get(str(path))
    if cached is not None and cached[0] == stamp:
        return cached[1]
    with _indexing:
        spaced = code not in UNSPACED
        singular = [e for e in read(path) if not e.obsolete and not e.msgid_plural]
        built = Index(
            messages=tuple(_message(e, spaced) for e in singular if e.msgstr),
            wording={(e.msgctxt or "", e.msgid): e.msgstr for e in singular},
        )
        _indexes[str(path)] = (stamp, built)
    return built


def page_messages(code: str, page_text: str) -> PageMatch:
    """The language's messages that the words a player saw on a page show (the first
    ``PAGE_TEXT_LIMIT`` characters of them): a message counts when its pattern matches beside
    one of the first ``ANCHOR_TRIES`` occurrences of its anchor, unless that match lies inside
    a longer message's (Thai "player" inside "leaderboard", a short message inside any run of
    Thai or Burmese letters)."""
    seen = " ".join(page_text[:PAGE_TEXT_LIMIT].split())
    spans_of: dict[int, set[tuple[int, int]]] = {}
    searches = 0
    messages = index(code).messages
    for number, message in enumerate(messages):
        if message.pattern is None:
            continue
        at = seen.find(message.anchor)
        for _try in range(ANCHOR_TRIES):
            if at < 0:
                break
            searches += 1
            start = max(0, at - message.reach)
            hit = message.pattern.search(seen, start, at + len(message.anchor) + message.reach)
            if hit:
                spans_of[number] = {hit.span()}
                break
            at = seen.find(message.anchor, at + 1)
    inside = _inside(set().union(*spans_of.values()))
    found = [messages[n].row() for n, spans in spans_of.items() if spans - inside]
    return PageMatch(found, searches)


def _inside(spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The spans that lie inside another: one before it in (start, longest first) order
    reaches as far (a sweep, not a comparison of every pair)."""
    inside, reach = set(), -1
    for span in sorted(spans, key=lambda s: (s[0], -s[1])):
        if reach >= span[1]:
            inside.add(span)
        reach = max(reach, span[1])
    return inside


def messages(code: str, query: str = "") -> list[dict]:
    """The language's translated singular messages for its review page: all of them, or those
    whose English or translation holds ``query``."""
    query = query.strip().lower()
    return [
        m.row()
        for m in index(code).messages
        if not query or query in m.msgid.lower() or query in m.msgstr.lower()
    ]
