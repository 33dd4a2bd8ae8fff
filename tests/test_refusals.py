"""A refusal names what the player may do instead, and only that: exactly the kinds of action
``legal_actions`` allows at that moment, in the words of the board's buttons."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import Action, Rules, apply, legal_actions, new_match
from games.engine.cards import CODES, DECKS
from games.engine.errors import IllegalAction
from games.engine.rules import ALLOWED_WORDS
from games.engine.state import Phase
from games.presentation import refusals
from games.presentation.controls import CONTROL_LABELS
from games.presentation.refusals import refusal_words
from tests.support.positions import bidding

OPTION_SETS = [
    Rules(deck=deck, stick_the_dealer=stick, dealer_must_take_up=must)
    for deck, stick, must in itertools.product([24, 25, 32], [False, True], [False, True])
]

# How an English refusal names each kind of action: the button's label (board.CONTROL_LABELS)
# for the buttons, "Name <suit>" and "Joker is <suit>" for the suit buttons, and the cards.
MENTIONS = {
    "pass": r"\bpass\b",
    "order_up": r"\border it up\b",
    "accept": r"\baccept it\b",
    "take_up": r"\btake (it )?up\b",
    "leave": r"\bleave it\b",
    "name": r"\bname a suit\b",
    "joker": r"\bjoker's suit\b|\bname its suit\b",
    "discard": r"\bdiscard\b",
    "play": r"\bplay a card\b|\bfollow\b",
}


def mentioned(text: str) -> set[str]:
    return {kind for kind, pattern in MENTIONS.items() if re.search(pattern, text, re.I)}


def kinds(actions) -> set[str]:
    return {a.kind.value for a in actions}


def every_action(seat: int, deck: int) -> list[Action]:
    words = ["pass", "order_up", "accept", "take_up", "leave"]
    words += [f"{kind}:{suit}" for kind in ("name", "joker") for suit in "CDHS"]
    words += [f"{kind}:{CODES[card]}" for kind in ("discard", "play") for card in DECKS[deck]]
    return [Action.parse(seat, text) for text in words]


def refused(state, wrong: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        apply(state, wrong)
    return caught.value


def check_refusal(state, wrong: Action) -> str:
    """The refusal of ``wrong`` in English, checked against the legal actions."""
    legal = kinds(legal_actions(state))
    error = refused(state, wrong)
    with translation.override("en"):
        words = refusal_words(error)
        verb = str(CONTROL_LABELS.get(wrong.kind.value, "")).lower() or None
    if error.code == "wrong_phase":
        assert words == str(error), "the site's English is the engine's English"
        refused_sentence, instead = words.split(". ", 1)
        assert mentioned(refused_sentence) == {wrong.kind.value}, words
        if verb:
            assert verb in refused_sentence.lower(), (verb, words)
        assert mentioned(instead) == legal, (sorted(legal), words)
        assert tuple(error.params["allowed"]) in ALLOWED_WORDS
    else:
        assert mentioned(words) <= legal, (sorted(legal), words)
    return error.code


def test_a_refusal_over_random_positions_of_every_option_set_names_only_legal_actions():
    rng = random.Random(19)
    seen_allowed, seen_codes = set(), set()
    for rules in OPTION_SETS:
        for _match in range(4):
            state = new_match(rng.randrange(2**64), rules)
            for _step in range(60):
                if state.phase is Phase.MATCH_OVER:
                    break
                legal = legal_actions(state)
                wrong = [a for a in every_action(state.turn, rules.deck) if a not in legal]
                for action in rng.sample(wrong, min(len(wrong), 25)):
                    seen_codes.add(check_refusal(state, action))
                seen_allowed.add(tuple(sorted(kinds(legal))))
                state = apply(state, rng.choice(legal))
    # Every moment of a hand was tried: each set of legal kinds the engine can offer, each
    # with its words in the site's catalogues.
    assert {tuple(sorted(k)) for k in ALLOWED_WORDS} <= seen_allowed
    with translation.override("en"):
        assert refusals._allowed() == ALLOWED_WORDS
    assert {"wrong_phase", "must_follow", "card_not_held", "must_name"} <= seen_codes


HANDS = ("JH JD AH 9C TS", "QS KS 9D TH AC")


def _dealer_after_a_pass(rules=None):
    return apply(bidding(hands=HANDS, upcard="KH", rules=rules), Action.parse(0, "pass"))


def _ordered_up(rules=None):
    return apply(bidding(hands=HANDS, upcard="KH", rules=rules), Action.parse(0, "order_up"))


def _round_two_dealer(rules=None):
    state = _dealer_after_a_pass(rules)
    for seat in (1, 0):
        state = apply(state, Action.parse(seat, "pass"))
    return state


CASES = [
    # (the moment, the action tried, the refusal)
    (_dealer_after_a_pass, "take_up", "You cannot take it up now. You may pass or accept it."),
    (
        _ordered_up,
        "accept",
        "You cannot accept it now. You were ordered up: take it up or leave it.",
    ),
    (
        lambda: _ordered_up(Rules(dealer_must_take_up=True)),
        "pass",
        "You cannot pass now. You were ordered up: take it up.",
    ),
    (
        lambda: _round_two_dealer(Rules(stick_the_dealer=True)),
        "order_up",
        "You cannot order it up now. Name a suit.",
    ),
]


@pytest.mark.parametrize(("moment", "tried", "english"), CASES)
def test_the_four_refusals_that_contradicted_the_rules_now_match_them(moment, tried, english):
    state = moment()
    wrong = Action.parse(state.turn, tried)
    assert check_refusal(state, wrong) == "wrong_phase"
    error = refused(state, wrong)
    assert str(error) == english
    # Every language says the same two sentences: the refused action, then what is allowed.
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            verb = translation.gettext(english.split(". ")[0] + ".")
            allowed = translation.gettext(english.split(". ", 1)[1])
            assert refusal_words(error) == f"{verb} {allowed}"
            assert code == "en" or verb != english.split(". ")[0] + "."
