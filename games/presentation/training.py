"""A player's training in words: weak spots by theme, results by theme, the streak."""

from __future__ import annotations

from django.urls import reverse

from .puzzles import theme_words

PERIODS = {"30": 30, "90": 90, "": None}  # the dashboard's periods: days, or all of them


def puzzles_url(theme: str, mine: bool = False) -> str:
    """The puzzles of a theme; ``mine``: the player's own decisions' first."""
    return reverse("puzzles") + f"?theme={theme}" + ("&mine=1" if mine else "")


def weak_spot_rows(spots) -> list[dict]:
    """The weak spots as the page's table: the theme's words, how many decisions, the points
    lost (to the hundredth), and where its puzzles are."""
    return [
        {
            "theme": s.theme,
            "words": theme_words(s.theme),
            "count": s.count,
            "loss": f"{s.loss:.2f}",
            "own_puzzles": s.own_puzzles,
            "url": puzzles_url(s.theme, mine=True),
        }
        for s in spots
    ]


def result_rows(results) -> list[dict]:
    """Results by theme: answers, solved, and the share solved in whole hundredths."""
    return [
        {
            "theme": r.theme,
            "words": theme_words(r.theme),
            "attempts": r.attempts,
            "solved": r.solved,
            "share": f"{round(100 * r.solved / r.attempts)}%",
            "url": puzzles_url(r.theme),
        }
        for r in results
    ]
