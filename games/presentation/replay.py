"""A finished match replayed: everything face up at a step, and the hands' summaries."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..engine import Action, replay, view_for
from ..engine.cards import CODES, NO_TRUMP, SUIT_CODES, sort_key
from ..engine.verify import commitment
from ..models import Match, Report
from .cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from .sentences import hand_summary, move_words, player_name


def replay_context(match: Match, moves: list[tuple[int, str]], step: int) -> dict:
    """Everything face up, at ``step`` (0: the first deal; n: after the n-th move) of a
    finished match whose moves are ``moves`` ((seat, action), in order)."""
    step = max(0, min(step, len(moves)))
    state = replay(int(match.seed), match.rules, (Action.parse(s, a) for s, a in moves[:step]))
    names = [player_name(p.username) for p in match.players]
    trump = NO_TRUMP if state.trump is None else state.trump
    hands = [
        [Card(CODES[c]) for c in sorted(state.hand_cards(seat), key=lambda c: sort_key(c, trump))]
        for seat in (0, 1)
    ]
    final = replay(int(match.seed), match.rules, (Action.parse(s, a) for s, a in moves))
    summary = [
        {
            "number": r.number + 1,
            "dealer": names[r.dealer],
            "trump": SUIT_SYMBOLS.get(SUIT_CODES[r.trump], "") if r.trump is not None else "",
            "trump_name": SUIT_NAMES[SUIT_CODES[r.trump]] if r.trump is not None else "",
            "maker": names[r.maker] if r.maker is not None else "",
            "tricks": r.tricks_won[r.maker] if r.maker is not None else None,
            "points": r.points,
            "outcome": r.outcome.value,
            "current": r.number == state.hand_number,
        }
        for r in final.results
    ]
    last = moves[step - 1] if step else None
    # The same summary as the table's, beside the next deal; face up, so the discard too.
    hand_summary_now = None
    if state.results and (not state.tricks or state.is_over):
        shown = view_for(state, state.results[-1].dealer).results[-1]
        hand_summary_now = hand_summary(shown, names, None)
    return {
        "match": match,
        "names": names,
        "step": step,
        "steps": len(moves),
        "hands": hands,
        "upcard": Card(CODES[state.upcard]),
        "upcard_fate_words": {
            "face_up": _("face up"),
            "taken_up": _("taken up by %(player)s") % {"player": names[state.dealer]},
            "left": _("left on the stock"),
            "turned_down": _("turned down"),
        }[state.upcard_fate.value],
        "discard": Card(CODES[state.discard]) if state.discard is not None else None,
        "trick": [{"name": names[s], "card": Card(CODES[c])} for s, c in state.trick],
        "last_trick": (
            [{"name": names[s], "card": Card(CODES[c])} for s, c in state.tricks[-1].plays]
            if state.tricks
            else []
        ),
        "trump_name": SUIT_NAMES[SUIT_CODES[state.trump]] if state.trump is not None else "",
        "trump_symbol": SUIT_SYMBOLS[SUIT_CODES[state.trump]] if state.trump is not None else "",
        "maker_name": names[state.maker] if state.maker is not None else "",
        "dealer_name": names[state.dealer],
        "hand_number": state.hand_number + 1,
        "scores": state.scores,
        "tricks_won": state.tricks_won,
        "last_move": move_words(names[last[0]], last[1]) if last else _("The first deal."),
        "summary": summary,
        "hand_summary": hand_summary_now,
        "commitment": commitment(int(match.seed)),
        "report_reasons": Report.Reason.choices,
    }
