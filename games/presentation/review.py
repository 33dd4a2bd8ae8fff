"""What the replay's "Analysis" shows: the stored analysis of a finished match, in words.

Built from what ``selectors.match_analysis`` read, which is nothing for a match that is not
finished: the analysis names every card of both hands, so it is as secret as the hands until
the end.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .cards import Card
from .controls import control
from .sentences import move_words

FLAG_WORDS = {
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
KEY_MOMENTS = 5


def option_words(text: str) -> str:
    """One option as the buttons say it: "Order it up", "Name hearts", "ten of hearts"."""
    kind, _sep, arg = text.partition(":")
    if kind == "play":
        return Card(arg).name
    if kind == "discard":
        return _("Discard %(card)s") % {"card": Card(arg).name}
    return control(text).label


def points(value: float) -> str:
    """A value in points with its sign, to two places: "+0.45", "−1.20", "0.00"."""
    if abs(value) < 0.005:
        return "0.00"
    return f"{value:+.2f}".replace("-", "−")


def _decision(d: dict, names: list[str]) -> dict:
    best = d["best"]
    options = [
        {
            "words": option_words(o["action"]),
            "known": points(o["known"]),
            "perfect": points(o["perfect"]),
            "chosen": o["action"] == d["chosen"],
            "best": abs(o["known"] - best) < 1e-9,
        }
        for o in sorted(d["options"], key=lambda o: -o["known"])
    ]
    flag = d["flag"]
    return {
        "step": d["index"],  # the position the decision was made in
        "hand": d["hand"] + 1,
        "player": names[d["seat"]],
        "move": move_words(names[d["seat"]], d["chosen"]),
        "loss": points(d["loss"]).lstrip("+"),
        "flag": flag,
        "flag_words": FLAG_WORDS[flag] if flag else "",
        "mark": MARKS.get(flag, ""),
        "options": options,
    }


def analysis_context(stored: dict | None, step: int, names: list[str], steps: int) -> dict:
    """The analysis at ``step`` of the replay: the decision made there (the move from the
    position shown, with the cards still in hand and the trick still open), the key moments
    (each a link to its own position) and each player's figures; ``pending`` while the worker
    has not stored it yet (``stored``: ``selectors.match_analysis``, None then). ``steps``:
    the match's moves (at the last step, no move is left to weigh)."""
    if stored is None:
        return {"pending": True}
    decisions = stored["decisions"]
    here = next((d for d in decisions if d["index"] == step), None)
    flagged = sorted((d for d in decisions if d["flag"]), key=lambda d: (-d["loss"], d["index"]))
    figures = []
    for seat, a in enumerate(stored["accuracy"]):
        figures.append(
            {
                "player": names[seat],
                "decisions": a["decisions"],
                "share": round(100 * a["share"]),
                "average_loss": f"{a['average_loss']:.2f}",
                **a["flags"],
            }
        )
    return {
        "pending": False,
        "here": _decision(here, names) if here else None,
        "forced": step < steps and here is None,
        "moments": [_decision(d, names) for d in flagged[:KEY_MOMENTS]],
        "figures": figures,
    }
