"""The players' help (/help/): short sections a player needs, in every language, linked from
every page's footer. Its words' translations are test_languages' to check."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.utils import translation

pytestmark = pytest.mark.django_db
OFFERED = [code for code, _name in settings.LANGUAGES]
SECTION = re.compile(r'<h2 id="([^"]+)" data-section>([^<]*)</h2>')


def help_page(client, code: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    response = client.get("/help/")
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("code", OFFERED)
def test_the_help_answers_in_each_language_section_by_section(client, code):
    page = help_page(client, code)
    assert f'<html lang="{code}"' in page
    sections = SECTION.findall(page)
    assert 8 <= len(sections) <= 15
    assert len({anchor for anchor, _heading in sections}) == len(sections)
    with translation.override(code):
        assert f"<h1>{translation.gettext('How to play on this site')}</h1>" in page
        for heading in ["Finding an opponent", "The match page", "Your account"]:
            assert translation.gettext(heading) in [text for _anchor, text in sections]
    for anchor, heading in sections:  # each reached from the page's contents, by its name
        assert f'<a href="#{anchor}">{heading}</a>' in page


def test_the_help_leads_to_the_rules_and_the_guided_hand(client):
    page = help_page(client, "en")
    assert 'href="/rules/"' in page and 'href="/learn/"' in page
    assert "Play the computer starts a match at once" in page
    assert "order it up" in page  # the glossary's words, as the table says them


@pytest.mark.parametrize("url", ["/", "/rules/", "/accounts/login/"])
def test_every_page_links_the_help_in_its_footer(client, url):
    page = client.get(url).content.decode()
    footer = page.split('<footer class="site-footer">', 1)[1]
    assert 'href="/help/"' in footer


def test_a_player_reads_the_same_help_and_a_post_is_refused_in_words(client, alice):
    client.force_login(alice)
    assert client.get("/help/").status_code == 200
    refused = client.post("/help/")
    assert refused.status_code == 405
    assert "<h1>" in refused.content.decode()  # the site's own page, not an empty answer
