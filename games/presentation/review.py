"""What the replay's "Analysis" shows: the stored analysis of a finished match, in words, and
a graph of a player's chances to win it.

Built from what ``selectors.match_analysis`` read, which is nothing for a match that is not
finished: the analysis names every card of both hands, so it is as secret as the hands until
the end.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..bots.hint import Hint
from .cards import Card
from .charts import chance_chart
from .hints import hint_words, option_words
from .sentences import move_words

FLAG_WORDS = {
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
KEY_MOMENTS = 5


def points(value: float) -> str:
    """A value in points with its sign, to two places: "+0.45", "−1.20", "0.00"."""
    if abs(value) < 0.005:
        return "0.00"
    return f"{value:+.2f}".replace("-", "−")


def percent(value: float) -> str:
    """A chance as the page shows it, to the whole hundredth: "62%"."""
    return f"{round(100 * value)}%"


def line_words(line: dict, names: list[str]) -> dict:
    """A best line as a row of moves: each with its card (a bid has none) and its words."""
    moves = []
    for seat, text in line["moves"]:
        kind, _sep, arg = text.partition(":")
        moves.append(
            {
                "player": names[seat],
                "card": Card(arg) if kind == "play" else None,
                "words": move_words(names[seat], text),
            }
        )
    return {
        "after": option_words(line["after"]),
        "moves": moves,
        "tricks": line["tricks"],
        "points": points(line["points"]),
    }


def _reason(d: dict) -> str:
    """Why the best option was better, in the hints' words (for a flagged decision)."""
    return reason_words(d["best_action"], d["reason"])


def reason_words(best: str, reason: list | tuple) -> str:
    """A stored reason for the option ``best`` (the analysis's, a puzzle's) as a sentence."""
    code, params = reason
    if code == "for_the_match":
        line = _(
            "%(instead)s is worth more points on average, but at this score %(option)s gives "
            "the better chance to win the match."
        ) % {"instead": option_words(params["instead"]), "option": option_words(best)}
    else:
        line = hint_words(Hint(best, code, params))[1]
    return line[:1].upper() + line[1:]  # "nine of clubs wins...": a sentence of its own here


def _decision(d: dict, names: list[str], scores: tuple[int, int] | None = None) -> dict:
    by_chances = d.get("graded") == "chances"
    value = "known_chance" if by_chances else "known"
    best = max(o[value] for o in d["options"])
    options = [
        {
            "words": option_words(o["action"]),
            "known": points(o["known"]),
            "perfect": points(o["perfect"]),
            "known_chance": percent(o.get("known_chance", 0.5)),
            "perfect_chance": percent(o.get("perfect_chance", 0.5)),
            "chosen": o["action"] == d["chosen"],
            "best": abs(o[value] - best) < 1e-9,
        }
        for o in sorted(d["options"], key=lambda o: -o[value])
    ]
    chosen = next(o for o in d["options"] if o["action"] == d["chosen"])
    flag = d["flag"]
    seat = d["seat"]
    return {
        "step": d["index"],  # the position the decision was made in
        "hand": d["hand"] + 1,
        "player": names[seat],
        "move": move_words(names[seat], d["chosen"]),
        "loss": points(d["loss"]).lstrip("+"),
        "by_chances": by_chances,
        "chance_best": percent(best) if by_chances else "",
        "chance_chosen": percent(chosen["known_chance"]) if by_chances else "",
        "scores": (scores[seat], scores[seat ^ 1]) if scores else None,
        "flag": flag,
        "flag_words": FLAG_WORDS[flag] if flag else "",
        "mark": MARKS.get(flag, ""),
        "options": options,
        "better": option_words(d["best_action"]) if flag and "best_action" in d else "",
        "reason": _reason(d) if flag and d.get("reason") else "",
        "lines": [line_words(line, names) for line in d.get("lines", ())],
    }


def _graph(stored: dict, names: list[str], seat: int, step: int) -> dict | None:
    """The chances of ``seat`` through the match: at each hand's start, then after each
    decision with every card known; and the same, hand by hand, as text."""
    hands = stored.get("hands")
    if not hands:
        return None
    flip = (lambda c: c) if seat == 0 else (lambda c: 1 - c)
    points_ = [(h["index"], flip(h["chance"])) for h in hands]
    points_ += [(d["index"] + 1, flip(d["chance"])) for d in stored["decisions"]]
    points_.sort()
    flagged = [d["index"] for d in stored["decisions"] if d["flag"] and d["seat"] == seat]
    chart = chance_chart(points_, hands[-1]["index"], step, flagged)
    rows = [
        {
            "hand": h["hand"] + 1,
            "mine": h["scores"][seat],
            "theirs": h["scores"][seat ^ 1],
            "chance": percent(flip(h["chance"])),
            "over": h.get("over", False),
        }
        for h in hands
    ]
    return {"player": names[seat], "chart": chart, "rows": rows}


def _severity(d: dict) -> tuple:
    """Blunders first, then mistakes, then inaccuracies; among them the larger loss of the
    chance to win first (the one measure of every decision), then of points."""
    return (-list(MARKS).index(d["flag"]), -d.get("chance_loss", 0), -d["loss"], d["index"])


def analysis_context(
    stored: dict | None, step: int, names: list[str], steps: int, seat: int | None = None
) -> dict:
    """The analysis at ``step`` of the replay: the decision made there (the move from the
    position shown, with the cards still in hand and the trick still open), the key moments
    (each a link to its own position), each player's figures, and the graph of the chances
    of ``seat`` (the viewer's, or the first player's for anyone else); ``pending`` while the
    worker has not stored it yet (``stored``: ``selectors.match_analysis``, None then).
    ``steps``: the match's moves (at the last step, no move is left to weigh)."""
    if stored is None:
        return {"pending": True}
    decisions = stored["decisions"]
    hands = stored.get("hands", ())
    starts = {h["hand"]: tuple(h["scores"]) for h in hands if not h.get("over")}
    here = next((d for d in decisions if d["index"] == step), None)
    flagged = sorted((d for d in decisions if d["flag"]), key=_severity)
    figures = []
    for s, a in enumerate(stored["accuracy"]):
        figures.append(
            {
                "player": names[s],
                "decisions": a["decisions"],
                "share": round(100 * a["share"]),
                "average_loss": f"{a['average_loss']:.2f}",
                **a["flags"],
            }
        )
    return {
        "pending": False,
        "here": _decision(here, names, starts.get(here["hand"])) if here else None,
        "forced": step < steps and here is None,
        "moments": [_decision(d, names, starts.get(d["hand"])) for d in flagged[:KEY_MOMENTS]],
        "figures": figures,
        "graph": _graph(stored, names, seat or 0, step),
    }
