"""A puzzle on the table: the seat's view before the move (the felt of a match,
``templates/jinja2/puzzle_board.jinja``), and once answered, whether it was the best play,
why, and the rest of the hand."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from ..engine import Action, State, replay, view_for
from ..models import Puzzle, PuzzleTheme
from .board import seat_context
from .hints import option_words
from .review import line_words, percent, points, reason_words


def position(puzzle: Puzzle, seed: int, rules, moves: list[tuple[int, str]]) -> State:
    """The match's state before the puzzle's move."""
    return replay(seed, rules, (Action.parse(s, a) for s, a in moves[: puzzle.index]))


def names_for(seat: int) -> list[str]:
    """A puzzle shows no player's name: "Player" (the table says "You" beside the seat's
    score) and "Opponent", each the subject of a sentence ("Player names clubs")."""
    names = [_("Opponent"), _("Opponent")]
    names[seat] = _("Player")
    return names


def board_context(puzzle: Puzzle, state: State, answered: bool) -> dict:
    """The table as the seat saw it; its calls post the answer (none once answered)."""
    seat = puzzle.seat
    view = view_for(state, seat)
    names = names_for(seat)
    table = seat_context(view, names, seat)
    if answered:  # the position stays on the table, without its buttons
        table["controls"] = []
        table["hand"] = [{**item, "action": ""} for item in table["hand"]]
        table["hand_has_choice"] = False
        table["prompt"] = ""
    return {
        **table,
        "names": names,
        "act_url": reverse("puzzle", args=[puzzle.pk]),
        "act_select": "#puzzle-panel",
        "version": puzzle.pk,
        "your_turn": not answered,
        "acting": view.turn,
        "over": False,
        "opponent_present": True,
        "show_presence": False,  # nobody sits across a puzzle's table
        "hand_summary": None,
    }


def value_words(puzzle: Puzzle, value: float) -> str:
    return percent(value) if puzzle.graded == "chances" else points(value)


def result_context(puzzle: Puzzle, chosen: str, before: int | None, after: int | None) -> dict:
    """What an answer shows: right or not, the answer and why, every option's value, the rest
    of the hand after the answer, and the rating's change (none for a guest)."""
    values = dict((a, v) for a, v in puzzle.options)
    names = names_for(puzzle.seat)
    options = [
        {
            "words": option_words(a),
            "value": value_words(puzzle, v),
            "answer": a == puzzle.answer,
            "chosen": a == chosen,
        }
        for a, v in sorted(puzzle.options, key=lambda o: -o[1])
    ]
    moves = [[puzzle.seat, puzzle.answer], *puzzle.line]  # the answer, then the rest
    line = {"after": puzzle.answer, "moves": moves, "tricks": 0, "points": 0}
    return {
        "correct": chosen == puzzle.answer,
        "chosen": option_words(chosen),
        "answer": option_words(puzzle.answer),
        "answer_value": value_words(puzzle, values[puzzle.answer]),
        "chosen_value": value_words(puzzle, values.get(chosen, 0)),
        "by_chances": puzzle.graded == "chances",
        "reason": reason_words(puzzle.answer, puzzle.reason),
        "options": options,
        "line": line_words(line, names)["moves"],
        "before": before,
        "after": after,
        "change": None if before is None else f"{after - before:+d}".replace("-", "−"),
    }


def theme_words(theme: str) -> str:
    return str(PuzzleTheme(theme).label) if theme in PuzzleTheme.values else ""


def themes() -> list[tuple[str, str]]:
    return [(t.value, str(t.label)) for t in PuzzleTheme]
