"""No sentence is assembled in a template: the words, their order and their punctuation live
inside one message, so each language can order and punctuate its own sentence ("…trump." reads
"…ထရမ့် လုပ်သည်။" in Burmese, and Thai ends a sentence with no stop at all).

A template may put a message or a value next to tags, spaces, symbols (arrows, suits, the
presence dot) and the separators below; any other text beside them (a full stop, a colon, a
bracket, a word) is a sentence put together outside the catalogue.
"""

from __future__ import annotations

import html
import re
import unicodedata
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

# Between two independent pieces (a list's items, a name and a badge): no sentence's grammar.
SEPARATORS = set("·|/–—")
# On the replay's First and Last buttons, beside the word: arrows, whatever Unicode files them as.
ARROWS = set("«»")
# A web address put together in the plain-text reset mail: a scheme, not words.
ADDRESS = "://"

COMMENT = re.compile(
    r"\{#.*?#\}|\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}|<!--.*?-->", re.S
)
TOKEN = re.compile(
    r"\{%-?\s*(?:blocktranslate|blocktrans|trans)\b(?:(?!%\}).)*%\}.*?"
    r"\{%-?\s*(?:endblocktranslate|endblocktrans|endtrans)\s*-?%\}"  # a block message
    r"|\{%.*?%\}|\{\{.*?\}\}"  # a tag, a value
    r"|<(script|style|code)\b.*?</\1>"  # not prose: kept whole
    r"|<[^>]*>",  # an element's tag
    re.S,
)
ONE_LINE_MESSAGE = re.compile(r"\{%-?\s*(?:translate|trans)\s+[\"']")
CALLED_MESSAGE = re.compile(r"\{\{-?\s*(?:_|gettext|ngettext|pgettext)\(")
# Tags that stay inside a sentence; any other element ends it.
INLINE = re.compile(r"</?(?:a|abbr|b|bdi|em|i|kbd|label|small|span|strong|time)\b")


def tokens(text: str) -> list[tuple[str, str]]:
    """The template as ("text" | "message" | "value" | "tag" | "inline" | "block", source)."""
    found, at = [], 0
    for m in TOKEN.finditer(text):
        if m.start() > at:
            found.append(("text", text[at : m.start()]))
        source = m.group(0)
        if source.startswith("{%"):
            block = re.match(r"\{%-?\s*(?:blocktranslate|blocktrans|trans)\b", source)
            one = ONE_LINE_MESSAGE.match(source) and " as " not in source
            kind = "message" if (block and "end" in source[-25:]) or one else "tag"
        elif source.startswith("{{"):
            kind = "message" if CALLED_MESSAGE.match(source) else "value"
        else:
            kind = "inline" if INLINE.match(source) else "block"
        found.append((kind, source))
        at = m.end()
    if at < len(text):
        found.append(("text", text[at:]))
    return found


def _is_words(text: str) -> bool:
    text = html.unescape(text).strip().replace(ADDRESS, "")
    return any(
        not (c.isspace() or c in SEPARATORS or c in ARROWS or unicodedata.category(c)[0] == "S")
        for c in text
    )


def assembled(source: str) -> list[str]:
    """Each text that stands beside a message or a value in the same sentence."""
    found = []
    run: list[tuple[str, str]] = []

    def neighbour(i: int, step: int) -> bool:
        j = i + step
        while 0 <= j < len(run):
            kind, piece = run[j]
            if kind in ("message", "value"):
                return True
            if kind == "text" and piece.strip():
                return False
            j += step
        return False

    def check() -> None:
        for i, (kind, piece) in enumerate(run):
            if kind == "text" and _is_words(piece) and (neighbour(i, -1) or neighbour(i, 1)):
                context = "".join(p for _k, p in run[max(0, i - 1) : i + 2])
                found.append(" ".join(context.split())[:160])

    for kind, piece in tokens(COMMENT.sub("", source)):
        if kind == "block":
            check()
            run = []
        else:
            run.append((kind, piece))
    check()
    return found


def _templates() -> list[Path]:
    paths = [*TEMPLATES.rglob("*.html"), *TEMPLATES.rglob("*.jinja"), *TEMPLATES.rglob("*.txt")]
    return sorted(p for p in paths if "admin" not in p.relative_to(TEMPLATES).parts)


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_puts_words_or_punctuation_beside_a_message(path):
    assert assembled(path.read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        "<p>{{ s.made }}.</p>",  # a stop after a sentence made in Python
        '<strong>{{ _("Hint:") }} {{ action }}.</strong>',
        '<td>{% if won %}{% translate "Won" %}{% endif %} ({% translate "on time" %})</td>',
        '{% translate "Sound" %}: {% translate "on" %}',
        '<p>{% translate "Your password is set." %} <a href="/">{% translate "Log in" %}</a>.</p>',
        "<li>{{ c.name }}: {{ c.before }}</li>",
    ],
)
def test_the_check_finds_a_sentence_put_together(source):
    assert assembled(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "<p>{% blocktranslate with a=x %}Hand {{ a }}: {{ a }}.{% endblocktranslate %}</p>",
        "<td>{{ name }}</td><td>{{ score }}</td>",
        '{{ names[0] }} · {% translate "chosen" %}',
        '<a>« {% translate "First" %}</a> <span>● {% translate "at the table" %}</span>',
        "<code>python -m verify --seed {{ seed }}</code>",
        "{{ protocol }}://{{ domain }}{% url 'home' %}",
    ],
)
def test_the_check_lets_tags_symbols_and_separators_be(source):
    assert assembled(source) == []
