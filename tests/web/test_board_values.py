"""A board is a pure function of the match's public face and the viewer's view: built and
rendered with the database out of reach, it shows what the page shows, and the public face
holds no secret while the match is in play."""

from __future__ import annotations

import dataclasses
import gc
import random

import pytest
from django.test import Client

from games import services
from games.engine import legal_actions
from games.engine.cards import CODES
from games.models import Match, MatchStatus
from games.presentation import learn as learn_hand
from games.presentation.board import board_context
from games.presentation.jinja import LEARN_BOARD, render_board
from games.public import PublicMatch, view_of
from tests.support.matches import play_to_the_end, start


def rendered(public, state, user, django_db_blocker) -> str:
    with django_db_blocker.block():  # any query would raise here
        view = view_of(state, public.seat_of(user))
        context = board_context(public, view, user, present=frozenset(), spectators=0)
        return render_board(context)


@pytest.mark.django_db
def test_a_board_renders_without_the_database_and_matches_the_page(alice, bob, django_db_blocker):
    match = start(alice, bob)
    match = Match.objects.select_related("player0", "player1", "winner").get(pk=match.pk)
    board = rendered(PublicMatch.of(match), match.state, alice, django_db_blocker)
    client = Client()
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/board").content.decode()
    hand = {code for code in CODES if f'data-card="{code}"' in page}
    assert hand and {code for code in CODES if f'data-card="{code}"' in board} == hand
    assert f'data-version="{match.version}"' in board


@pytest.mark.django_db
def test_the_public_face_holds_no_seed_or_card_in_play_and_the_seed_once_over(
    alice, bob, django_db_blocker
):
    match = start(alice, bob, target=5)
    public = PublicMatch.of(Match.objects.get(pk=match.pk))
    words = repr(dataclasses.asdict(public))
    assert match.seed not in words and public.revealed_seed == ""
    assert not [code for code in CODES if f"'{code}'" in words]
    over = play_to_the_end(match)
    finished = PublicMatch.of(Match.objects.get(pk=over.pk))
    assert finished.revealed_seed == over.seed and finished.rating_changes
    board = rendered(finished, over.state, bob, django_db_blocker)
    assert over.seed in board and "data-rating-changes" in board


@pytest.mark.django_db
def test_the_board_escapes_what_it_shows_in_every_language(alice, bob, django_db_blocker):
    """The board's engine (Jinja2) escapes every value, as Django's templates do: a name that
    looks like markup is shown as text, in the words around it and in attributes."""
    from django.utils import translation

    match = start(alice, bob)
    public = PublicMatch.of(Match.objects.select_related("player0", "player1").get(pk=match.pk))
    marked = dataclasses.replace(public, names=(public.names[0], '<b id="x">Bo&b\'s</b>'))
    for code in ("en", "am"):
        with translation.override(code):
            board = rendered(marked, match.state, alice, django_db_blocker)
        assert '<b id="x">' not in board and "&lt;b id=" in board
        assert "Bo&amp;b" in board


def test_a_cards_words_are_escaped_once_whichever_engine_gave_them():
    from markupsafe import Markup

    from games.presentation.cards import Card
    from games.templatetags.cards import card

    for label in (Markup("Ace of spades, it&#39;s not playable now"), "Ace of spades, it's"):
        face = card(Card("AS"), label=label)
        assert 'aria-label="Ace of spades, it&#x27;s' in face or "it&#39;s" in face
        assert "&amp;#" not in face


@pytest.mark.django_db
def test_the_board_the_last_move_leaves_shows_the_ratings_the_match_left_at_the_seats(
    alice, bob, django_db_blocker
):
    """Seen: the result said 1500? -> 1520? while the seat plate beside it still said 1500?
    (the match the move left held its players' ratings as read before it)."""
    import re

    from games import services
    from games.engine import legal_actions
    from games.models import MatchStatus
    from games.realtime.tables import Table

    match = start(alice, bob, target=1)
    before = Table.after(services.move_apply(
        user=match.players[match.state.turn], match_id=match.pk,
        action=str(legal_actions(match.state)[0]), version=match.version,
    ), None)  # fmt: skip
    assert before.match.ratings == ("1500?", "1500?")
    moved = None
    while (moved.match if moved else match).status == MatchStatus.ACTIVE:
        current = moved.match if moved else Match.objects.get(pk=match.pk)
        state = current.state
        moved = services.move_apply(
            user=current.players[state.turn], match_id=match.pk,
            action=str(legal_actions(state)[-1]), version=current.version,
        )  # fmt: skip
    table = Table.after(moved, None, ratings=before.match.ratings)
    winner = moved.match.winner_id == bob.pk
    for user in (alice, bob):
        board = rendered(table.match, moved.state, user, django_db_blocker)
        plates = re.findall(r'<span class="rating" title="Rating">([^<]+)</span>', board)
        changes = re.search(r"data-rating-changes>(.*?)</ul>", board).group(1)
        assert ("1480?" in changes) and ("1520?" in changes)
        mine, theirs = ("1520?", "1480?") if (user == bob) == winner else ("1480?", "1520?")
        assert sorted(plates) == sorted([mine, theirs]) and "1500?" not in plates


@pytest.mark.django_db
def test_no_board_leaves_garbage_to_the_cyclic_collector(alice, bob, django_db_blocker):
    """Every board of a match, for both seats and a spectator, and the guided hand's table: all
    they make is freed as soon as it is sent. A collection that has cycles to free stops every
    socket of a serving process while it runs; the felt imported ``with context`` left each
    board's whole context in one (82 objects a board)."""
    rng = random.Random(4)
    match, shown = start(alice, bob, target=3), []
    while match.status == MatchStatus.ACTIVE and len(shown) < 40:
        shown.append((PublicMatch.of(match), match.state))
        state = match.state
        match = services.move_apply(
            user=match.players[state.turn], match_id=match.pk,
            action=str(rng.choice(legal_actions(state))), version=match.version,
        ).match  # fmt: skip
    progress = learn_hand.start()
    gc.collect()
    gc.disable()
    try:
        for public, state in shown:
            for viewer in (alice, bob, None):  # None: a spectator
                assert 'id="board"' in rendered(public, state, viewer, django_db_blocker)
        learn = learn_hand.context(progress, ["You", "Computer"])
        assert "learn-board" in render_board({**learn, "error": ""}, template_name=LEARN_BOARD)
        assert gc.collect() == 0
    finally:
        gc.enable()
