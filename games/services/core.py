"""The match row, as every service changes it: locked, saved with a new version, its pushes and
tasks sent with the commit, and its end (rated in the same transaction)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from .. import tasks
from ..db import statements
from ..db.prepared import update_fields
from ..errors import NotAllowed, NotFound
from ..models import EndReason, Match, MatchStatus
from . import events
from .arena_results import arena_result
from .insights import insights_record
from .push import live_turn_push
from .ratings import ratings_apply


def players_locked(*users) -> None:
    """Lock the players' rows (in id order: no deadlock): their requests that count what they
    have (open matches, reports...) then add one take turns, so two at once cannot both pass a
    cap. A match row, when one is locked too, is locked first.

    Like the match's, the lock is FOR NO KEY UPDATE: a row that refers to the player (a socket's
    presence, a new match) can be written meanwhile. FOR UPDATE would make such a write wait,
    and two requests could each wait for the other's lock: a deadlock."""
    pks = sorted(u.pk for u in users)
    players = get_user_model().objects.select_for_update(no_key=True)
    list(players.filter(pk__in=pks).order_by("pk").values("pk"))


def match_locked(match_id: int) -> Match:
    try:
        pk = int(match_id)  # as the ORM takes a pk: "12" is 12
    except (TypeError, ValueError):
        raise NotFound("no_such_match") from None
    if not 0 < pk < 2**63:  # no id; and past 64 bits the database refuses the number
        raise NotFound("no_such_match")
    match = statements.MATCH_LOCKED.first(pk)
    if match is None:
        raise NotFound("no_such_match")
    if match.winner_id is not None:  # one of the two players: no third join for it
        match.winner = match.player0 if match.winner_id == match.player0_id else match.player1
    return match


def match_locked_seat(match_id: int, user) -> tuple[Match, int]:
    """The locked match and the user's seat in it; refused if the user is not playing."""
    match = match_locked(match_id)
    seat = match.seat_of(user)
    if seat is None:
        raise NotAllowed("not_playing")
    return match, seat


def match_save(
    match: Match, lobby: bool = False, fields: tuple[str, ...] = (), watch: bool = False
) -> None:
    """Every change bumps the version, so that submissions made against the old one fail.
    ``fields``: the only ones changed, when the caller knows (a move: a shorter UPDATE);
    ``watch``: the lobby's list of matches to watch shows something this change altered."""
    match.version += 1
    clock = clock_task_needed(match)
    if fields:  # a move's and a rematch's: their UPDATE built once (games.db.prepared)
        update_fields(match, (*fields, "version", *(("clock_due",) if clock else ())))
    else:
        match.save()
    players = (match.player0_id, match.player1_id) if lobby else ()
    events.send_event_on_commit(
        match.pk, version=match.version, lobby=tuple(pk for pk in players if pk), watch=watch
    )
    # What this change makes due, queued in its transaction: the task exists exactly when the
    # change was committed.
    if match.status == MatchStatus.ACTIVE and match.computer and match.state.turn == 1:
        tasks.schedule_computer_move(match.pk, match.version, match.turn_started_at)
    if clock:
        tasks.schedule_clock_expire(match.pk, match.clock_due)
    if match.days_per_move:  # correspondence: the player to act may be on any page, or away
        pair = tuple(pk for pk in (match.player0_id, match.player1_id) if pk)
        events.send_user_event_on_commit(pair)  # their pages' count of turns waiting
        if match.status == MatchStatus.ACTIVE:
            tasks.schedule_turn_mail(match.pk, match.version)
    else:
        live_turn_push(match)  # a tab of the player to act hidden: a push (services.push)


def clock_task_needed(match: Match) -> bool:
    """One clock task waits per match, not one per move: it is queued at the first clocked
    turn (or for a deadline earlier than the one it waits for), and when it comes due it ends
    the match or waits again, for the turn running then (``match_expire``). True if this
    change needs a new one (``match.clock_due`` is set to its time)."""
    deadline = match.deadline
    if deadline is None or (match.clock_due is not None and match.clock_due <= deadline):
        return False
    match.clock_due = deadline
    return True


def match_expire_if_due(match: Match) -> bool:
    """On the locked match: if the player to act ran out of time, they lose. True if so."""
    deadline = match.deadline
    if deadline is None or timezone.now() < deadline:
        return False
    late = match.state.turn
    match_forfeit(match, winner=match.players[late ^ 1], reason=EndReason.TIMEOUT)
    match_save(match, lobby=True)
    return True


def match_abort_now(match: Match) -> None:
    match.status = MatchStatus.ABORTED
    match.end_reason = EndReason.ABORTED
    match.finished_at = timezone.now()
    arena_result(match)  # its arena's standings, or the arenas it kept a player from


def match_forfeit(match: Match, *, winner, reason: EndReason) -> None:
    """A player leaves (resigns, runs out of time, is claimed against): the opponent wins,
    unless a player has not made a first action yet, and then leaving costs nothing: the match
    is called off, with no result and no rating (lichess's abort)."""
    if match.both_acted:
        match_finish(match, winner=winner, reason=reason)
    else:
        match_abort_now(match)


def match_finish(match: Match, *, winner, reason: EndReason) -> None:
    """End the match for ``winner``, rating it in the same transaction if it is rated."""
    match.status = MatchStatus.FINISHED
    match.winner = winner
    match.end_reason = reason
    match.finished_at = timezone.now()
    if match.rated:
        ratings_apply(match)
    arena_result(match)  # its arena's standings, or the arenas it kept a player from
    insights_record(match=match)  # its hands and choices, for the players' insights
    tasks.schedule_analysis(match.pk)
