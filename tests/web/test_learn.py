"""The guided first hand: anyone plays one fixed deal against the computer, each step
explained; a weak but legal move is explained, not refused."""

from __future__ import annotations

import pytest

from games.engine import legal_actions, new_match
from games.engine.cards import CODES, JACK, cards_in, same_colour
from games.presentation import learn

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
    for _ in range(2):
        client.post("/learn/", {"action": "play:JH"})  # refused by the rules, but counted
    response = client.post("/learn/", {"action": "order_up"})
    assert response.status_code == 429 and "Too many requests" in response.content.decode()


def test_the_guided_hand_is_played_on_the_match_table(client):
    page = client.get("/learn/").content.decode()
    # The felt of a match, its calls posting to /learn/ with the moves made so far.
    assert 'class="felt' in page and "data-move" in page and 'id="move-log"' in page
    assert 'action="/learn/"' in page and 'name="version" value="0"' in page
    assert 'data-version="0"' in page and "data-your-turn" in page


def test_a_second_click_on_a_table_already_answered_is_refused_and_changes_nothing(client):
    client.get("/learn/")
    assert client.post("/learn/", {"action": "pass", "version": "0"}).status_code == 302
    moves = client.session[learn.SESSION_KEY]["moves"]
    response = client.post("/learn/", {"action": "pass", "version": "0"})
    assert response.status_code == 409
    assert "The table has changed since you saw it" in response.content.decode()
    assert client.session[learn.SESSION_KEY]["moves"] == moves


def test_the_upcard_once_taken_up_is_not_on_the_stock(client):
    client.get("/learn/")
    upcard = CODES[new_match(learn.SEED, learn.RULES).upcard]
    assert f'on-pile" data-card="{upcard}"' in client.get("/learn/").content.decode()
    client.post("/learn/", {"action": "pass", "version": "0"})  # the computer takes it up
    state = learn.state_of(client.session[learn.SESSION_KEY])
    assert state.upcard_fate.value == "taken_up"
    page = client.get("/learn/").content.decode()
    assert "on-pile" not in page and "taken up by Computer" in page


def test_the_guide_marks_what_is_new_at_each_step(client):
    first = client.get("/learn/").content.decode()
    assert first.count("data-guide-line data-new") == first.count("data-guide-line")
    client.post("/learn/", {"action": "pass", "version": "0"})
    page = client.get("/learn/").content.decode()
    # The bowers were explained before the pass: still there, no longer new.
    bowers = next(line for line in page.split("<p ") if "the right bower" in line)
    assert bowers.startswith("data-guide-line>")
    assert "data-guide-line data-new>You lead" in page
