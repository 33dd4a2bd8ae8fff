"""Bounded data: every kind of row that grows by itself, and how long it is kept.

``KINDS`` is the table: for each kind, the rows past their time now (a function of the time,
reading its setting there, so a test's ``settings`` reach it). ``retention_sweep`` deletes
them, run by the task workers' hourly sweep (``run_worker``) along with the guests' and the
data files' own sweeps (``guests_sweep``, ``leaving_sweep``) and the finished tasks'
(``TASK_RESULTS_KEEP_HOURS``). The table of what the site keeps, and for how long, with the
product data kept for good, is in docs/OPERATING.md ("What the site keeps").

Each kind is deleted ``RETENTION_BATCH`` rows at a time, each batch a statement of its own in
a transaction of its own: a sweep never holds many locks for long, and a site that has piled
up a year of rows is emptied batch by batch while it plays. Two workers sweeping at once
delete each row once (a row the other took is simply not there any more); a row that gained
a protector between the look and the delete (a report made about a chat line that moment)
stops that kind until the next sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from ..models import (
    AccountEvent,
    AccountSession,
    Arena,
    ArenaAudit,
    ArenaInvite,
    Challenge,
    ChatLine,
    ChatMute,
    ChatTimeout,
    Connection,
    KnownDevice,
    MailConfirmation,
    MailSent,
    ModerationAction,
    PlayerSettings,
    PushSent,
    PushSubscription,
    PuzzleAttempt,
    PuzzleRating,
    Report,
    ServerError,
    TranslationSuggestion,
    WorkerBeat,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Kind:
    """One kind of row with a retention: ``name`` (the sweep's log and its counts), the
    ``setting`` that bounds it (for the reader: ``rows`` reads it), and ``rows``, the rows
    past their time at a moment (one query set, or several deleted in their order)."""

    name: str
    setting: str
    rows: Callable[[datetime], Iterable[QuerySet]]


def _days(name: str) -> timedelta:
    return timedelta(days=getattr(settings, name))


def _expired_sessions(now: datetime):
    # Django deletes a session only at its owner's log-out (``clearsessions`` is this).
    yield Session.objects.filter(expire_date__lt=now)


def _ended_account_sessions(now: datetime):
    # A player's row of a session that expired or was deleted; the player's own next log-in
    # swept these too (``account_session_open``), a player who never came back never did.
    # An hour's grace: a key renewed a moment ago (a password change) is followed by the row
    # at the session's next request (``account_session_seen``).
    live = Session.objects.filter(session_key=OuterRef("session_key"), expire_date__gt=now)
    unseen = AccountSession.objects.filter(last_seen__lt=now - timedelta(hours=1))
    yield unseen.exclude(Exists(live))


def _unused_devices(now: datetime):
    # Past the device cookie's own life (400 days, renewed at each log-in) nobody holds it.
    yield KnownDevice.objects.filter(last_seen__lt=now - _days("KNOWN_DEVICE_DAYS"))


def _unconfirmed_second_factors(now: datetime):
    # A set-up begun (a QR code shown) and never confirmed with a code.
    hours = timedelta(hours=settings.SECOND_FACTOR_SETUP_HOURS)
    yield TOTPDevice.objects.filter(confirmed=False, created_at__lt=now - hours)


def _stale_connections(now: datetime):
    # Rows of sockets whose server process died without closing them: counted as gone after
    # 45 s of silence (``PRESENCE_TIMEOUT``), deleted here.
    minutes = timedelta(minutes=settings.STALE_CONNECTION_MINUTES)
    yield Connection.objects.filter(seen_at__lt=now - minutes)


def _dead_workers(now: datetime):
    # Kept a while after their last beat so that an operator sees which worker died, and when.
    hours = timedelta(hours=settings.DEAD_WORKER_HOURS)
    yield WorkerBeat.objects.filter(seen_at__lt=now - hours)


def _answered_challenges(now: datetime):
    cutoff = now - _days("CHALLENGE_DAYS")
    answered = Q(answered_at__lt=cutoff) & ~Q(status=Challenge.Status.PENDING)
    never_answered = Q(status=Challenge.Status.PENDING, until__lt=cutoff)  # its lapse was lost
    yield Challenge.objects.filter(answered | never_answered)


def _decided_suggestions(now: datetime):
    # An accepted wording is in the catalogue once applied; a credited one is counted on the
    # thanks page for good.
    cutoff = now - _days("TRANSLATION_SUGGESTION_DAYS")
    status = TranslationSuggestion.Status
    rejected = Q(status=status.REJECTED, reviewed_at__lt=cutoff)
    applied = Q(status=status.ACCEPTED, credit=False, applied_at__lt=cutoff)
    yield TranslationSuggestion.objects.filter(rejected | applied)


def _mails_sent(now: datetime):
    # Counted by the mails' limits over a day at most (a turn's mail: one a match a day).
    yield MailSent.objects.filter(sent_at__lt=now - _days("MAIL_SENT_DAYS"))


def _pushes_sent(now: datetime):
    # Each holds back a second notification of one turn (a challenge, an arena): those of a
    # month ago are of turns long past.
    yield PushSent.objects.filter(sent_at__lt=now - _days("PUSH_SENT_DAYS"))


def _mail_confirmations(now: datetime):
    # A followed link is kept to tell "used" from "never was"; a link never followed stopped
    # working after MAIL_CONFIRM_HOURS, and the address waiting for it goes with it.
    cutoff = now - _days("MAIL_CONFIRMATION_DAYS")
    confirmed = Q(confirmed_at__lt=cutoff)
    abandoned = Q(confirmed_at__isnull=True, created_at__lt=cutoff) & (
        Q(sent_at__isnull=True) | Q(sent_at__lt=cutoff)
    )
    yield MailConfirmation.objects.filter(confirmed | abandoned)


def _account_log(now: datetime):
    yield AccountEvent.objects.filter(created_at__lt=now - _days("ACCOUNT_LOG_DAYS"))


def _login_attempts(now: datetime):
    # django-axes' failed attempts count for nothing past the lock's cool-off; it deletes them
    # only at a successful log-in (and then everyone's).
    yield AccessAttempt.objects.filter(attempt_time__lt=now - settings.AXES_COOLOFF_TIME)


def _login_logs(now: datetime):
    cutoff = now - _days("LOGIN_LOG_DAYS")
    yield AccessLog.objects.filter(attempt_time__lt=cutoff)
    yield AccessFailureLog.objects.filter(attempt_time__lt=cutoff)


def _chat_lines(now: datetime):
    # A line a report points at stays as long as the report does.
    reported = Report.objects.filter(chat_line=OuterRef("pk"))
    old = ChatLine.objects.filter(created_at__lt=now - _days("CHAT_DAYS"))
    yield old.exclude(Exists(reported))


def _moderation_log(now: datetime):
    # The audit first: a closed report goes once no audit row points at it any more.
    cutoff = now - _days("MODERATION_LOG_DAYS")
    yield ModerationAction.objects.filter(created_at__lt=cutoff)
    yield ArenaAudit.objects.filter(created_at__lt=cutoff)
    yield LogEntry.objects.filter(action_time__lt=cutoff)
    yield ChatTimeout.objects.filter(until__lt=cutoff)
    audited = ModerationAction.objects.filter(report=OuterRef("pk"))
    closed = Report.objects.exclude(status=Report.Status.OPEN).filter(created_at__lt=cutoff)
    yield closed.exclude(Exists(audited))


def _server_errors(now: datetime):
    # The health page counts the last hour's; a month is enough to look back on a bad night.
    yield ServerError.objects.filter(at__lt=now - _days("SERVER_ERROR_DAYS"))


def _arena_invites(now: datetime):
    over = (Arena.Status.FINISHED, Arena.Status.CANCELLED)
    cutoff = now - _days("ARENA_INVITE_DAYS")
    yield ArenaInvite.objects.filter(arena__status__in=over, arena__starts_at__lt=cutoff)


def _swept_guests(now: datetime):
    # A swept guest with matches stays a deactivated user (its matches are the opponents'
    # history): what was only the visitor's goes, as for an account deleted (``leaving``).
    gone = Q(user__guest__isnull=False, user__is_active=False)
    for model in (PlayerSettings, PuzzleRating, PuzzleAttempt, AccountSession, KnownDevice,
                  MailSent, Connection, PushSubscription, PushSent):  # fmt: skip
        yield model.objects.filter(gone)
    yield ChatMute.objects.filter(
        Q(player__guest__isnull=False, player__is_active=False)
        | Q(muted__guest__isnull=False, muted__is_active=False)
    )


KINDS: tuple[Kind, ...] = (
    Kind("expired sessions", "SESSION_COOKIE_AGE", _expired_sessions),
    Kind("ended account sessions", "SESSION_COOKIE_AGE", _ended_account_sessions),
    Kind("unused devices", "KNOWN_DEVICE_DAYS", _unused_devices),
    Kind("unconfirmed second factors", "SECOND_FACTOR_SETUP_HOURS", _unconfirmed_second_factors),
    Kind("stale connections", "STALE_CONNECTION_MINUTES", _stale_connections),
    Kind("dead workers", "DEAD_WORKER_HOURS", _dead_workers),
    Kind("answered challenges", "CHALLENGE_DAYS", _answered_challenges),
    Kind("decided suggestions", "TRANSLATION_SUGGESTION_DAYS", _decided_suggestions),
    Kind("mails sent", "MAIL_SENT_DAYS", _mails_sent),
    Kind("notifications sent", "PUSH_SENT_DAYS", _pushes_sent),
    Kind("mail confirmations", "MAIL_CONFIRMATION_DAYS", _mail_confirmations),
    Kind("account log", "ACCOUNT_LOG_DAYS", _account_log),
    Kind("login attempts", "LOGIN_LOCKOUT_MINUTES", _login_attempts),
    Kind("login logs", "LOGIN_LOG_DAYS", _login_logs),
    Kind("chat lines", "CHAT_DAYS", _chat_lines),
    Kind("moderation log", "MODERATION_LOG_DAYS", _moderation_log),
    Kind("server errors", "SERVER_ERROR_DAYS", _server_errors),
    Kind("arena invitations", "ARENA_INVITE_DAYS", _arena_invites),
    Kind("swept guests' rows", "GUEST_DAYS", _swept_guests),
)


def retention_sweep(*, now: datetime | None = None, batch: int | None = None) -> dict[str, int]:
    """Delete every row past its retention (``KINDS``), ``batch`` rows at a time (default
    ``RETENTION_BATCH``); how many of each kind went (kinds with none left out)."""
    now = now or timezone.now()
    batch = batch or settings.RETENTION_BATCH
    swept: dict[str, int] = {}
    for kind in KINDS:
        count = sum(_delete_in_batches(rows, batch) for rows in kind.rows(now))
        if count:
            swept[kind.name] = count
    return swept


def _delete_in_batches(rows: QuerySet, batch: int) -> int:
    """Delete ``rows`` ``batch`` at a time; how many of its model's rows went."""
    model = rows.model
    deleted = 0
    while True:
        pks = list(rows.values_list("pk", flat=True)[:batch])
        if not pks:
            return deleted
        try:
            with transaction.atomic():
                _total, by_model = model._base_manager.filter(pk__in=pks).delete()
        except (ProtectedError, RestrictedError, IntegrityError) as error:
            log.warning("retention: %s kept until the next sweep (%s)", model.__name__, error)
            return deleted
        deleted += by_model.get(model._meta.label, 0)
        if len(pks) < batch:
            return deleted
