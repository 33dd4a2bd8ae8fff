"""A suggested wording as a moderator weighs it: the change against today's wording, the
wording as a page would show it, and what to look at twice.

For the admin (moderators read English). Every piece of the suggestion is escaped except in
the preview of a wording that passed the check: its markup is then exactly the message's own,
which the site's developers wrote.
"""

from __future__ import annotations

import difflib
import re

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from ..errors import GameError
from ..i18n import wording
from .refusals import words

# A placeholder in a preview: its name in guillemets, so a moderator sees where a value goes.
_NAMED = re.compile(r"%\((\w+)\)[sd]")


def change_html(current: str, text: str) -> SafeString:
    """Today's wording and the suggestion in one line: what goes struck through, what comes
    underlined (letter by letter: the site's scripts need not put spaces between words)."""
    parts = []
    matcher = difflib.SequenceMatcher(None, current, text, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            parts.append(("span", current[a0:a1]))
            continue
        if a1 > a0:
            parts.append(("del", current[a0:a1]))
        if b1 > b0:
            parts.append(("ins", text[b0:b1]))
    return format_html_join("", "<{0}>{1}</{0}>", ((tag, words) for tag, words in parts))


def preview_html(msgid: str, text: str) -> SafeString:
    """The wording as a page shows it, each placeholder standing as its name; a wording that
    fails the check is shown as plain text beside what is wrong with it."""
    found = wording.problem(msgid, text)
    if found is not None:
        return format_html("<code>{}</code> ({})", text, refused(found))
    filled = _NAMED.sub(lambda m: f"\N{LEFT-POINTING DOUBLE ANGLE QUOTATION MARK}{m[1]}"
                        "\N{RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK}", text)  # fmt: skip
    return mark_safe(filled.replace("%%", "%"))  # noqa: S308  (the message's own markup only)


def warnings_text(msgid: str, text: str) -> str:
    """The check's verdict and the signs to look at twice, for the list of suggestions."""
    found = wording.problem(msgid, text)
    signs = ", ".join(wording.warnings(text))
    verdict = f"Refused: {refused(found)}" if found else "Passes the check"
    return f"{verdict} Look twice: it has {signs}." if signs else verdict


def refused(found: tuple[str, dict]) -> str:
    """The check's refusal (``wording.problem``) in words."""
    code, params = found
    return words(GameError(code, **params))
