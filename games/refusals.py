"""The engine's refusals in the player's language.

The engine (standard library only) raises ``IllegalAction`` with an English message and the
same facts as data (``code``, ``params``); this turns them into whole translated sentences.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .board import SUIT_NAMES, Card
from .engine import IllegalAction
from .engine.cards import CODES, SUIT_CODES


def _verbs() -> dict[str, str]:
    """The refused action, in the words of its button (board.CONTROL_LABELS)."""
    return {
        "pass": _("You cannot pass now."),
        "order_up": _("You cannot order it up now."),
        "accept": _("You cannot accept it now."),
        "take_up": _("You cannot take it up now."),
        "leave": _("You cannot leave it now."),
        "name": _("You cannot name a suit now."),
        "joker": _("You cannot name the joker's suit now."),
        "discard": _("You cannot discard now."),
        "play": _("You cannot play a card now."),
    }


def _allowed() -> dict[tuple[str, ...], str]:
    """What may be done instead, by the kinds of action legal now (engine.rules.ALLOWED_WORDS)."""
    return {
        ("joker",): _("The joker was turned up: name its suit first."),
        ("pass", "order_up"): _("You may pass or order it up."),
        ("pass", "accept"): _("You may pass or accept it."),
        ("take_up", "leave"): _("You were ordered up: take it up or leave it."),
        ("take_up",): _("You were ordered up: take it up."),
        ("discard",): _("Discard a card first."),
        ("pass", "name"): _("You may pass or name a suit."),
        ("name",): _("Name a suit."),
        ("play",): _("Play a card."),
    }


def refusal_words(error: IllegalAction) -> str:
    """What to tell the player, in the active language."""
    code, params = error.code, error.params
    if code == "wrong_phase":
        # Two whole sentences: what was refused, and what may be done instead.
        return f"{_verbs()[params['verb']]} {_allowed()[tuple(params['allowed'])]}"
    if code == "must_follow":
        return _("You must follow %(suit)s") % {"suit": SUIT_NAMES[SUIT_CODES[params["suit"]]]}
    if code == "card_not_held":
        return _("You do not have %(card)s") % {"card": Card(CODES[params["card"]]).name}
    if code == "unknown":
        return _("“%(text)s” is not an action in this game") % {"text": params["text"]}
    simple = {
        "match_over": _("The match is over"),
        "not_an_action": _("That is not an action in this game"),
        "not_your_turn": _("It is not your turn"),
        "dealer_must_take_up": _("In this match the dealer must take up the upcard"),
        "turned_down": _("You cannot name the suit that was turned down"),
        "must_name": _("Stick the dealer: the dealer must name a suit"),
        "no_such_seat": _("There is no such seat: seats are 0 and 1"),
    }
    return simple.get(code) or str(error)
