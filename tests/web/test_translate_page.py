"""The translation page as its readers use it: only the messages the page they came from
showed, each placeholder explained, a box ready to type in, and the languages named in their
own words."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games.i18n import catalogues

pytestmark = pytest.mark.django_db


def reviewer(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def listed(page: str) -> list[str]:
    """The English of each message the page lists."""
    found = re.findall(r"<p lang=\"en\" data-msgid>(.*?)</p>", page, re.DOTALL)
    return [html.unescape(re.sub(r"<[^>]+>", "", text)) for text in found]


@pytest.mark.parametrize(
    ("code", "shown", "inside"),
    [
        # Thai writes no space between words: "player" stands inside "leaderboard".
        ("th", ["Leaderboard", "leaderboard"], ["Player", "Rated", "rated", "Rating", "no"]),
        ("so", ["Leaderboard"], ["rated", "Rating"]),
    ],
)
def test_the_page_a_player_came_from_lists_only_what_it_showed(carol, code, shown, inside):
    sentence = "Elo ratings of players with at least %(minimum)s rated matches."
    words = [catalogues.wording(code, "", "Leaderboard"), catalogues.wording(code, "", sentence)]
    text = "\n".join([words[0], words[1] % {"minimum": 20}, "carol 1500"])
    answer = reviewer(carol).post(
        "/translate/", {"language": code, "page": "/leaderboard/", "text": text}
    )
    assert answer.status_code == 200
    found = listed(answer.content.decode())
    assert sorted(found) == sorted([*shown, sentence])
    assert not set(inside) & set(found)


def test_placeholders_are_marked_and_explained(carol):
    page = html.unescape(
        reviewer(carol).get("/translate/", {"language": "th", "q": "%(rank)s of"}).content.decode()
    )
    assert listed(page) == ["%(rank)s of %(suit)s"]
    assert '<code class="placeholder">%(rank)s</code> of <code class="placeholder">' in page
    chips = re.findall(
        r'<li class="placeholder-chip"><code lang="en" class="placeholder">(.*?)</code> '
        r"<span>(.*?)</span></li>",
        page,
    )
    assert chips == [("%(rank)s", "a card's rank"), ("%(suit)s", "a suit")]
    assert "Keep these placeholders exactly as they are" in page


def test_every_message_has_its_box_open_with_todays_wording(carol):
    page = reviewer(carol).get("/translate/", {"language": "th", "q": "Leaderboard"})
    text = page.content.decode()
    assert "<details" not in text.split("data-review-list", 1)[1]
    today = html.escape(catalogues.wording("th", "", "Leaderboard"))
    assert re.search(rf'<textarea id="text-1" name="text"[^>]*>{re.escape(today)}</textarea>', text)


def test_the_languages_are_named_in_their_own_words(carol):
    page = html.unescape(reviewer(carol).get("/translate/", {"language": "th"}).content.decode())
    options = re.findall(
        r'<option value="(\w+)"[^>]*>(.*?)</option>', page.split('id="review-language"')[1]
    )
    named = dict(options[:5])
    assert named == {
        "my": "မြန်မာဘာသာ", "ht": "Kreyòl", "th": "ภาษาไทย", "so": "Soomaali", "am": "አማርኛ",
    }  # fmt: skip
