"""Puzzles: the next one for the player, one on the table, and its answer. Anyone may try
them, but only a logged-in player's answer counts (once, rated) and shows the best play: a
visitor's answer is stored nowhere (no session either) and only asks them to log in, so that
nobody reads a puzzle's answer before giving the one that counts."""

from __future__ import annotations

import random

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from ... import services
from ...db import selectors
from ...errors import GameError, NotFound
from ...models import PuzzleTheme
from ...presentation import puzzles as words
from ...presentation import refusals
from ...presentation.jinja import PUZZLE_BOARD, render_board
from ...services import throttle
from .common import client_key


def _theme(request: HttpRequest) -> str:
    theme = request.GET.get("theme", "")
    if theme and theme not in PuzzleTheme.values:
        raise NotFound("no_such_theme")
    return theme


def _refused(request: HttpRequest, error: GameError) -> HttpResponse:
    context = {"title": "", "message": refusals.words(error)}
    return render(request, "error.html", context, status=refusals.status(error))


def _url(name: str, theme: str, *args, mine: bool = False) -> str:
    """A puzzles page, keeping the theme and ``mine`` (the player's own decisions first)."""
    query = "&".join(([f"theme={theme}"] if theme else []) + (["mine=1"] if mine else []))
    return reverse(name, args=args) + (f"?{query}" if query else "")


@require_safe
def puzzles(request: HttpRequest) -> HttpResponse:
    """The next puzzle for this player (of a theme if asked), or a page that says none is left."""
    try:
        theme = _theme(request)
    except GameError as error:
        return _refused(request, error)
    mine = request.GET.get("mine") == "1"
    puzzle = selectors.puzzle_next(
        user=request.user, theme=theme, pick=random.randrange(selectors.NEAREST), mine_first=mine
    )
    if puzzle is not None:
        return redirect(_url("puzzle", theme, puzzle.pk, mine=mine))
    context = {"themes": words.themes(), "theme": theme, **_rating(request)}
    return render(request, "puzzle.html", context)


def _rating(request: HttpRequest) -> dict:
    mine = selectors.puzzle_rating_of(user=request.user)
    return {"puzzle_rating": mine.value if mine else None}


@require_http_methods(["GET", "HEAD", "POST"])
def puzzle(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """A puzzle on the table; POST answers it (once), and the page then shows the answer: to
    a logged-in player, whose answer it was. A visitor who answers is asked to log in."""
    # Another player's private puzzle does not exist for this viewer.
    found = selectors.puzzle_visible(user=request.user, puzzle_id=puzzle_id)
    mine = request.GET.get("mine") == "1"
    try:
        theme = _theme(request)
        if found is None:
            raise NotFound("no_such_puzzle")
        if found.retired_at is not None:  # its answers are kept; it is shown no more
            raise NotFound("puzzle_retired")
    except GameError as error:
        return _refused(request, error)
    attempt = selectors.puzzle_attempt(user=request.user, puzzle=found)
    chosen = attempt.chosen if attempt else None
    error, status, log_in = "", 200, False
    if request.method == "POST":
        try:
            key = request.user.pk if request.user.is_authenticated else client_key(request)
            throttle.hit("puzzle", str(key), settings.MOVE_LIMIT_PER_10_SECONDS, 10)
            if chosen is not None:
                raise services.Conflict("puzzle_answered")
            action = request.POST.get("action", "")
            found, attempt = services.puzzle_answer(
                user=request.user, puzzle_id=found.pk, action=action
            )
        except throttle.Throttled as refusal:
            error, status = refusals.words(refusal), 429
        except GameError as refusal:
            error, status = refusals.words(refusal), refusals.status(refusal)
        else:
            if attempt is not None:
                return redirect(_url("puzzle", theme, found.pk, mine=mine))
            # A visitor: told neither the answer nor whether theirs was it (one try per option
            # would tell), nor remembered, so that the answer that counts is a player's first.
            log_in = True
    match = selectors.puzzle_source(puzzle=found)
    own = match.seat_of(request.user) is not None
    state = words.position(found, int(match.seed), match.rules, selectors.match_moves(match=match))
    board = words.board_context(found, state, answered=chosen is not None)
    context = {
        **board,
        "error": error,
        "puzzle": found,
        "theme": theme,
        "theme_words": words.theme_words(found.theme),
        "themes": words.themes(),
        "next_url": _url("puzzles", theme, mine=mine),
        # Named and linked only if both players allow it (each in their settings), or to a
        # player of the match: their own.
        "source": match if own or selectors.puzzle_names_allowed(match=match) else None,
        "own_decision": own and match.seat_of(request.user) == found.seat,
        "result": None,
        "log_in": log_in,
        **_rating(request),
    }
    if chosen is not None:
        rated = attempt is not None and attempt.rated  # a streak's answer moved no rating
        before, after = (attempt.before, attempt.after) if rated else (None, None)
        context["result"] = words.result_context(found, chosen, before, after)
    context["board"] = render_board(context, request, PUZZLE_BOARD)
    return render(request, "puzzle.html", context, status=status)
