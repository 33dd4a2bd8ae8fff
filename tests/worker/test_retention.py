"""Bounded data: each kind of row that grows by itself is deleted past its retention by the
workers' sweep (``services.retention_sweep``), the fresh rows of the same kind kept. Rows are
made old by moving their times back, never by waiting."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_redis import get_redis_connection

from games import services
from games.models import (
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
    PuzzleRating,
    Report,
    ServerError,
    TranslationSuggestion,
    WorkerBeat,
)
from games.services import throttle
from tests.support.limits import on_redis
from tests.support.matches import start
from tests.support.servers import Worker, server_env

pytestmark = pytest.mark.django_db


def ago(**delta) -> datetime:
    return timezone.now() - timedelta(**delta)


def aged(row, **times):
    """``row`` with its times moved back (``auto_now`` fields are set only by an update)."""
    type(row).objects.filter(pk=row.pk).update(**times)
    return row


def left(model, *rows) -> set[int]:
    """Which of ``rows`` are still there."""
    return set(model.objects.filter(pk__in=[r.pk for r in rows]).values_list("pk", flat=True))


def session(expires) -> Session:
    store = SessionStore()
    store.create()
    return aged(Session.objects.get(session_key=store.session_key), expire_date=expires)


def test_sessions_past_their_expiry_go_and_live_ones_stay(alice):
    expired, live = session(ago(minutes=1)), session(ago(days=-14))
    ended = AccountSession.objects.create(user=alice, session_key="gone", last_seen=ago(hours=2))
    renewed_now = AccountSession.objects.create(user=alice, session_key="renewed", last_seen=ago())
    kept = AccountSession.objects.create(
        user=alice, session_key=live.session_key, last_seen=ago(days=3)
    )
    swept = services.retention_sweep()
    assert swept["expired sessions"] == 1 and swept["ended account sessions"] == 1
    assert left(Session, expired, live) == {live.pk}
    # A key renewed a moment ago (a password change) waits for the row to follow it.
    assert left(AccountSession, ended, renewed_now, kept) == {renewed_now.pk, kept.pk}


def test_devices_unused_past_the_device_cookie_s_life_are_forgotten(alice, settings):
    settings.KNOWN_DEVICE_DAYS = 400
    unused = aged(KnownDevice.objects.create(user=alice, digest="a"), last_seen=ago(days=401))
    used = aged(KnownDevice.objects.create(user=alice, digest="b"), last_seen=ago(days=399))
    begun = aged(TOTPDevice.objects.create(user=alice, confirmed=False), created_at=ago(days=2))
    begun_now = TOTPDevice.objects.create(user=alice, name="now", confirmed=False)
    confirmed = aged(
        TOTPDevice.objects.create(user=alice, confirmed=True), created_at=ago(days=900)
    )
    services.retention_sweep()
    assert left(KnownDevice, unused, used) == {used.pk}
    assert left(TOTPDevice, begun, begun_now, confirmed) == {begun_now.pk, confirmed.pk}


def test_rows_of_sockets_and_workers_long_silent_go(alice):
    stale = Connection.objects.create(user=alice, channel_name="dead", seen_at=ago(minutes=61))
    live = Connection.objects.create(user=alice, channel_name="live", seen_at=ago(seconds=5))
    dead = WorkerBeat.objects.create(worker_id="dead", host="h", pid=1, seen_at=ago(hours=25))
    # Dead for a while but kept a day, for the operator to see which worker died and when.
    died = WorkerBeat.objects.create(worker_id="died", host="h", pid=2, seen_at=ago(hours=1))
    services.retention_sweep()
    assert left(Connection, stale, live) == {live.pk}
    assert left(WorkerBeat, dead, died) == {died.pk}


def challenge(alice, bob, **fields) -> Challenge:
    row = Challenge.objects.create(challenger=alice, challenged=bob, until=ago(days=-1))
    return aged(row, **fields)


def test_challenges_answered_a_month_ago_go_and_waiting_ones_stay(alice, bob):
    declined = challenge(alice, bob, status=Challenge.Status.DECLINED, answered_at=ago(days=31))
    lapsed_lately = challenge(alice, bob, status=Challenge.Status.LAPSED, answered_at=ago(days=2))
    lost_lapse = challenge(alice, bob, until=ago(days=31))
    waiting = challenge(alice, bob)
    services.retention_sweep()
    kept = left(Challenge, declined, lapsed_lately, lost_lapse, waiting)
    assert kept == {lapsed_lately.pk, waiting.pk}


def suggestion(alice, **fields) -> TranslationSuggestion:
    row = TranslationSuggestion.objects.create(language="th", msgid="Deal", text="x", author=alice)
    return aged(row, **fields)


def test_decided_suggestions_go_but_the_credited_ones_the_thanks_page_counts(alice):
    status, long_ago = TranslationSuggestion.Status, ago(days=91)
    rejected = suggestion(alice, status=status.REJECTED, reviewed_at=long_ago)
    rejected_lately = suggestion(alice, status=status.REJECTED, reviewed_at=ago(days=1))
    taken = suggestion(alice, status=status.ACCEPTED, reviewed_at=long_ago, applied_at=long_ago)
    credited = suggestion(
        alice, status=status.ACCEPTED, credit=True, reviewed_at=long_ago, applied_at=long_ago
    )
    waiting = suggestion(alice, created_at=long_ago)
    services.retention_sweep()
    kept = left(TranslationSuggestion, rejected, rejected_lately, taken, credited, waiting)
    assert kept == {rejected_lately.pk, credited.pk, waiting.pk}


def test_mails_sent_and_confirmation_links_go_after_a_month(alice):
    old_mail = aged(MailSent.objects.create(user=alice, kind="turn"), sent_at=ago(days=31))
    recent_mail = aged(MailSent.objects.create(user=alice, kind="turn"), sent_at=ago(days=1))

    def link(**fields) -> MailConfirmation:
        return aged(MailConfirmation.objects.create(user=alice, address="a@example.com"), **fields)

    followed = link(confirmed_at=ago(days=31), sent_at=ago(days=32), created_at=ago(days=32))
    never_followed = link(sent_at=ago(days=31), created_at=ago(days=31))
    never_sent = link(created_at=ago(days=31))
    waiting = link(sent_at=ago(hours=1), created_at=ago(days=40))  # sent again lately
    services.retention_sweep()
    assert left(MailSent, old_mail, recent_mail) == {recent_mail.pk}
    assert left(MailConfirmation, followed, never_followed, never_sent, waiting) == {waiting.pk}


def test_notifications_sent_go_after_a_month_and_the_devices_stay(alice):
    told = {"user": alice, "kind": "turn", "subject": 1}
    old = aged(PushSent.objects.create(mark=1, **told), sent_at=ago(days=31))
    recent = aged(PushSent.objects.create(mark=2, **told), sent_at=ago(days=1))
    device = PushSubscription.objects.create(user=alice, endpoint="https://push.example/a",
                                             p256dh="k", auth="a", kinds="turn")  # fmt: skip
    aged(device, created_at=ago(days=400))
    services.retention_sweep()
    assert left(PushSent, old, recent) == {recent.pk}
    assert left(PushSubscription, device) == {device.pk}


def test_the_account_log_and_the_log_in_records_are_bounded(alice, settings):
    old = aged(services.account_event(user=alice, kind="login"), created_at=ago(days=366))
    recent = aged(services.account_event(user=alice, kind="login"), created_at=ago(days=364))
    fields = {"user_agent": "b", "ip_address": "10.0.0.1", "http_accept": "*", "path_info": "/"}

    def attempt(name: str, when) -> AccessAttempt:
        row = AccessAttempt.objects.create(
            username=name, get_data="", post_data="", failures_since_start=1, **fields
        )
        return aged(row, attempt_time=when)

    cooled = attempt("a", ago(minutes=16))  # past LOGIN_LOCKOUT_MINUTES: counts for nothing
    counting = attempt("b", ago(minutes=14))
    logged = [aged(AccessLog.objects.create(**fields), attempt_time=ago(days=d)) for d in (91, 89)]
    failed = [
        aged(AccessFailureLog.objects.create(**fields), attempt_time=ago(days=d)) for d in (91, 89)
    ]
    services.retention_sweep()
    assert left(AccountEvent, old, recent) == {recent.pk}
    assert left(AccessAttempt, cooled, counting) == {counting.pk}
    assert left(AccessLog, *logged) == {logged[1].pk}
    assert left(AccessFailureLog, *failed) == {failed[1].pk}


def test_chat_lines_go_after_a_year_unless_a_report_still_points_at_them(alice, bob):
    match = start(alice, bob)

    def line(days: int) -> ChatLine:
        row = ChatLine.objects.create(match=match, author=alice, text="hi")
        return aged(row, created_at=ago(days=days))

    old, reported, recent = line(366), line(366), line(364)
    report = Report.objects.create(
        reporter=bob, reported=alice, match=match, chat_line=reported, reason="abuse"
    )
    services.retention_sweep()
    assert left(ChatLine, old, reported, recent) == {reported.pk, recent.pk}
    assert left(Report, report) == {report.pk}  # open: never swept


def test_the_moderators_records_are_kept_two_years_then_go_together(alice, bob, carol):
    match = start(alice, bob)
    long_ago, lately = ago(days=731), ago(days=700)

    def closed_report(when) -> tuple[Report, ModerationAction]:
        report = Report.objects.create(
            reporter=bob, reported=alice, match=match, reason="abuse", status="resolved"
        )
        action = ModerationAction.objects.create(
            moderator=carol, kind="resolve", report=report, player=alice, reason="spoke to them"
        )
        return aged(report, created_at=when), aged(action, created_at=when)

    old_report, old_action = closed_report(long_ago)
    kept_report, kept_action = closed_report(lately)
    open_report = aged(
        Report.objects.create(reporter=bob, reported=alice, reason="other"), created_at=long_ago
    )
    timeouts = [
        ChatTimeout.objects.create(player=alice, until=when, reason="r", moderator=carol)
        for when in (long_ago, lately)
    ]
    entries = [
        aged(
            LogEntry.objects.create(user=carol, action_flag=ADDITION, object_repr="x"),
            action_time=when,
        )
        for when in (long_ago, lately)
    ]
    arena = Arena.objects.create(
        name="Old", created_by=carol, starts_at=ago(days=800), minutes=30, status="finished"
    )
    audits = [
        aged(ArenaAudit.objects.create(arena=arena, actor=carol, kind="created"), created_at=when)
        for when in (long_ago, lately)
    ]
    services.retention_sweep()
    # The report went with the audit of its resolution; the later ones both stay.
    assert left(ModerationAction, old_action, kept_action) == {kept_action.pk}
    assert left(Report, old_report, kept_report, open_report) == {kept_report.pk, open_report.pk}
    assert left(ChatTimeout, *timeouts) == {timeouts[1].pk}
    assert left(LogEntry, *entries) == {entries[1].pk}
    assert left(ArenaAudit, *audits) == {audits[1].pk}
    assert left(Arena, arena) == {arena.pk}  # its standings are kept for good


def test_invitations_of_arenas_long_over_go_and_the_standings_stay(alice, bob, carol):
    def arena(status: str, days: int) -> Arena:
        return Arena.objects.create(
            name="A", created_by=carol, starts_at=ago(days=days), minutes=30, status=status
        )

    over, cancelled, to_come = arena("finished", 31), arena("cancelled", 31), arena("scheduled", -1)
    invites = [ArenaInvite.objects.create(arena=a, user=alice) for a in (over, cancelled, to_come)]
    standing = over.players.create(user=bob, score=4, wins=2)
    services.retention_sweep()
    assert left(ArenaInvite, *invites) == {invites[2].pk}
    assert over.players.filter(pk=standing.pk).exists()


def test_server_errors_go_after_a_month():
    old = ServerError.objects.create(at=ago(days=31), kind="request", status=500)
    recent = ServerError.objects.create(at=ago(days=29), kind="request", status=500)
    services.retention_sweep()
    assert left(ServerError, old, recent) == {recent.pk}


def test_what_a_swept_guest_leaves_goes_and_a_guest_still_playing_keeps_theirs(alice):
    swept, playing = services.guest_create(), services.guest_create()
    match = start(alice, swept, rated=False)
    type(swept).objects.filter(pk=swept.pk).update(is_active=False)  # as guests_sweep leaves it
    rows = {}
    for guest in (swept, playing):
        rows[guest.pk] = [
            PlayerSettings.objects.create(user=guest),
            PuzzleRating.objects.create(user=guest),
            KnownDevice.objects.create(user=guest, digest="d"),
            MailSent.objects.create(user=guest, kind="turn"),
            Connection.objects.create(user=guest, channel_name=f"c{guest.pk}", seen_at=ago()),
            ChatMute.objects.create(match=match, player=guest, muted=alice),
        ]
    services.retention_sweep()
    for row in rows[swept.pk]:
        assert not type(row).objects.filter(pk=row.pk).exists(), type(row).__name__
    for row in rows[playing.pk]:
        assert type(row).objects.filter(pk=row.pk).exists(), type(row).__name__
    assert type(swept).objects.filter(pk=swept.pk).exists()  # the opponent's history names it


def test_a_sweep_deletes_in_batches_and_a_second_sweep_finds_nothing(settings):
    settings.RETENTION_BATCH = 10
    expired = [session(ago(minutes=1)) for _ in range(25)]
    live = session(ago(days=-1))
    with CaptureQueriesContext(connection) as queries:
        swept = services.retention_sweep()
    assert swept == {"expired sessions": 25}
    deletes = [q["sql"] for q in queries if q["sql"].startswith('DELETE FROM "django_session"')]
    assert len(deletes) == 3  # 10, 10, 5: no statement holds more than a batch
    assert left(Session, *expired, live) == {live.pk}
    assert services.retention_sweep() == {}  # idempotent: two workers sweeping delete once


@pytest.fixture
def redis_prefix(settings) -> str:
    return on_redis(settings)


def test_rate_limit_keys_expire_by_themselves_with_their_window(redis_prefix, alice):
    """Nothing sweeps the limits' counts: each key in Redis carries the time to live of its
    window, so a key no longer hit is gone when its window is."""
    throttle.move(alice)  # 10 s
    throttle.hit("reset-address", "someone@example.com", 1, 900)
    redis = get_redis_connection("default")
    keys = list(redis.scan_iter(f"*{redis_prefix}*"))
    assert len(keys) == 2
    lives = sorted(redis.ttl(key) for key in keys)
    assert 0 < lives[0] <= 10 and 10 < lives[1] <= 900


@pytest.mark.django_db(transaction=True)  # the worker process reads what this test committed
def test_a_real_worker_sweeps_old_rows_and_keeps_fresh_ones(alice, bob):
    match = start(alice, bob)
    expired, live = session(ago(minutes=1)), session(ago(days=-1))
    old_line = aged(ChatLine.objects.create(match=match, author=alice), created_at=ago(days=366))
    new_line = ChatLine.objects.create(match=match, author=bob)
    old_mail = aged(MailSent.objects.create(user=alice, kind="turn"), sent_at=ago(days=31))
    worker = Worker(server_env()).start()
    try:
        line = worker.wait_for_line("retention sweep:")
    finally:
        worker.stop()
    assert "expired sessions 1" in line and "chat lines 1" in line and "mails sent 1" in line
    assert left(Session, expired, live) == {live.pk}
    assert left(ChatLine, old_line, new_line) == {new_line.pk}
    assert not left(MailSent, old_mail)
