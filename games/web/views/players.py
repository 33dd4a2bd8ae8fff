"""Players: profiles, the leaderboard and one's own history."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...db import selectors
from ...models import Ladder, Report, is_computer, is_guest
from ...presentation import refusals
from ...presentation.charts import line_chart
from ..forms import MatchCreateForm, ReportForm
from .common import player_or_404


@login_required
@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    return profile_page(request, player_or_404(username))


def profile_page(request, player, form: MatchCreateForm | None = None, status: int = 200):
    other = player.pk != request.user.pk and player.is_active
    computer = is_computer(player)
    can_reach = other and not computer and not is_guest(request.user) and not is_guest(player)
    context = {
        "player": player,
        "record": selectors.record(user=player),
        "rating": selectors.rating_of(user=player),
        "chart": _chart(selectors.rating_points(user=player)),
        "correspondence_chart": _chart(
            selectors.rating_points(user=player, ladder=Ladder.CORRESPONDENCE)
        ),
        "arenas": selectors.arenas_of(user=player),
        "puzzle_rating": selectors.puzzle_rating_of(user=player),
        "puzzle_chart": _chart(selectors.puzzle_rating_history(user=player)),
        "puzzle_streak": selectors.streak_of(user=player),
        "insights_shown": selectors.insights_visible(viewer=request.user, player=player),
        # Anyone else but the computer may be challenged (it is always in the lobby), by anyone
        # but a guest, and a guest by nobody (services.challenge_create); the same for follows.
        "can_challenge": can_reach,
        "can_follow": can_reach,
        "follow": selectors.follow_state(user=request.user, player=player),
        "challenge_form": form or MatchCreateForm(prefix="challenge"),
        "challenge_open": form is not None,
        # A report to the moderators about anyone else but the computer; a guest who sends
        # one is told why it cannot be (services.report_player).
        "report_reasons": Report.Reason.choices if other and not computer else (),
    }
    return render(request, "profile.html", context, status=status)


@login_required
@require_POST
def player_report(request: HttpRequest, username: str) -> HttpResponse:
    """A player reports another from their profile; a moderator sees it in the admin's queue."""
    player = player_or_404(username)
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            raise services.GameError("bad_report_reason")
        services.report_player(reporter=request.user, reported=player, **form.cleaned_data)
    except services.GameError as error:
        context = {"title": _("Your report was not sent"), "message": refusals.words(error)}
        return render(request, "error.html", context, status=refusals.status(error))
    messages.success(request, _("Thank you: a moderator will look at your report."))
    return redirect("profile", username=player.username)


def _chart(points: list[tuple[int, datetime]]):
    """A line chart of (value, when) points, dated on its axis."""
    return line_chart([value for value, _when in points], [when for _value, when in points])


@login_required
@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    bots = request.GET.get("bots") == "1"
    correspondence = not bots and request.GET.get("ladder") == Ladder.CORRESPONDENCE
    ladder = Ladder.CORRESPONDENCE if correspondence else Ladder.LIVE
    context = {
        "rows": selectors.leaderboard(bots=bots, ladder=ladder),
        "correspondence": correspondence,
        "minimum": selectors.LEADERBOARD_MIN_MATCHES,
        "bots": bots,
    }
    return render(request, "leaderboard.html", context)


@login_required
@require_safe
def history(request: HttpRequest) -> HttpResponse:
    """My finished matches, filtered; htmx asks for further pages ("load more")."""
    try:
        # Past the last page a page is simply empty; beyond this it would overflow the query.
        page = min(max(1, int(request.GET.get("page", "1"))), 100_000)
    except ValueError:
        page = 1
    filters = {
        # No user name holds a NUL, and PostgreSQL refuses one in a query: drop it.
        "opponent": request.GET.get("opponent", "").replace("\x00", "").strip()[:150],
        "result": request.GET.get("result", ""),
        "kind": request.GET.get("kind", ""),
    }
    rows, more = selectors.match_history(user=request.user, page=page, **filters)
    query = urlencode({k: v for k, v in filters.items() if v})
    context = {
        "rows": rows,
        "more": more,
        "next_page": page + 1,
        "filters": filters,
        "query": query,
    }
    if request.htmx and page > 1:
        return render(request, "history.html#rows", context)
    return render(request, "history.html", context)
