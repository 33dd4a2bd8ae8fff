"""The table's look: seats, the stock and the trick, the corner scoreboard, card faces from the
sprite, and the player's choices of theme and four-colour deck."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games.engine.cards import CODES
from games.models import PlayerRating, PlayerSettings
from games.presentation.board import board_context
from games.presentation.card_faces import sprite
from games.public import view_of
from games.realtime.tables import read_tables
from tests.support.matches import start, until

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_card_sprite_is_drawn_from_card_faces_and_has_every_card():
    path = settings.BASE_DIR / "static" / "img" / "cards.svg"
    assert path.read_text(encoding="utf-8") == sprite(), "run manage.py draw_cards"
    ids = set(re.findall(r'<symbol id="c([^"]+)"', sprite()))
    assert ids == set(CODES)


def test_the_board_seats_the_opponent_and_names_every_card_it_shows(alice, bob):
    match = until(start(alice, bob), lambda s: s.phase.value == "play" and s.trick)
    viewer = match.players[match.state.turn]
    page = logged_in(viewer).get(f"/matches/{match.pk}/").content.decode()
    seat = match.seat_of(viewer)
    top = page.split('class="seat seat-top', 1)[1].split("</section>", 1)[0]
    assert match.players[seat ^ 1].username in top
    assert top.count('class="card back') == len(match.state.hand_cards(seat ^ 1))
    assert 'data-card="' not in top  # the opponent's cards are backs, never faces
    hand = page.split('class="my-hand', 1)[1].split("</div>", 1)[0]
    for card in match.state.hand_cards(seat):
        assert f'#c{CODES[card]}"' in hand
    led = CODES[match.state.trick[0][1]]
    trick = page.split('class="trick', 1)[1].split("</div>", 1)[0]
    assert 'class="play theirs' in trick and f'data-card="{led}"' in trick
    assert re.search(rf'data-card="{led}" role="img" aria-label="[^"]+ of [^"]+"', trick)
    scorebox = page.split('class="scorebox"', 1)[1].split("</section>", 1)[0]
    assert 'class="trump-sign' in scorebox and "data-score" in scorebox


def test_a_spectator_sees_both_seats_as_backs(alice, bob, carol):
    match = until(start(alice, bob, spectators_allowed=True), lambda s: s.phase.value == "play")
    page = logged_in(carol).get(f"/matches/{match.pk}/").content.decode()
    table = page.split("data-table>", 1)[1].split('class="seat seat-bottom', 1)[0]
    shown = set(re.findall(r'data-card="(\w\w)"', table))
    assert shown <= {CODES[match.state.upcard]} | {CODES[c] for _, c in match.state.trick}
    assert table.count('class="card back') >= 10  # both hands face down, and the stock


def test_the_theme_and_the_four_colour_deck_are_remembered_and_set_on_every_page(alice, bob):
    match = start(alice, bob)
    client = logged_in(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert '<html lang="en">' in page  # the device decides the theme
    assert 'id="look-settings"' in page
    response = client.post("/settings/look", {"theme": "dark"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'data-theme="dark"' in response.content.decode()
    client.post("/settings/look", {"four_colour": "on", "next": "/play/"})
    assert PlayerSettings.objects.filter(user=alice, theme="dark", four_colour=True).exists()
    lobby = client.get("/play/").content.decode()
    assert '<html lang="en" data-theme="dark" data-deck="four">' in lobby
    # Another device (a new session) reads the same choice from the player's settings.
    elsewhere = logged_in(alice).get("/rules/").content.decode()
    assert 'data-theme="dark" data-deck="four"' in elsewhere
    assert client.post("/settings/look", {"theme": "purple"}).status_code == 400
    assert client.post("/settings/look", {}).status_code == 400


def test_the_seats_show_each_players_rating_on_the_page_and_in_pushes(alice, bob):
    PlayerRating.objects.create(user=bob, value=1612, rated_matches=25)
    match = start(alice, bob)
    page = logged_in(alice).get(f"/matches/{match.pk}/").content.decode()
    top = page.split('class="seat seat-top', 1)[1].split("</section>", 1)[0]
    bottom = page.split('class="seat seat-bottom', 1)[1].split("</section>", 1)[0]
    assert ">1612<" in top and ">1500?<" in bottom  # alice has no rated match yet
    table = read_tables([match.pk], [], set())[match.pk].table  # as a room reads it
    view = view_of(table.state, table.match.seat_of(alice))
    context = board_context(table.match, view, alice, present=frozenset(), spectators=0)
    assert (context["my_rating"], context["their_rating"]) == ("1500?", "1612")


def test_a_card_face_is_the_face_macros_markup_in_the_language_of_the_moment():
    # Faces are rendered once per process and kept: the words must still follow the language.
    from django.template import Context, Template
    from django.utils import translation

    from games.presentation.cards import Card
    from games.presentation.jinja import pieces

    tag = Template("{% load cards %}{% card c %}|{% card c decorative=True %}|{% card c label=x %}")
    for language in ("en", "th", "en", "am"):
        with translation.override(language):
            faces = tag.render(Context({"c": Card("JH"), "x": "words"})).split("|")
            name = Card("JH").label
            assert faces[0] == str(pieces().face(Card("JH")))
            assert f'aria-label="{name}"' in faces[0]
            assert 'aria-hidden="true"' in faces[1] and "aria-label" not in faces[1]
            assert 'aria-label="words"' in faces[2]
    names = set()
    for language in ("en", "th", "am"):
        with translation.override(language):
            names.add(Card("JH").label)
    assert len(names) == 3  # so the loop above saw three different words for the card
