"""Players' reports of their opponents, and the moderators' answers."""

from __future__ import annotations

from django.db import transaction

from ..models import (
    ModerationAction,
    Report,
)
from .core import _locked
from .errors import Conflict, GameError, NotAllowed
from .moderation import _audit, _reason


def report_create(*, reporter, match_id: int, reason: str, details: str = "") -> Report:
    """A player reports their opponent in a match."""
    if reason not in Report.Reason.values:
        raise GameError("bad_report_reason")
    with transaction.atomic():
        match = _locked(match_id)
        seat = match.seat_of(reporter)
        if seat is None or match.players[seat ^ 1] is None:
            raise NotAllowed("report_own_opponent")
        if match.computer:
            raise NotAllowed("report_computer")
        return Report.objects.create(
            reporter=reporter, reported=match.players[seat ^ 1], match=match,
            reason=reason, details=(details or "")[:2000],
        )  # fmt: skip


def report_close(*, moderator, report: Report, dismissed: bool, reason: str) -> Report:
    reason = _reason(reason)
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
        _audit(moderator, kind, reason, report=report, match=report.match, player=report.reported)
    return report
