"""Players' reports of their opponents, and the moderators' answers."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..errors import Conflict, GameError, NotAllowed, TooOften
from ..models import ModerationAction, Report, is_computer, is_guest
from .core import match_locked, players_locked
from .moderation import audit_record, reason_checked


def report_create(*, reporter, match_id: int, reason: str, details: str = "") -> Report:
    """A player reports their opponent in a match."""
    if reason not in Report.Reason.values:
        raise GameError("bad_report_reason")
    with transaction.atomic():
        match = match_locked(match_id)
        players_locked(reporter)
        seat = match.seat_of(reporter)
        if seat is None or match.players[seat ^ 1] is None:
            raise NotAllowed("report_own_opponent")
        if match.computer:
            raise NotAllowed("report_computer")
        mine = Report.objects.filter(reporter=reporter)
        if mine.filter(match=match, status=Report.Status.OPEN).exists():
            raise Conflict("already_reported")
        reports_per_hour_checked(reporter)
        return Report.objects.create(
            reporter=reporter, reported=match.players[seat ^ 1], match=match,
            reason=reason, details=(details or "")[:2000],
        )  # fmt: skip


def report_player(*, reporter, reported, reason: str, details: str = "") -> Report:
    """A player reports another from their profile: no match of theirs needed (what happened
    may have been in a chat, a name, a challenge). Not oneself, not the computer, and not by a
    guest (nobody answers for a guest's reports); one open report about a player at a time."""
    if reason not in Report.Reason.values:
        raise GameError("bad_report_reason")
    if reported.pk == reporter.pk:
        raise GameError("report_self")
    if is_computer(reported):
        raise NotAllowed("report_computer")
    if is_guest(reporter):
        raise NotAllowed("report_guest")
    with transaction.atomic():
        players_locked(reporter)
        mine = Report.objects.filter(reporter=reporter, reported=reported, match=None)
        if mine.filter(status=Report.Status.OPEN).exists():
            raise Conflict("already_reported_player", player=reported.username)
        reports_per_hour_checked(reporter)
        return Report.objects.create(
            reporter=reporter, reported=reported, match=None,
            reason=reason, details=(details or "")[:2000],
        )  # fmt: skip


def reports_per_hour_checked(reporter) -> None:
    """Under the reporter's lock: at most ``REPORTS_PER_HOUR`` reports an hour, of any kind."""
    hour_ago = timezone.now() - timedelta(hours=1)
    recent = Report.objects.filter(reporter=reporter, created_at__gte=hour_ago).count()
    if recent >= settings.REPORTS_PER_HOUR:
        raise TooOften("reports_per_hour", count=settings.REPORTS_PER_HOUR)


def report_close(*, moderator, report: Report, dismissed: bool, reason: str) -> Report:
    reason = reason_checked(reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != Report.Status.OPEN:
            raise Conflict("report_handled")
        report.status = Report.Status.DISMISSED if dismissed else Report.Status.RESOLVED
        report.save(update_fields=["status"])
        kind = (
            ModerationAction.Kind.DISMISS_REPORT
            if dismissed
            else ModerationAction.Kind.RESOLVE_REPORT
        )
        audit_record(
            moderator, kind, reason, report=report, match=report.match, player=report.reported
        )
    return report
