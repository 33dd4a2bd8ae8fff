"""The table's sentences: a move, a line of the move log, how a hand ended and the summary of a
finished hand, each in the viewer's language and never naming a card the viewer did not see.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from .. import caches
from ..models import COMPUTER_USERNAME, is_deleted
from .cards import SUIT_NAMES, Card

# The computer's accounts ("computer-easy") as the table names them, in the viewer's words.
COMPUTER_NAMES = {
    COMPUTER_USERNAME.format("easy"): gettext_lazy("Computer (easy)"),
    COMPUTER_USERNAME.format("medium"): gettext_lazy("Computer (medium)"),
    COMPUTER_USERNAME.format("hard"): gettext_lazy("Computer (hard)"),
}


def player_name(username: str) -> str:
    """A player as the table names them: a person by their name, the computer in the viewer's
    words ("Computer (easy)"), never by its account's name (which sign-up keeps for it); a
    deleted account as "deleted player"."""
    if is_deleted(username):
        return _("deleted player")
    return str(COMPUTER_NAMES.get(username, username))


def outcome_line(result, seat, names) -> str:
    """How a hand ended, for this viewer: ``result`` is a hand's result or its log entry."""
    maker = result.seat if hasattr(result, "seat") else result.maker
    if result.outcome == "passed_out":
        return _("Both passed twice: no trump, the cards are dealt again.")
    who = {"maker": names[maker]}
    if seat is not None:
        mine = maker == seat
        if result.outcome == "euchred":
            if mine:
                return _("You were euchred: 2 points to your opponent.")
            return _("You euchred %(maker)s: 2 points to you.") % who
        if result.outcome == "march":
            if mine:
                return _("A march! You took all five tricks: 2 points.")
            return _("%(maker)s marched: all five tricks, 2 points.") % who
        if mine:
            return _("You made it with %(tricks)s tricks: 1 point.") % {
                "tricks": result.tricks_won[seat]
            }
        return _("%(maker)s made it: 1 point.") % who
    if result.outcome == "euchred":
        return _("%(maker)s was euchred: 2 points to the defender.") % who
    if result.outcome == "march":
        return _("%(maker)s marched: 2 points.") % who
    return _("%(maker)s made it: 1 point.") % who


def move_words(player: str, text: str) -> str:
    """One move as a sentence: "alice plays the ten of hearts"."""
    kind, _sep, arg = text.partition(":")
    who = {"player": player}
    if kind == "name":
        return _("%(player)s names %(suit)s") % {**who, "suit": SUIT_NAMES[arg]}
    if kind == "joker":
        return _("%(player)s makes the joker %(suit)s") % {**who, "suit": SUIT_NAMES[arg]}
    if kind == "discard":
        return _("%(player)s discards %(card)s") % {**who, "card": Card(arg).name}
    if kind == "play":
        return _("%(player)s plays %(card)s") % {**who, "card": Card(arg).name}
    return {
        "pass": _("%(player)s passes"),
        "order_up": _("%(player)s orders it up"),
        "accept": _("%(player)s accepts it"),
        "take_up": _("%(player)s takes it up"),
        "leave": _("%(player)s leaves it"),
    }[kind] % who


def log_words(entry, names, seat) -> str:
    """One line of the move log, in the viewer's language: never a card the viewer did not
    see (the view gives the discard's card to the dealer only)."""
    who = names[entry.seat] if entry.seat is not None else ""
    if entry.kind == "deal":
        return _("Hand %(number)s: %(player)s deals; the upcard is %(card)s.") % {
            "number": entry.hand + 1,
            "player": who,
            "card": Card(entry.card).name,
        }
    if entry.kind == "bid" and entry.suit:
        line = {
            "order_up": _("%(player)s orders up %(suit)s"),
            "accept": _("%(player)s takes up the upcard: %(suit)s are trump"),
        }[entry.action]
        return line % {"player": who, "suit": SUIT_NAMES[entry.suit]}
    if entry.kind == "bid":
        return move_words(who, entry.action)
    if entry.kind == "discard":
        if entry.card:
            return move_words(who, f"discard:{entry.card}")
        return _("%(player)s discards a card face down") % {"player": who}
    if entry.kind == "play":
        return move_words(who, f"play:{entry.card}")
    if entry.kind == "trick":
        return _("%(player)s wins the trick") % {"player": who}
    return outcome_line(entry, seat, names)


def hand_log(view, names) -> list[dict]:
    """The log's lines, each with a key that stays the same from push to push (the page
    appends only the lines it has not shown, so a screen reader hears each once)."""
    counts: dict[int, int] = {}
    lines = []
    names, language = tuple(names), get_language()
    for entry in view.log:
        counts[entry.hand] = counts.get(entry.hand, 0) + 1
        lines.append(
            {
                "key": f"{entry.hand}-{counts[entry.hand]}",
                "kind": entry.kind,
                "mine": entry.seat == view.seat and entry.kind in ("bid", "discard", "play"),
                "text": _log_line(entry, names, view.seat, language),
            }
        )
    return lines


@lru_cache(maxsize=32_768)  # a hand's lines for every match a busy process serves, both seats
def _log_line(entry, names: tuple[str, str], seat, language: str) -> str:
    """``log_words``, remembered: a line is worded once per viewer and language, not again at
    every later move of its hand (``language``: the one active, part of the cache's key)."""
    return log_words(entry, names, seat)


POINTS_WHY = {
    "made": gettext_lazy("made: 1 point to %(player)s"),
    "march": gettext_lazy("march: 2 points to %(player)s"),
    "euchred": gettext_lazy("euchred: 2 points to the defender, %(player)s"),
}


def hand_summary(result, names, seat) -> dict:
    """A finished hand, as the table tells it: who made what trump, the tricks of each side,
    the points and why, and (for that hand's dealer only) the discard."""
    summary = {
        "number": result.number + 1,
        "outcome": result.outcome,
        "points": result.points,
        "discard": Card(result.discard) if result.discard else None,
        "dealer": names[result.dealer],
    }
    if result.outcome == "passed_out":
        summary["line"] = outcome_line(result, seat, names)
        return summary
    scorer = result.maker if result.outcome != "euchred" else result.maker ^ 1
    summary.update(
        {
            "made": _("%(player)s made %(suit)s trump.")
            % {
                "player": names[result.maker],
                "suit": SUIT_NAMES[result.trump],
            },
            "tricks": [{"name": names[s], "count": result.tricks_won[s]} for s in (0, 1)],
            "why": POINTS_WHY[result.outcome] % {"player": names[scorer]},
            "line": outcome_line(result, seat, names),
        }
    )
    return summary


caches.register("move log lines", _log_line.cache_clear)
