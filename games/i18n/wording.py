"""Whether a wording may stand for a message in a catalogue: the check a suggestion passes
before a player sends it, before a moderator accepts it and before it is written.

Translations reach the pages as they are: Django's ``{% translate %}`` and
``{% blocktranslate %}`` and the board's Jinja ``_()`` mark them safe, and the blocks fill
their placeholders with ``%``. So a wording keeps the message's placeholders and nothing else
that ``%`` reads (``msgfmt --check-format`` for python-format), and carries no markup, entity
or quotation mark the message does not carry itself (a translation may stand inside an
attribute's quotes); the message's own are the site's, written by its developers.
"""

from __future__ import annotations

import re
import unicodedata

# What ``%`` reads in a wording: a conversion, named or not ("%(name)s", "%d", "%(x)r"), or
# "%%"; a "%" that starts none is a lone one. A wording keeps exactly the message's.
PERCENT = re.compile(r"%(?:(?:\(\w+\))?[#0 +-]*\d*(?:\.\d+)?[a-zA-Z]|%)?")
# Markup a browser reads: tags, entities and the characters that open them, and the ASCII
# quotation marks that close an attribute's value.
MARKUP = re.compile(r"<[^<>]*>|&(?:#\d+|#x[0-9A-Fa-f]+|\w+);|[<>&\"]")


def problem(msgid: str, text: str) -> tuple[str, dict] | None:
    """The refusal a wording ``text`` for ``msgid`` earns, as (code, params), or None when it
    may stand. Codes: ``suggestion_characters``, ``suggestion_percent``,
    ``suggestion_placeholders``, ``suggestion_markup``."""
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t" for c in text):
        return "suggestion_characters", {}
    if "%" in PERCENT.findall(text):
        return "suggestion_percent", {}
    if sorted(PERCENT.findall(text)) != sorted(PERCENT.findall(msgid)):
        expected = " ".join(sorted(t for t in PERCENT.findall(msgid) if t != "%%")) or "—"
        return "suggestion_placeholders", {"placeholders": expected}
    if sorted(MARKUP.findall(text)) != sorted(MARKUP.findall(msgid)):
        return "suggestion_markup", {}
    return None


def warnings(text: str) -> list[str]:
    """What a moderator should look at twice in a wording, even one that passes: markup,
    entities and percent signs."""
    signs = {"<": "markup (<)", "&": "an entity (&)", "%": "a percent sign (%)"}
    return [words for sign, words in signs.items() if sign in text]
