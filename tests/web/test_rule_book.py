"""The rule book is docs/RULES.md: the /rules/ page follows it section by section in every
language, and the book names every match option the lobby offers, with its default."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import Rules
from games.engine.rules import STUCK_FROM_DEAL
from games.web.forms import MatchCreateForm
from tests.support.links import ROOT, slug

RULE_BOOK = ROOT / "docs" / "RULES.md"
PAGE_SECTION = re.compile(r'<h2 id="([^"]+)" data-section>([^<]*)</h2>')
OFFERED = [code for code, _name in settings.LANGUAGES]


def book_sections() -> list[tuple[str, str]]:
    """(anchor, heading) of each ``##`` section of the rule book, in order."""
    headings = re.findall(r"^## (.+)$", RULE_BOOK.read_text(), re.M)
    return [(slug(heading), heading.strip()) for heading in headings]


def page_sections(page: str) -> list[tuple[str, str]]:
    return [(anchor, html.unescape(text)) for anchor, text in PAGE_SECTION.findall(page)]


def option_rows() -> dict[str, tuple[str, ...]]:
    """The rule book's options table: option name -> the other cells of its row."""
    text = RULE_BOOK.read_text().split("## Match options", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)`[^|]*\|(.+)\|$", text, re.M)
    return {name: tuple(cell.strip() for cell in cells.split("|")) for name, cells in rows}


def test_the_rule_book_states_the_rules_the_engine_adds():
    book = RULE_BOOK.read_text()
    assert [heading for _anchor, heading in book_sections()][-2:] == ["Match options", "Card codes"]
    assert "the highest card of the game" in book  # the joker's rank
    assert "A joker upcard" in book and "it is the suit turned down" in book
    assert "except the one turned down" in book
    assert "`JK`" in book and "`play:JH`" in book
    assert f"From the {STUCK_FROM_DEAL}th deal of a match on" in book  # a marathon ends


@pytest.mark.django_db
@pytest.mark.parametrize("code", OFFERED)
def test_the_rules_page_says_from_which_deal_the_dealer_is_stuck(client, code):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    page = html.unescape(client.get("/rules/").content.decode())
    words = "From deal %(deal)s of a match on, the dealer may not pass in round two"
    with translation.override(code):
        sentence = translation.gettext(
            words + " and must name a suit: every hand then scores, so a match always comes"
            " to an end."
        )
    assert sentence % {"deal": STUCK_FROM_DEAL} in page
    assert code == "en" or not sentence.startswith("From deal")  # translated


@pytest.mark.django_db
def test_the_rules_page_has_the_rule_books_sections_in_order(client):
    page = client.get("/rules/").content.decode()
    assert page_sections(page) == book_sections()
    assert len(book_sections()) >= 9


# Headings whose word is not the same word elsewhere on the site (Burmese "Play" the rules'
# heading is how the game is played, the menu's is "play now"): translated in this context.
HEADING_CONTEXT = {"Play": "rules heading"}


def heading_words(heading: str) -> str:
    if heading in HEADING_CONTEXT:
        return translation.pgettext(HEADING_CONTEXT[heading], heading)
    return translation.gettext(heading)


@pytest.mark.django_db
@pytest.mark.parametrize("code", OFFERED)
def test_each_language_shows_every_section_of_the_rule_book_in_its_words(client, code):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    page = client.get("/rules/").content.decode()
    with translation.override(code):
        expected = [(anchor, heading_words(heading)) for anchor, heading in book_sections()]
    assert page_sections(page) == expected
    if code != "en":  # every heading has its translation (none left in English)
        assert not {heading for _anchor, heading in expected} & set(dict(book_sections()).values())


def test_the_rule_book_names_every_option_of_the_lobby_with_its_default():
    rows = option_rows()
    assert list(rows) == list(MatchCreateForm.base_fields)
    for name, value in Rules().as_dict().items():
        shown = ("on" if value else "off") if isinstance(value, bool) else f"`{value}`"
        assert rows[name][1] == shown, f"{name}: the book says {rows[name][1]}, the engine {shown}"
    form = MatchCreateForm()
    assert rows["move_seconds"][1] == "2 minutes" and form.fields["move_seconds"].initial == 120
    assert rows["rated"][1] == "on" and form.fields["rated"].initial is True
    assert rows["spectators_allowed"][1] == "on" and form.fields["spectators_allowed"].initial


@pytest.mark.django_db
def test_the_rules_page_lists_every_option_the_lobby_offers(client):
    page = html.unescape(client.get("/rules/").content.decode())
    options = page.split('id="match-options"', 1)[1].split("</dl>", 1)[0]
    for field in MatchCreateForm().fields.values():
        assert f"<dt>{field.label}</dt>" in options
        for _value, label in getattr(field, "choices", ()):
            assert str(label) in options
