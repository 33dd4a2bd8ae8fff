"""The guided first hand: anyone plays one fixed deal against the computer, each step
explained; a weak but legal move is explained, not refused."""

from __future__ import annotations

import pytest

from games.engine import legal_actions, new_match
from games.engine.cards import CODES, JACK, cards_in, same_colour
from games.presentation import learn
from tests.limits import in_one_window

pytestmark = pytest.mark.django_db


def test_the_fixed_deal_is_the_one_the_guide_is_written_for():
    state = new_match(learn.SEED, learn.RULES)
    assert state.turn == learn.YOU and state.dealer == learn.COMPUTER  # you speak first
    trump = state.upcard_suit
    held = {CODES[c] for c in cards_in(state.hands[learn.YOU])}
    assert {CODES[8 * trump + JACK], CODES[8 * same_colour(trump) + JACK]} <= held


def test_a_newcomer_plays_the_hand_to_the_end_with_every_step_explained(client):
    page = client.get("/learn/").content.decode()
    assert "the upcard" in page and "the right bower" in page and "Order it up" in page
    for _ in range(20):
        state = (
            learn.state_of(client.session[learn.SESSION_KEY])
            if learn.SESSION_KEY in (client.session)
            else new_match(learn.SEED, learn.RULES)
        )
        if state.is_over:
            break
        action = next(a for a in legal_actions(state) if str(a) != "pass")
        response = client.post("/learn/", {"action": str(action)})
        assert response.status_code == 302
        page = client.get("/learn/").content.decode()
        assert "data-guide-line" in page
    assert "data-learn-done" in page
    assert "Play the computer" in page and "Find an opponent" in page
    assert "The points:" in page


def test_a_weak_but_legal_choice_is_explained_and_stands(client):
    client.get("/learn/")
    response = client.post("/learn/", {"action": "pass"})  # with both bowers in hand
    assert response.status_code == 302
    page = client.get("/learn/").content.decode()
    assert "data-note" in page and "You chose: Pass. Order it up was stronger." in page
    assert "both bowers" in page
    progress = client.session[learn.SESSION_KEY]
    assert progress["moves"][0] == [learn.YOU, "pass"]


def test_an_illegal_move_is_refused_in_words_and_changes_nothing(client):
    response = client.post("/learn/", {"action": "play:JH"})
    assert response.status_code == 400
    assert "You cannot play a card now" in response.content.decode()
    response = client.post("/learn/again")
    assert response.status_code == 302


def test_home_and_rules_link_to_the_guided_hand(client):
    for path in ("/", "/rules/"):
        assert 'href="/learn/" data-learn' in client.get(path).content.decode()


def test_moves_in_the_guided_hand_are_limited_per_address(client, settings):
    settings.MOVE_LIMIT_PER_10_SECONDS = 2
    in_one_window(10)
    for _ in range(2):
        client.post("/learn/", {"action": "play:JH"})  # refused by the rules, but counted
    response = client.post("/learn/", {"action": "order_up"})
    assert response.status_code == 429 and "Too many requests" in response.content.decode()
