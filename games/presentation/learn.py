"""The guided first hand ("Learn in one hand"): a fixed deal against the computer, each step
explained by what the table shows now.

Nothing is stored but the newcomer's own moves, in their session (no account needed): the
state is the fixed seed replayed with them. The computer answers at once with the medium
bot's rules of thumb (no search). Before each of the newcomer's moves, the hard bot's values
of the options say whether another one was clearly better (0.3 points or more, the analysis's
inaccuracy): then the guide says which and why, and lets the move stand.
"""

from __future__ import annotations

import random

from django.urls import reverse
from django.utils.translation import gettext as _

from ..bots import choose, hard
from ..bots.analysis import FLAGS
from ..bots.hint import Hint, why
from ..engine import Action, IllegalAction, Rules, State, apply, replay, view_for
from ..engine.cards import CODES, JACK, SUIT_CODES, same_colour
from .board import seat_context
from .cards import SUIT_NAMES, Card
from .hints import action_words, hint_words

# Seat 0 speaks first and holds both bowers of the upcard's suit (the ten of spades: JS, JC,
# KS) and two hearts; the computer deals and holds the ace and nine of spades and a king of
# hearts: it takes a trick back, and then the newcomer must follow suit.
SEED = 1101
RULES = Rules(deck=24, target=1)  # one hand decides it (a passed-out deal is dealt again)
YOU, COMPUTER = 0, 1
SESSION_KEY = "learn"
NOTE_AT = FLAGS[-1][0]  # the analysis's inaccuracy: a loss worth a word
SAMPLES = 60  # the hard bot's in-play budget for judging the newcomer's move (at most ~60 ms)


def start() -> dict:
    return {"moves": [], "note": None}


def state_of(progress: dict) -> State:
    return replay(SEED, RULES, (Action.parse(s, a) for s, a in progress["moves"]))


def play(progress: dict, text: str) -> dict:
    """The newcomer's move ``text`` (refused with IllegalAction if not legal now), then the
    computer's answers until it is the newcomer's turn again or the hand is over."""
    state = state_of(progress)
    if state.turn != YOU:
        raise IllegalAction("It is not your turn", "not_your_turn")
    view = view_for(state, YOU)
    values = hard.values(view, random.Random(len(progress["moves"])), samples=SAMPLES)
    state = apply(state, Action.parse(YOU, text))
    moves = [*progress["moves"], [YOU, text]]
    best = max(values, key=lambda a: (values[a], a == text))
    note = None
    if values[best] - values.get(text, values[best]) >= NOTE_AT:
        reason, params = why(view, best)
        note = {"chosen": text, "better": best, "reason": reason, "params": params}
    rng = random.Random(SEED + len(moves))
    while state.turn == COMPUTER:
        answer = choose("medium", view_for(state, COMPUTER), rng)
        state = apply(state, Action.parse(COMPUTER, answer))
        moves.append([COMPUTER, answer])
    return {"moves": moves, "note": note}


def _bowers(trump: int) -> tuple[str, str]:
    return CODES[8 * trump + JACK], CODES[8 * same_colour(trump) + JACK]


def explanations(state: State) -> list[str]:
    """What is happening and what the newcomer may do, for the table as it is."""
    view = view_for(state, YOU)
    lines = []
    phase = view.phase
    suit = view.trump or view.upcard_suit
    suit_name = SUIT_NAMES[suit] if suit else ""
    if phase in ("round_one", "dealer_decides") and not state.bids:
        lines.append(
            _(
                "Two-hand euchre uses 24 cards, nine to ace. Each player gets five; the next "
                "card is turned face up: the upcard, here %(card)s. Its suit is offered as trump."
            )
            % {"card": Card(view.upcard).name}
        )
    if suit and not view.tricks:  # the bowers, until the first trick is taken
        right, left = _bowers(SUIT_CODES.index(suit))
        lines.append(
            _(
                "With %(suit)s as trump, the highest card is %(right)s: the right bower. Next "
                "comes %(left)s, the other jack of the same colour: the left bower. It counts "
                "as one of the %(suit)s, not of its own suit."
            )
            % {"suit": suit_name, "right": Card(right).name, "left": Card(left).name}
        )
    if phase in ("round_one", "round_two"):
        lines.append(
            _(
                "Whoever makes trump must take at least three of the five tricks. Order it up "
                "when your hand is strong in the upcard's suit; if both pass, the upcard is "
                "turned down and either player may name another suit."
            )
        )
    if phase == "play" and not view.tricks and not view.trick:
        taken = {"taken_up": True, "left": False}.get(view.upcard_fate)
        if taken is not None and view.maker == YOU:
            if taken:
                line = _("The dealer's choice: the computer took the upcard and discarded a card.")
            else:
                line = _("The dealer's choice: the computer left the upcard on the stock.")
            lines.append(line)
    if phase == "play" and view.turn == YOU:
        if not view.trick:
            lines.append(
                _(
                    "You lead: play any card. The highest card of the suit led takes the "
                    "trick, unless someone plays a trump: then the highest trump takes it."
                )
            )
        else:
            led = Card(view.trick[0][1])
            lines.append(
                _(
                    "The computer led %(card)s. Follow suit: play a card of that suit if you "
                    "have one (the left bower belongs to the trump suit). If you have none, "
                    "play any card: a trump takes the trick."
                )
                % {"card": led.name}
            )
    if phase == "match_over":
        lines.append(
            _(
                "The points: the maker scores 1 for three or four tricks and 2 for all five "
                "(a march); with fewer than three the maker is euchred and the other player "
                "scores 2. A match goes on, hand after hand, to 10 points."
            )
        )
    return lines


def note_words(note: dict | None) -> str:
    """Why another move was better than the one just made (the move stands)."""
    if not note:
        return ""
    found = Hint(note["better"], note["reason"], note["params"])
    better, reason = hint_words(found)
    return _("You chose: %(chosen)s. %(better)s was stronger. %(why)s") % {
        "chosen": action_words(note["chosen"]),
        "better": better,
        "why": reason,
    }


def context(progress: dict, names: list[str]) -> dict:
    """The page's table (the felt of a match, templates/jinja2/learn_board.jinja) and the
    guide's words. ``version``: the moves made, which a call posts back (a second click on a
    board already answered is refused, not played on the next one)."""
    state = state_of(progress)
    view = view_for(state, YOU)
    table = seat_context(view, names, YOU)
    if state.is_over:  # the hand's summary is the end's, with what to do next
        table["end_summary"], table["hand_summary"] = table["hand_summary"], None
    return {
        **table,
        "names": names,
        "act_url": reverse("learn"),
        "act_select": "#learn-guide",
        "version": len(progress["moves"]),
        "your_turn": view.turn == YOU,
        "acting": view.turn,
        "over": state.is_over,
        "opponent_present": True,  # the computer never leaves the table
        "note": note_words(progress.get("note")),
        **guide_context(progress, state),
    }


def guide_context(progress: dict, state: State) -> dict:
    """The guide's lines for the table as it is, each marked ``new`` unless the newcomer read
    it before their last move (a phone shows the new ones, and the rest on request): at least
    the last line is new."""
    moves = progress["moves"]
    mine = [number for number, (seat, _action) in enumerate(moves) if seat == YOU]
    before = set(explanations(state_of({"moves": moves[: mine[-1]]}))) if mine else set()
    lines = explanations(state)
    new = [line not in before for line in lines]
    if lines and not any(new):
        new[-1] = True
    guide = [{"text": line, "new": fresh} for line, fresh in zip(lines, new, strict=True)]
    return {"guide": guide}
