"""The site's translation catalogues (locale/<code>/LC_MESSAGES/django.po), read and written.

Just enough of the PO format for our own files: comments, flags, msgctxt, msgid,
msgid_plural, msgstr and msgstr[n]. Used by ``manage.py update_catalogues`` and the tests
that keep every catalogue complete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?) (".*")$')


@dataclass
class Entry:
    msgid: str = ""
    context: str | None = None
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.context, self.msgid, self.plural)

    def complete(self, plurals: int = 2) -> bool:
        """Translated, not fuzzy; a plural entry in every form the language has."""
        wanted = range(plurals) if self.plural is not None else [0]
        return "fuzzy" not in self.flags and all(self.strings.get(i) for i in wanted)


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), text[1:-1])


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def path_of(code: str) -> Path:
    return Path(settings.LOCALE_PATHS[0]) / code / "LC_MESSAGES" / "django.po"


def read(path: Path) -> list[Entry]:
    """The entries of a catalogue, the header (msgid "") first."""
    entries: list[Entry] = []
    entry = Entry()
    last = None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if last is not None:
                entries.append(entry)
            entry, last = Entry(), None
            continue
        if line.startswith("#,"):
            entry.flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            entry.comments.append(raw)
        elif line.startswith('"'):
            _append(entry, last, _unquote(line))
        else:
            match = LINE.match(line)
            if match is None:
                raise ValueError(f"{path}: cannot read {line!r}")
            keyword, index, text = match.groups()
            last = (keyword.split("[")[0], int(index or 0))
            _append(entry, last, _unquote(text), start=True)
    return entries


def _append(entry: Entry, last, text: str, start: bool = False) -> None:
    keyword, index = last
    if keyword == "msgctxt":
        entry.context = (entry.context or "") + text if not start else text
    elif keyword == "msgid":
        entry.msgid = text if start else entry.msgid + text
    elif keyword == "msgid_plural":
        entry.plural = text if start else (entry.plural or "") + text
    else:
        entry.strings[index] = text if start else entry.strings.get(index, "") + text


def write(path: Path, entries: list[Entry]) -> None:
    chunks = []
    for entry in entries:
        # The PO order: comments, then flags, then the previous msgid of a fuzzy entry ("#|"),
        # which msgfmt refuses anywhere else.
        lines = [c for c in entry.comments if not c.startswith("#|")]
        if entry.flags:
            lines.append("#, " + ", ".join(sorted(entry.flags)))
        lines += [c for c in entry.comments if c.startswith("#|")]
        if entry.context is not None:
            lines.append(f"msgctxt {_quote(entry.context)}")
        lines.append(f"msgid {_quote(entry.msgid)}")
        if entry.plural is not None:
            lines.append(f"msgid_plural {_quote(entry.plural)}")
            for index in sorted(entry.strings) or [0, 1]:
                lines.append(f"msgstr[{index}] {_quote(entry.strings.get(index, ''))}")
        else:
            lines.append(f"msgstr {_quote(entry.strings.get(0, ''))}")
        chunks.append("\n".join(lines))
    path.write_text("\n\n".join(chunks) + "\n", encoding="utf-8")


def missing(entries: list[Entry]) -> list[Entry]:
    """Entries without a whole translation (empty, or marked fuzzy); the header aside."""
    found = re.search(r"nplurals=(\d+)", entries[0].strings.get(0, "")) if entries else None
    plurals = int(found.group(1)) if found else 2
    return [e for e in entries if e.msgid and not e.complete(plurals)]
