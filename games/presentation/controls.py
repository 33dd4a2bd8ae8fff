"""The board's controls: each legal action as a button, its label and access key, and the
prompt that tells the player what the table waits for.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .cards import SUIT_NAMES


@dataclass(frozen=True)
class Control:
    action: str  # as the engine writes it: "order_up", "name:H"
    kind: str  # the data-action hook: "order_up", "name"...
    label: str
    suit: str = ""

    @property
    def key(self) -> str:
        """The access key shown on the button: the suit's letter, or the action's."""
        return self.suit or ACCESS_KEYS[self.kind]


# Each is the same in every language, like the suits' letters: "7" is "7" everywhere.
ACCESS_KEYS = {"pass": "P", "order_up": "O", "accept": "A", "take_up": "T", "leave": "L"}


CONTROL_LABELS = {
    "pass": gettext_lazy("Pass"),
    "order_up": gettext_lazy("Order it up"),
    "accept": gettext_lazy("Accept it"),
    "take_up": gettext_lazy("Take it up"),
    "leave": gettext_lazy("Leave it"),
}


def control(text: str) -> Control:
    kind, _sep, arg = text.partition(":")
    if kind == "name":
        return Control(text, kind, _("Name %(suit)s") % {"suit": SUIT_NAMES[arg]}, arg)
    if kind == "joker":
        return Control(text, kind, _("Joker is %(suit)s") % {"suit": SUIT_NAMES[arg]}, arg)
    return Control(text, kind, str(CONTROL_LABELS[kind]))


def prompt(view, seat, names) -> str:
    if view.phase == "match_over":
        return ""
    if seat is None or view.turn != seat:
        return _("Waiting for %(player)s.") % {"player": names[view.turn]}
    suit = {"suit": SUIT_NAMES.get(view.upcard_suit or "", "")}
    phase = view.phase
    if phase == "name_joker":
        return _("The joker was turned up: name its suit.")
    if phase == "round_one":
        if view.dealer == seat:
            return _("Accept it to take the upcard up and make %(suit)s trump, or pass.") % suit
        return _("Order it up to make %(suit)s trump, or pass.") % suit
    if phase == "dealer_decides":
        return _("You were ordered up: take the upcard into your hand, or leave it.")
    if phase == "discard":
        return _("Discard one card face down.")
    if phase == "round_two":
        if "pass" in view.legal_actions:
            return _("Name any suit but %(suit)s as trump, or pass.") % suit
        return _("Name any suit but %(suit)s as trump: the dealer must name one.") % suit
    if not view.trick:
        return _("Your lead: play any card.")
    return _("Your turn: follow suit if you can.")
