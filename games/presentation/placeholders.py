"""A message's placeholders as the translation page explains them to a player who reads the
language (not Python): each as a chip with what it stands for, and the message cut at them so
that the page can mark them where they stand."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

# What each placeholder name stands for, by kind; a name not listed is "a value".
_KINDS = {
    _("a player's name"): "player maker opponent first second username name dealer winner",
    _("a suit"): "suit suits",
    _("a card"): "card",
    _("a card's rank"): "rank ranks",
    _("a number"): (
        "count counter number total minimum most tricks attempts solved won lost steps step "
        "taken left limit_value min_length show_value"
    ),
    _("a number of points"): "points target mine theirs",
    _("a rating"): "rating low high",
    _("a time or a length of time"): "minutes seconds days wait time deadline ends start",
    _("a reason"): "reason why",
    _("a web address"): "url page settings_url origin",
    _("a language"): "language",
}
MEANINGS = {name: words for words, names in _KINDS.items() for name in names.split()}
OTHER = _("a value the site puts in")


def placeholder_chips(text: str) -> list[dict]:
    """Each placeholder of ``text`` once, in order: its code as written and what it stands for."""
    chips, seen = [], set()
    for found in PLACEHOLDER.finditer(text):
        code = found.group(0)
        if code not in seen:
            seen.add(code)
            chips.append({"code": code, "meaning": MEANINGS.get(found.group(1), OTHER)})
    return chips


def placeholder_parts(text: str) -> list[tuple[str, bool]]:
    """``text`` cut at its placeholders: (words, False) and (placeholder, True), in order."""
    parts, at = [], 0
    for found in PLACEHOLDER.finditer(text):
        if found.start() > at:
            parts.append((text[at : found.start()], False))
        parts.append((found.group(0), True))
        at = found.end()
    if at < len(text):
        parts.append((text[at:], False))
    return parts
