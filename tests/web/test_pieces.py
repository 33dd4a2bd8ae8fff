"""The board's pieces (templates/jinja2/pieces.jinja): the board is one engine's work, Jinja2's,
from its frame to its card faces, and a Django page that shows a piece shows the same macro's
markup, escaped once."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.backends.django import DjangoTemplates
from django.utils import translation
from django.utils.safestring import mark_safe

from games import services
from games.models import Match
from games.presentation.board import board_context
from games.presentation.jinja import hand_log_lines, pieces, render_board
from games.public import PublicMatch, view_of
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db

# Every piece the board may show, each in the markup that says it is there.
SHOWN = {
    "badge": "data-bot",
    "clock": "data-clock",
    "hint": 'id="hint"',
    "summary": "data-hand-summary",
    "options": "data-options",
    "invite": "data-invite",
    "analysis": "data-analysis-pending",
    "card": 'class="card s-',
}


def boards(alice, bob) -> list[str]:
    """An open match (its options and invite), one at play with a badge, a clock and a hint,
    and a finished one (its last hand's summary and the analysis to come), as alice sees
    them."""
    shown = []
    shown.append(context(services.match_create(user=alice), alice))
    match = start(alice, bob, target=5)
    playing = context(match, alice)
    playing.update(their_bot=True, clock_text="0:30", clock_seconds=30, clock_seat=1)
    playing.update(hint_offered=True, hint_action="", hint_error="")
    shown.append(playing)
    shown.append(context(play_to_the_end(match), alice))
    return [render_board(c) for c in shown]


def context(match: Match, user) -> dict:
    match = Match.objects.select_related("player0", "player1", "winner").get(pk=match.pk)
    public = PublicMatch.of(match)
    view = view_of(match.state, public.seat_of(user)) if match.snapshot else None
    return board_context(public, view, user, present=frozenset(), spectators=0)


def test_the_board_and_every_piece_it_shows_are_rendered_without_a_django_template(
    alice, bob, monkeypatch
):
    def refused(*args, **kwargs):
        raise AssertionError("a Django template under the board")

    monkeypatch.setattr(DjangoTemplates, "get_template", refused)
    for language in ("en", "my"):
        with translation.override(language):
            html = "".join(boards(alice, bob))
        missing = [piece for piece, markup in SHOWN.items() if markup not in html]
        assert missing == [], language


def test_a_django_page_shows_the_macros_markup_in_its_language():
    tag = Template(
        '{% load pieces %}{% piece "bot_badge" True %}|{% piece "match_options" m %}'
        '|{% piece "invite" url "/matches/3/" %}'
    )
    options = {"deck": 24, "target": 10, "stick_the_dealer": True, "computer": "", "rated": False}
    for language in ("en", "my", "en"):
        with translation.override(language):
            page = tag.render(Context({"m": options, "url": "http://x/matches/3/"}))
            macros = pieces()
            assert page.split("|") == [
                str(macros.bot_badge(True)),
                str(macros.match_options(options)),
                str(macros.invite("http://x/matches/3/", "/matches/3/")),
            ]
    with translation.override("my"):
        assert pieces().bot_badge(True) != pieces("en").bot_badge(True)  # the words followed


def test_a_piece_escapes_what_a_django_page_gives_it_once():
    tag = Template('{% load pieces %}{% piece "invite" url path %}')
    page = tag.render(Context({"url": '<b id="x">Bo&b</b>', "path": mark_safe("/a&amp;b/")}))
    assert '<b id="x">' not in page and "&lt;b id=&#34;x&#34;&gt;Bo&amp;b&lt;/b&gt;" in page
    assert 'href="/a&amp;b/"' in page  # Django's safe string is left as it is


def test_the_hands_log_is_kept_for_the_page_line_by_line_escaped_and_marked_as_before():
    """The board's hidden log (``hand_log_lines``, each line rendered once per process): the
    page reads its lines by key and kind, a player's own marked, the words escaped even when a
    line comes again from the cache."""
    log = [
        {"key": "1-1", "kind": "deal", "mine": False, "text": "Hand 1: <b>al</b> deals"},
        {"key": "1-2", "kind": "play", "mine": True, "text": "al plays the jack & ten"},
    ]
    expected = (
        '<li data-key="1-1" class="log-deal">Hand 1: &lt;b&gt;al&lt;/b&gt; deals</li>'
        '<li data-key="1-2" class="log-play mine">al plays the jack &amp; ten</li>'
    )
    assert hand_log_lines(log) == expected
    assert hand_log_lines(log) == expected  # the second time from the process's memory
    assert hand_log_lines([]) == ""
