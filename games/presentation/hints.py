"""A hint in the player's words: what to do (as its button says it) and one line of why, from
the reason code the hint came with (``services.hints``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..bots.hint import Hint
from .cards import SUIT_NAMES, Card
from .controls import control


def hint_words(found: Hint) -> tuple[str, str]:
    """(what to do, why) in the player's words: ("Order it up", "You hold both bowers...")."""
    p = found.params
    suit = SUIT_NAMES[p["suit"]] if "suit" in p else ""
    card = Card(p["card"]).name if "card" in p else ""
    count = p.get("count", 0)
    reasons = {
        "both_bowers": _("You hold both bowers of %(suit)s: make it trump."),
        "bower_and_trumps": _("A bower and %(count)s trumps in %(suit)s: make it trump."),
        "trumps": _("%(count)s cards of %(suit)s: enough to make it trump."),
        "take_up": _("%(card)s is a trump: take it into your hand."),
        "leave": _("Your hand is better without %(card)s: leave it."),
        "joker": _("%(suit)s is your strongest suit: make the joker that suit."),
        "pass_weak": _("Too little in %(suit)s to make it trump: pass."),
        "pass_round_two": _("No suit is strong enough to name: pass."),
        "discard_void": _("Discard %(card)s: with no %(suit)s left you can trump them."),
        "discard_low": _("Discard %(card)s: your least useful card."),
        "lead_trump": _("As the maker, lead trump: %(card)s draws your opponent's trumps."),
        "lead": _("%(card)s is your best lead here."),
        "win": _("%(card)s wins this trick."),
        "throw_low": _("You cannot win this trick: throw %(card)s."),
    }
    line = reasons[found.reason] % {"suit": suit, "card": card, "count": count}
    return action_words(found.action), line


def action_words(text: str) -> str:
    """An action as its button says it: "Order it up", "Play ten of hearts"."""
    kind, _sep, arg = text.partition(":")
    if kind == "play":
        return _("Play %(card)s") % {"card": Card(arg).name}
    return option_words(text)


def option_words(text: str) -> str:
    """One option as the buttons say it: "Order it up", "Name hearts", "ten of hearts"."""
    kind, _sep, arg = text.partition(":")
    if kind == "play":
        return Card(arg).name
    if kind == "discard":
        return _("Discard %(card)s") % {"card": Card(arg).name}
    return control(text).label
