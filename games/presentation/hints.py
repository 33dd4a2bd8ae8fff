"""Hints in casual matches against the computer: the hard computer's choice for the player's
turn, and one line of why. Asked over http (the Hint button) or the socket (``{"hint": 1}``);
refused, with a ``GameError`` the edges word, anywhere else: rated matches and matches
between people never get one.

A hint is one decision of the hard bot from the player's own view (``view_for``: it sees no
more than the player does), a few milliseconds of search (at most about 60 ms), counted
against the player's move limit. It is the one search a web process runs: the answer is
wanted at once, and nothing is written.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext as _

from ..bots.hint import Hint, hint
from ..engine import view_for
from ..models import Match, MatchStatus
from ..services import Conflict, NotAllowed, NotFound, throttle
from .cards import SUIT_NAMES, Card
from .review import option_words


def hint_for(*, user, match_id: int) -> tuple[Match, Hint]:
    """The hint for ``user``'s turn in ``match_id``. Raises throttle.Throttled or a GameError
    (no such match, not playing, no hints in this match, not in play, not your turn)."""
    match = Match.objects.select_related("player0", "player1").filter(pk=match_id).first()
    if match is None:
        raise NotFound("no_such_match")
    seat = match.seat_of(user)
    if seat is None:
        raise NotAllowed("not_playing")
    if not match.computer or match.rated:
        raise NotAllowed("no_hints")
    if match.status != MatchStatus.ACTIVE:
        raise Conflict("not_in_play")
    if match.state.turn != seat:
        raise Conflict("hint_not_your_turn")
    throttle.move(user)
    return match, hint(view_for(match.state, seat), random.Random())


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
