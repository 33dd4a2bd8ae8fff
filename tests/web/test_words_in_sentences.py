"""Words put inside sentences read as part of them in every language: an action named in a
sentence is a noun where a button's words are a verb (Burmese "ကျော်မည်", "will pass"), the
computer is named in words ("Computer (hard)"), never by its account ("computer-hard"), and a
form's label ends in no Latin colon."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games import services
from games.db import selectors
from games.engine import legal_actions
from games.presentation import hints, learn, review
from games.presentation.replay import replay_context
from tests.support.analyses import a_pass_at_nine_all

OTHERS = [code for code, _name in settings.LANGUAGES if code != "en"]
ACTIONS = ["pass", "order_up", "accept", "take_up", "leave", "name:H", "joker:S", "discard:9C",
           "play:TH"]  # fmt: skip


def in_language(code: str, user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


def test_an_action_named_in_a_burmese_sentence_is_a_noun_not_a_buttons_will():
    with translation.override("my"):
        named = [hints.action_words(a) for a in ACTIONS] + [hints.option_words(a) for a in ACTIONS]
        note = learn.note_words({"chosen": "pass", "better": "order_up", "reason": "both_bowers",
                                 "params": {"suit": "H"}})  # fmt: skip
    assert [words for words in named if words.endswith("မည်")] == []
    assert "ကျော်ခြင်း" in named and "ဟတ် ရွေးခြင်း" in named
    assert note.startswith("သင်ရွေးခဲ့သည်- ကျော်ခြင်း။ တင်ခိုင်းခြင်း က ပိုကောင်းခဲ့သည်။")
    with translation.override("en"):  # English names an action as its button says it
        assert hints.action_words("order_up") == "Order it up"
        assert hints.action_words("play:TH") == "Play ten of hearts"
        assert hints.option_words("play:TH") == "ten of hearts"


def test_the_analysis_names_the_better_option_as_a_noun_in_burmese_and_amharic():
    stored = a_pass_at_nine_all()
    shown = {}
    for code in ("my", "am"):
        with translation.override(code):
            a = review.analysis_context(stored, 0, ["alice", "bob"], 10, 0)
            shown[code] = render_to_string("partials/analysis.html", {"a": a})
    assert "<strong>ပိုကောင်းသည်- တင်ခိုင်းခြင်း။</strong>" in shown["my"]
    assert "ကျော်ခြင်း ပြီးနောက်-" in shown["my"]  # "after passing", not "after will-pass"
    assert "<strong>የተሻለ፦ ማዘዝ።</strong>" in shown["am"]
    assert "ከማለፍ በኋላ፦" in shown["am"]  # "after passing", not "after please-pass"


def computer_match_on_my_turn(user):
    match = services.match_create_computer(user=user, strength="hard")
    while match.state.turn != match.seat_of(user):  # the computer's task, played here
        actions = [str(a) for a in legal_actions(match.state)]
        match = services.move_apply(
            user=match.players[match.state.turn], match_id=match.pk, version=match.version,
            action="pass" if "pass" in actions else actions[0],
        ).match  # fmt: skip
    return match


@pytest.mark.django_db
def test_a_burmese_hint_names_its_action_as_a_noun(alice):
    match = computer_match_on_my_turn(alice)
    html = in_language("my", alice).post(f"/matches/{match.pk}/hint").content.decode()
    said = re.search(r"<strong data-hint-action>(.*?)</strong>", html).group(1)
    assert said.startswith("အကြံပြုချက်- ") and said.endswith("ခြင်း။"), said


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["en", *OTHERS])
def test_the_computer_is_named_in_words_at_the_table_never_by_its_account(alice, code):
    match = computer_match_on_my_turn(alice)
    page = in_language(code, alice).get(f"/matches/{match.pk}/").content.decode()
    with translation.override(code):
        words = translation.gettext("Computer (hard)")
    assert "computer-hard" not in page
    assert page.count(words) >= 3  # its seat, the scores, the log's deal or a bid
    lobby = in_language(code, alice).get("/play/").content.decode()
    assert "computer-hard" not in lobby and words in lobby  # "Match 1: alice v ..."
    with translation.override(code):
        replay = replay_context(match, selectors.match_moves(match=match), 1)
    assert replay["names"] == ["alice", words]


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["my", "am"])
def test_form_labels_end_in_no_latin_colon(alice, code):
    pages = {
        "log-in": in_language(code).get("/accounts/login/"),
        "sign-up": in_language(code).get("/accounts/signup/"),
        "password reset": in_language(code).get("/accounts/password_reset/"),
        "password change": in_language(code, alice).get("/accounts/password_change/"),
        "settings": in_language(code, alice).get("/settings/"),
    }
    labels = {}
    for name, response in pages.items():
        assert response.status_code == 200, name
        labels[name] = re.findall(r"<label[^>]*>(.*?)</label>", response.content.decode(), re.S)
        assert labels[name], name
    assert {name: [t for t in texts if t.strip().endswith(":")] for name, texts in
            labels.items()} == {name: [] for name in pages}  # fmt: skip


@pytest.mark.parametrize("code", OTHERS)
def test_the_rules_name_both_bowers_as_trump_not_the_jacks(code):
    """A beginner reading "the jacks are trump" takes all four for trumps."""
    rule = (
        "The non-dealer leads the first trick; the winner of each trick leads the next. Follow "
        "the suit led if you can (the bowers and the joker are trump). The highest trump wins "
        "the trick; with no trump, the highest card of the suit led."
    )
    with translation.override(code):
        said = translation.gettext(rule).casefold()
        bowers = [translation.gettext(b).casefold() for b in ("right bower", "left bower")]
    assert said != rule.casefold() and all(b in said for b in bowers), said
