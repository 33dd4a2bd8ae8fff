"""A hint in the player's words: what to do and one line of why, from the reason code the hint
came with (``services.hints``); and an action or an option named inside a sentence."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from ..bots.hint import Hint
from .cards import SUIT_NAMES, Card

# An action named inside a sentence ("Hint: %(action)s.", "Better: %(option)s.", "After
# %(option)s: ..."), apart from its button: where a button's words end as a verb does (Burmese
# ‑မည်, "will"; Amharic's polite imperative), a sentence needs the noun ("passing"). English
# says both alike. (xgettext reads a context only as a literal: hence the repeated words.)
NAMED = {
    "pass": pgettext_lazy("an action, named in a sentence", "Pass"),
    "order_up": pgettext_lazy("an action, named in a sentence", "Order it up"),
    "accept": pgettext_lazy("an action, named in a sentence", "Accept it"),
    "take_up": pgettext_lazy("an action, named in a sentence", "Take it up"),
    "leave": pgettext_lazy("an action, named in a sentence", "Leave it"),
    "name": pgettext_lazy("an action, named in a sentence", "Name %(suit)s"),
    "joker": pgettext_lazy("an action, named in a sentence", "Joker is %(suit)s"),
    "discard": pgettext_lazy("an action, named in a sentence", "Discard %(card)s"),
    "play": pgettext_lazy("an action, named in a sentence", "Play %(card)s"),
}


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
    """An action named in a sentence, as a hint gives it: "Order it up", "Play ten of hearts"."""
    kind, _sep, arg = text.partition(":")
    if kind in ("name", "joker"):
        return NAMED[kind] % {"suit": SUIT_NAMES[arg]}
    if kind in ("discard", "play"):
        return NAMED[kind] % {"card": Card(arg).name}
    return str(NAMED[kind])


def option_words(text: str) -> str:
    """One option named in a sentence or a list of options: "Order it up", "Name hearts",
    "ten of hearts" (a card played is named by the card alone)."""
    kind, _sep, arg = text.partition(":")
    if kind == "play":
        return Card(arg).name
    return action_words(text)
