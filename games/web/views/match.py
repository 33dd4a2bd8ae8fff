"""A match's pages: the table and its board, moves and the match's other actions, hints,
rematches, the replay and reports.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db import selectors
from ...models import Match, MatchStatus, TablePace, Theme
from ...presentation import export, hints, refusals, review
from ...presentation.board import board_context, pace_context
from ...presentation.chat import chat_items, log_with_chat
from ...presentation.jinja import render_board
from ...presentation.replay import replay_context
from ...public import PublicMatch, view_of
from ...services import throttle
from ..forms import ReportForm
from ..moves import Unreadable, move_submit
from .chat import chat_context
from .common import base_url, go_to, match_or_404, safe_target


def _for_viewers(view):
    """A view of one match that answers a viewer it is closed to (``match_or_404`` refused:
    a match in play whose players let nobody watch) with the closed-to-watchers page,
    whatever was asked: the page, a move, a join..."""

    @functools.wraps(view)
    def answered(request: HttpRequest, match_id: int, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, match_id, *args, **kwargs)
        except services.NotAllowed as refused:
            if refused.code != "not_open_to_watch":
                raise
            return _closed_to_watchers(request)

    return answered


def _refused(request: HttpRequest, match_id: int, error: Exception, status: int) -> HttpResponse:
    """The board as it is, with why ``error`` refused what was asked, in the player's words."""
    match = match_or_404(match_id, request.user)
    return _render_board(request, match, refusals.words(error), status)


@login_required
@require_POST
@_for_viewers
def rematch_offer(request: HttpRequest, match_id: int) -> HttpResponse:
    """Play again: a new match at once (the computer, or the opponent had offered too), or the
    offer, on the board."""
    try:
        match = services.rematch_offer(user=request.user, match_id=match_id)
    except services.GameError as error:
        return _refused(request, match_id, error, refusals.status(error))
    if match.pk != match_id:
        return go_to(request, match)
    if request.htmx:
        return _render_board(request, match)
    return redirect("match_detail", match_id=match_id)


@login_required
@require_POST
@_for_viewers
def rematch_accept(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = services.rematch_accept(user=request.user, match_id=match_id)
    except services.GameError as error:
        return _refused(request, match_id, error, refusals.status(error))
    return go_to(request, match)


def _render_board(request, match: Match, error: str = "", status: int = 200) -> HttpResponse:
    """The board of ``match``: one ``match_or_404`` gave, or a service gave the player who
    acted on it."""
    context = _board_context(request, match, error)
    if request.htmx:
        return HttpResponse(render_board(context, request), status=status)
    return _match_page(request, context, status)


def _match_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The match page around its board (``context``: the board's), with its side panel's
    settings."""
    context.update(sound_on=selectors.sound_on(user=request.user), themes=Theme.choices)
    pace = selectors.table_pace(user=request.user) if request.user.is_authenticated else None
    context.update(pace_context(*(pace or (TablePace.QUICK, False))))
    context.update(chat_context(request, context["match"]))
    context["log_lines"] = log_with_chat(
        context.get("log") or [], context.get("chat_lines") or [], context["match"].move_count
    )
    context["board"] = render_board(context, request)
    return render(request, "match.html", context, status=status)


def _board_context(request: HttpRequest, match: Match, error: str = "") -> dict:
    """The board of ``match`` for this request's user, with who is at the table."""
    public = PublicMatch.of(match)
    seat = public.seat_of(request.user)
    here = selectors.presence(match_ids=[match.pk])[match.pk]
    casual = (
        match.status == MatchStatus.OPEN
        and match.rated
        and seat is None
        and request.user.is_authenticated
        and selectors.rated_today_capped(user=request.user, other=match.player0)
    )
    return board_context(
        public, view_of(match.state, seat), request.user, present=here.players,
        spectators=here.watching, casual_for_you=casual, error=error,
        base_url=base_url(request),
    )  # fmt: skip


def _closed_to_watchers(request: HttpRequest) -> HttpResponse:
    """403 for someone who does not play in a match in play whose players let nobody watch."""
    context = {
        "title": _("Not open to watch"),
        "message": _(
            "The players of this match chose not to let others watch it. "
            "Its result will be here once it is over."
        ),
    }
    return render(request, "error.html", context, status=403)


@login_required
@require_safe
@_for_viewers
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    return _render_board(request, match_or_404(match_id, request.user))


@login_required
@require_safe
@_for_viewers
def match_board(request: HttpRequest, match_id: int) -> HttpResponse:
    """The board partial; 204 (nothing to swap) while the match is still at ``?version=``."""
    match = match_or_404(match_id, request.user)
    if request.GET.get("version") == str(match.version):
        return HttpResponse(status=204)
    return HttpResponse(render_board(_board_context(request, match), request))


def _act(request: HttpRequest, match_id: int, call) -> HttpResponse:
    try:
        match = call()
    except services.GameError as error:
        return _refused(request, match_id, error, refusals.status(error))
    if request.htmx:
        return _render_board(request, match)  # the service's match, players included
    return redirect("match_detail", match_id=match_id)


@login_required
@require_POST
@_for_viewers
def match_act(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        return _act(request, match_id, lambda: move_submit(
            user=request.user, match_id=match_id, data=request.POST, way="page_form"
        ).match)  # fmt: skip
    except throttle.Throttled as error:
        response = _refused(request, match_id, error, 429)
        response["Retry-After"] = str(error.retry_after)
        return response
    except Unreadable:
        match = match_or_404(match_id, request.user)
        return _render_board(
            request, match, _("That move could not be read: reload the page and try again"), 400
        )


@login_required
@require_POST
def match_hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """The Hint button: the hard computer's choice for the player's turn, and why (casual
    matches against the computer only; refused in words elsewhere)."""
    try:
        match, found = services.hint_for(user=request.user, match_id=match_id)
    except (services.GameError, throttle.Throttled) as error:
        code = 429 if isinstance(error, throttle.Throttled) else refusals.status(error)
        context = {"match_id": match_id, "hint_error": refusals.words(error)}
        if request.htmx:
            return render(request, "partials/hint.html", context, status=code)
        return render(
            request,
            "error.html",
            {"title": _("No hint"), "message": context["hint_error"]},
            status=code,
        )
    what, why = hints.hint_words(found)
    context = {"match_id": match_id, "hint_action": what, "hint_why": why}
    if request.htmx:
        return render(request, "partials/hint.html", context)
    page = _board_context(request, match)
    page.update(context)
    return _match_page(request, page)


def _match_action(service):
    """A POST view on one match that calls ``service(user=, match_id=)`` and answers with the
    board (or the refusal in words): join, abort, resign, claim."""

    @login_required
    @require_POST
    @_for_viewers
    def view(request: HttpRequest, match_id: int) -> HttpResponse:
        return _act(request, match_id, lambda: service(user=request.user, match_id=match_id))

    view.__name__ = view.__qualname__ = service.__name__
    return view


match_join = _match_action(services.match_join)


match_abort = _match_action(services.match_abort)


match_resign = _match_action(services.match_resign)


match_claim = _match_action(services.match_claim)


rematch_decline = _match_action(services.rematch_decline)


@login_required
@require_safe
def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every action of a finished match, one step at a time, every card face up; a voided one
    too, said to be voided (over all the same: its deals are no secret any more), without its
    analysis."""
    try:
        match = match_or_404(match_id, request.user)
    except services.NotAllowed:  # in play, and its players let nobody watch it: not over
        match = None
    if match is None or match.status not in (MatchStatus.FINISHED, MatchStatus.VOIDED):
        return render(
            request,
            "replay.html",
            {"match": {"pk": match_id}, "closed": _("The replay opens when the match is over.")},
            status=403,
        )
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    context = replay_context(match, selectors.match_moves(match=match), step)
    # The match's chat as its reader read it (the players: both rooms, now it is over).
    context["chat_lines"] = chat_items(selectors.chat_lines(match, request.user), request.user)
    # A voided match shows no analysis (nor puzzles): it no longer counts.
    context["analysable"] = match.status == MatchStatus.FINISHED
    if context["analysable"] and request.GET.get("analysis") == "1":  # the toggle is on
        stored = selectors.match_analysis(match=match)
        context["analysis"] = review.analysis_context(
            stored, context["step"], context["names"], context["steps"], match.seat_of(request.user)
        )
        context["keep"] = "&analysis=1"
    if request.htmx:
        return render(request, "replay.html#replay", context)
    return render(request, "replay.html", context)


@login_required
@require_safe
@_for_viewers
def match_record(request: HttpRequest, match_id: int, extension: str) -> HttpResponse:
    """The replay page's "Download the record": the match's record (docs/EXPORT.md) as a
    file, ``json`` or ``txt``, once the match is over (its seed gives away every deal)."""
    match = match_or_404(match_id, request.user)
    if not match.is_over:
        context = {"title": _("Not over yet"), "message": export.not_over_words()}
        return render(request, "error.html", context, status=409)
    moves = selectors.match_move_rows(match=match)
    if extension == "json":
        response = JsonResponse(export.match_record(match, moves), json_dumps_params={"indent": 1})
    else:
        response = HttpResponse(export.match_record_text(match, moves), export.TEXT_TYPE)
    name = export.filename(match, extension)
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


@login_required
@require_POST
def match_report(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player reports the opponent; a moderator sees it in the admin's queue."""
    form = ReportForm(request.POST)
    back = safe_target(request, request.POST.get("back", ""), f"/matches/{match_id}/")
    if not form.is_valid():
        messages.error(request, _("Choose a reason from the list to send a report."))
        return redirect(back)
    try:
        services.report_create(reporter=request.user, match_id=match_id, **form.cleaned_data)
    except services.GameError as error:
        context = {"title": _("Your report was not sent"), "message": refusals.words(error)}
        return render(request, "error.html", context, status=refusals.status(error))
    messages.success(request, _("Thank you: a moderator will look at your report."))
    return redirect(back)
