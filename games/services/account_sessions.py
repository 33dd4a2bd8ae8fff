"""Where a player is logged in: a row of theirs for each session (``AccountSession``), made at
log-in, followed as the session is renewed, removed at log-out; ending one (or all but this
one) from the account page deletes Django's session and closes its sockets at once, as a
log-out does. And the devices they logged in from (``KnownDevice``): a log-in from a browser
whose device cookie is not one of theirs is mailed to them by the task worker, if they want it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from .. import tasks
from ..errors import NotFound
from ..models import AccountEvent, AccountSession, KnownDevice, is_guest
from . import events
from .account_log import account_event
from .mail_addresses import NEW_LOGIN, mail_address, mail_send

# How often a session's "last seen" is written, at most (seconds): the list needs minutes.
SEEN_EVERY = 300
# The device cookie's value: 32 random bytes, URL-safe base64 (43 characters).
DEVICE_TOKEN_LENGTH = 43


def account_session_open(
    *, user, session_key: str, user_agent: str = "", address: str = "", logged_in: bool = True
) -> AccountSession:
    """The row of a session just logged in as ``user``, in the account log, or (``logged_in``
    false) of one found without a row: a session from before the rows were kept. The player's
    rows whose sessions have expired go."""
    now = timezone.now()
    with transaction.atomic():
        live = Session.objects.filter(session_key=OuterRef("session_key"), expire_date__gt=now)
        AccountSession.objects.filter(user=user).exclude(Exists(live)).delete()
        row, _ = AccountSession.objects.update_or_create(
            session_key=session_key,
            defaults={"user": user, "user_agent": user_agent[:300], "last_seen": now},
        )
        if logged_in and not is_guest(user):
            account_event(
                user=user, kind=AccountEvent.Kind.LOGIN, detail=user_agent, address=address
            )
    return row


def account_session_seen(*, user, session_id: int, session_key: str) -> bool:
    """Note that the session ``session_id`` was used now, under ``session_key`` (its key
    changes when Django renews it: a password change, a guest keeping its games). False if
    the row is gone. One statement, no lock: a later visit only moves it forward."""
    found = AccountSession.objects.filter(pk=session_id, user=user)
    return found.update(session_key=session_key, last_seen=timezone.now()) == 1


def account_session_close(*, session_key: str) -> None:
    """The session ``session_key`` was logged out: its row goes."""
    AccountSession.objects.filter(session_key=session_key).delete()


def account_session_end(*, user, session_id: int, address: str = "") -> str:
    """End one of ``user``'s sessions: Django's session row is deleted (its next request is
    logged out) and its open sockets close after the commit (4401). Returns its key (the
    caller logs out its own session if that was the one). ``NotFound`` if ``session_id`` is
    not a session of theirs."""
    with transaction.atomic():
        row = AccountSession.objects.select_for_update().filter(pk=session_id, user=user).first()
        if row is None:
            raise NotFound("no_such_session")
        Session.objects.filter(session_key=row.session_key).delete()
        row.delete()
        account_event(
            user=user, kind=AccountEvent.Kind.SESSION_ENDED, detail=row.user_agent, address=address
        )
        _sockets_close_on_commit(user.pk, [row.session_key])
    return row.session_key


def account_sessions_end_others(*, user, keep_key: str, address: str = "") -> int:
    """End every session of ``user``'s but ``keep_key`` (this one), as ``account_session_end``
    ends one. Returns how many ended."""
    with transaction.atomic():
        rows = AccountSession.objects.select_for_update().filter(user=user)
        keys = [key for key in rows.values_list("session_key", flat=True) if key != keep_key]
        if keys:
            Session.objects.filter(session_key__in=keys).delete()
            AccountSession.objects.filter(user=user, session_key__in=keys).delete()
            account_event(
                user=user,
                kind=AccountEvent.Kind.SESSIONS_ENDED,
                detail=str(len(keys)),
                address=address,
            )
            _sockets_close_on_commit(user.pk, keys)
    return len(keys)


def _sockets_close_on_commit(user_id: int, keys: list[str]) -> None:
    # The same news a log-out sends (games.realtime.sessions): each socket of these sessions
    # closes without a check; the per-frame check would find the session gone anyway.
    def send() -> None:
        for key in keys:
            event = {"type": "session.ended", "session_key": key}
            events.send_to_group(events.user_group(user_id), event)

    transaction.on_commit(send)


def device_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def device_login(*, user, token: str | None, user_agent: str = "", address: str = "") -> str:
    """A log-in of ``user`` from the browser whose device cookie holds ``token`` (None: it has
    none). Returns the value the cookie keeps (``token``, or a new one). A device the player
    had not logged in from is remembered, logged, and mailed to them by the task worker (which
    mails only a confirmed address that wants it)."""
    if not token or len(token) != DEVICE_TOKEN_LENGTH:
        token = secrets.token_urlsafe(32)
    if is_guest(user):  # no address, no list of devices: nothing to warn of
        return token
    digest, now = device_digest(token), timezone.now()
    with transaction.atomic():
        if KnownDevice.objects.filter(user=user, digest=digest).update(last_seen=now):
            return token
        KnownDevice.objects.create(user=user, digest=digest)
        account_event(
            user=user, kind=AccountEvent.Kind.NEW_DEVICE, detail=user_agent, address=address
        )
        tasks.schedule_new_device_mail(user.pk, user_agent[:300], now)
    return token


def new_device_mail_send(*, user_id: int, user_agent: str, at: str) -> bool:
    """Mail the player of a log-in from a new device at ``at`` (the task worker's), naming the
    device and the time, with a link to the account page where its session can be ended; only
    to a confirmed address that has not unsubscribed from these mails. True if one went out."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or mail_address(user, NEW_LOGIN) is None:
        return False
    context = {
        "device": user_agent,
        "at": datetime.fromisoformat(at),
        "url": settings.SITE_URL.rstrip("/") + reverse("account") + "#sessions",
    }
    return mail_send(user=user, kind=NEW_LOGIN, template="mail/new_device", context=context)
