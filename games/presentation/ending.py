"""The end of a match and the clock: the result banner, hands won, the rematch's state for
this viewer, and the move clock (or when an abandoned match may be claimed).
"""

from __future__ import annotations

import math

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine.view import View
from ..models import EndReason, MatchStatus, RematchState
from ..public import PublicMatch
from .sentences import player_name


def end_context(match: PublicMatch, seat: int | None, view: View) -> dict:
    """The end screen: hands won, and the rematch (offered, answered, started) for this
    viewer."""
    me = seat if seat is not None else 0
    hands_won = [sum(1 for r in view.results if r.points[s] > 0) for s in (0, 1)]
    offer_mine = match.rematch_seat == seat and seat is not None
    state = match.rematch_state
    context = {
        "my_hands": hands_won[me],
        "their_hands": hands_won[me ^ 1],
        "next_match_id": match.next_match_id,
        "rematch_offered_by_me": state == RematchState.OFFERED and offer_mine,
        "rematch_offered_to_me": state == RematchState.OFFERED and seat is not None
        and not offer_mine,
        "rematch_declined": state == RematchState.DECLINED and offer_mine,
        "rematch_lapsed": state == RematchState.LAPSED and seat is not None,
        # The rematch's first dealer: whoever did not deal this match's first hand.
        "rematch_dealer": player_name(match.names[match.first_dealer ^ 1]),
    }  # fmt: skip
    context["can_rematch"] = (
        seat is not None
        and match.status == MatchStatus.FINISHED
        and match.next_match_id is None
        and state != RematchState.OFFERED
        and not context["rematch_declined"]
    )
    if state == RematchState.OFFERED and match.rematch_until:
        left = max(0, int((match.rematch_until - timezone.now()).total_seconds()))
        context["rematch_seconds"] = left
        context["rematch_text"] = minutes(left)
    return context


def result_line(match: PublicMatch, seat: int | None, names) -> str:
    """The banner over a finished match, for this viewer."""
    if match.status == MatchStatus.ABORTED:
        if match.end_reason == EndReason.ABORTED and match.dealt:
            return _(
                "Aborted: a player left before both had made a first move. "
                "No result, no rating change."
            )
        return _("This match was called off.")
    if match.status == MatchStatus.VOIDED:
        return _("A moderator voided this match: it does not count.")
    winner = player_name(match.winner_name)
    reason = match.end_reason
    won = seat is not None and match.player_ids[seat] == match.winner_id
    if reason == "adjudicated":
        if won:
            return _("A moderator adjudicated this match: you win it.")
        return _("A moderator adjudicated this match: %(player)s wins it.") % {"player": winner}
    if seat is None:
        if reason == "played_out":
            return _("%(player)s won the match.") % {"player": winner}
        return _("%(player)s won the match (%(reason)s).") % {
            "player": winner,
            "reason": str(EndReason(reason).label).lower(),
        }
    other = {"player": names[seat ^ 1]}
    if won:
        return {
            "resigned": _("You won the match: %(player)s resigned."),
            "timeout": _("You won the match: %(player)s ran out of time."),
            "abandoned": _("You won the match: %(player)s left the table."),
        }.get(reason, _("You won the match.")) % other
    return {
        "resigned": _("%(player)s won the match: you resigned."),
        "timeout": _("%(player)s won the match: you ran out of time."),
        "abandoned": _("%(player)s won the match: you left the table and they claimed it."),
    }.get(reason, _("%(player)s won the match.")) % other


def clock_context(match: PublicMatch, seat: int | None, turn: int, opponent_present: bool) -> dict:
    """The move clock of the player to act, or how long until an abandoned match may be
    claimed. Seconds as of this render: the page counts them down (static/js/clock.js)."""
    now = timezone.now()
    if match.deadline is not None:
        left = max(0, int((match.deadline - now).total_seconds()))
        text = minutes(left) if left < HOUR else days_and_hours(left)
        return {"clock_seat": turn, "clock_seconds": left, "clock_text": text}
    opens = match.claim_opens_at
    if opens is None or seat is None or turn == seat or opponent_present:
        return {}
    # Rounded up: the page shows the claim button when its count reaches zero, and the server
    # takes the claim only from ``opens`` on (rounded down, the button came up to a second early
    # and the click was refused: "You may claim the match in 0 min 01 s").
    wait = max(0, math.ceil((opens - now).total_seconds()))
    return {"claim_seconds": wait, "claim_text": minutes(wait)}


HOUR = 3600


def days_and_hours(seconds: int) -> str:
    """A correspondence match's time left, in words: ``"2 days 5 hours"``, ``"7 hours"``
    (the page counts down minutes and seconds in the last hour only)."""
    days, hours = divmod(seconds // HOUR, 24)
    parts = [ngettext("%(count)s day", "%(count)s days", days) % {"count": days}] if days else []
    if hours or not days:
        parts.append(ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours})
    return " ".join(parts)


def minutes(seconds: int) -> str:
    """``75`` -> ``"1:15"``: the way a clock shows time left."""
    return f"{seconds // 60}:{seconds % 60:02d}"
