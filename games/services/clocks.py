"""Move clocks and abandoned matches: nobody can stall an opponent for ever."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .. import tasks
from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..errors import Conflict
from ..models import Connection, EndReason, Match, MatchStatus
from .core import (
    clock_task_needed,
    match_expire_if_due,
    match_forfeit,
    match_locked,
    match_locked_seat,
    match_save,
)

# The move clock (seconds for each action; a match may also have none). The default suits a
# first match (docs/GAMEPLAY.md, "Clocks and abandoned matches"): time to read one's first
# bids, and to come back to a tab closed by mistake before the clock ends the match.
DEFAULT_MOVE_SECONDS = 120
MIN_MOVE_SECONDS = 10
MAX_MOVE_SECONDS = 3600
# A correspondence match's days for each action (instead of a move clock).
CORRESPONDENCE_DAYS = (1, 3, 7)
# Without a clock, the waiting player may claim a match the opponent left this long ago.


def match_expire(*, match_id: int, due: datetime | None = None) -> bool:
    """End the match if its clock ran out; True if this call ended it. The worker runs it as
    the match's clock task, due at ``due``: if the turn it waited for was played in time, it
    waits again for the turn running now. A task that is not the match's waiting one (a
    duplicate, a retry) does nothing. ``manage.py expire_matches`` sweeps with no ``due``."""
    with transaction.atomic():
        match = match_locked(match_id)
        if due is not None:
            if match.clock_due != due:
                return False
            match.clock_due = None  # this task is done; the next one, if any, is queued below
        if match_expire_if_due(match):
            return True
        if due is not None:
            if clock_task_needed(match):
                tasks.schedule_clock_expire(match.pk, match.clock_due)
            match.save(update_fields=["clock_due"])
        return False


def clocks_resume() -> int:
    """Queue the clock task of every clocked match in play that has none waiting (matches
    from before the clocks were tasks); how many. Each worker runs it as it starts."""
    waiting = Match.objects.filter(status=MatchStatus.ACTIVE, clock_due=None)
    resumed = 0
    clocked = Q(move_seconds__isnull=False) | Q(days_per_move__isnull=False)
    for match_id in waiting.filter(clocked).values_list("pk", flat=True):
        with transaction.atomic():
            match = match_locked(match_id)
            if match.clock_due is None and clock_task_needed(match):
                tasks.schedule_clock_expire(match.pk, match.clock_due)
                match.save(update_fields=["clock_due"])
                resumed += 1
    return resumed


def match_claim(*, user, match_id: int) -> Match:
    """The waiting player claims the win from an opponent who left: no clock, the opponent's
    turn, no move from them for ABANDON_AFTER and no connection to the match now."""
    with transaction.atomic():
        match, seat = match_locked_seat(match_id, user)
        if match_expire_if_due(match):
            return match
        if match.status != MatchStatus.ACTIVE:
            raise Conflict("not_in_play")
        if match.computer:
            raise Conflict("computer_stays")
        opens = match.claim_opens_at
        if opens is None:
            raise Conflict("has_clock")
        if match.state.turn != seat ^ 1:
            raise Conflict("your_turn")
        opponent = match.players[seat ^ 1]
        since = timezone.now() - PRESENCE_TIMEOUT
        if Connection.objects.filter(match=match, user=opponent, seen_at__gte=since).exists():
            raise Conflict("still_here", player=opponent.username)
        wait = opens - timezone.now()
        if wait > timedelta(0):
            minutes, seconds = divmod(int(wait.total_seconds()) + 1, 60)
            raise Conflict("claim_later", minutes=minutes, seconds=seconds)
        match_forfeit(match, winner=user, reason=EndReason.ABANDONED)
        match_save(match, lobby=True)
    return match
