"""Training on one's own mistakes: the puzzle dashboard (weak spots, results by theme) and
the puzzle streak. Both are a logged-in player's own; the streak's answers are checked by the
services (games.services.training), never by the page."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from ... import services
from ...db import selectors
from ...errors import GameError, NotFound
from ...presentation import puzzles as words
from ...presentation import refusals
from ...presentation import training as training_words
from ...presentation.jinja import PUZZLE_BOARD, render_board
from ...services import throttle


@login_required
@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """The player's weak spots and their results by theme (over 30 or 90 days, or all)."""
    period = request.GET.get("days", "")
    if period not in training_words.PERIODS:
        error = NotFound("no_such_period")
        context = {"title": "", "message": refusals.words(error)}
        return render(request, "error.html", context, status=refusals.status(error))
    user = request.user
    context = {
        "spots": training_words.weak_spot_rows(selectors.weak_spots(user=user)),
        "results": training_words.result_rows(
            selectors.theme_results(user=user, days=training_words.PERIODS[period])
        ),
        "period": period,
        "streak": selectors.streak_of(user=user),
        "puzzle_rating": selectors.puzzle_rating_of(user=user),
    }
    return render(request, "puzzle_dashboard.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def streak(request: HttpRequest) -> HttpResponse:
    """The streak: the puzzle on the table, or the last run's end and a button to start one.
    POST starts a run (``start``) or answers the puzzle on the table (``action``, and the
    board's ``version``: the puzzle it shows), then shows the page again: an answer to any
    other puzzle (a page from before) is refused."""
    error, status = "", 200
    if request.method == "POST":
        try:
            throttle.hit("puzzle", str(request.user.pk), settings.MOVE_LIMIT_PER_10_SECONDS, 10)
            if "start" in request.POST:
                services.streak_start(user=request.user)
            else:
                try:
                    puzzle_id = int(request.POST.get("version", ""))
                except ValueError:
                    raise NotFound("no_such_puzzle") from None
                action = request.POST.get("action", "")
                services.streak_answer(user=request.user, puzzle_id=puzzle_id, action=action)
        except throttle.Throttled as refusal:
            error, status = refusals.words(refusal), 429
        except GameError as refusal:
            error, status = refusals.words(refusal), refusals.status(refusal)
        else:
            return redirect("puzzle_streak")
    run = selectors.streak_of(user=request.user)
    context = {"streak": run, "error": error, "board": "", "missed": None}
    if run is not None and run.puzzle is not None:
        context.update(puzzle=run.puzzle, theme_words=words.theme_words(run.puzzle.theme))
        _table(request, context, run.puzzle, answered=False)
    elif run is not None and run.missed is not None:
        missed = run.missed
        context["missed"] = words.result_context(missed, _chosen(request.user, missed), None, None)
        _table(request, context, missed, answered=True)  # the miss stays on the table
    elif run is not None and run.floor_id is not None:  # complete: the last one solved stays
        last = selectors.puzzle_visible(user=request.user, puzzle_id=run.floor_id)
        if last is not None:
            _table(request, context, last, answered=True)
    return render(request, "puzzle_streak.html", context, status=status)


def _table(request: HttpRequest, context: dict, puzzle, answered: bool) -> None:
    """The puzzle's table in ``context["board"]``; its calls post here, with the puzzle they
    answer (the board's version)."""
    match = selectors.puzzle_source(puzzle=puzzle)
    state = words.position(puzzle, int(match.seed), match.rules, selectors.match_moves(match=match))
    board = words.board_context(puzzle, state, answered=answered)
    board.update(act_url=request.path, act_select="#streak-panel")
    context["board"] = render_board({**context, **board}, request, PUZZLE_BOARD)


def _chosen(user, puzzle) -> str:
    attempt = selectors.puzzle_attempt(user=user, puzzle=puzzle)
    return attempt.chosen if attempt else ""
