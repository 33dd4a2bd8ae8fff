"""Guests: a visitor plays at once, without an account ("Play now"), as a real user marked as
a guest (``models.Guest``); keeping the games turns that same user into an account; guests
not seen for ``GUEST_DAYS`` are swept away.

A guest plays the computer and casual matches with people, and nothing that would need an
account to answer for it: no rated match, no challenge either way, no API token, no bot. The
refusals live with the services they guard (matches, pairing, challenges, api_tokens,
players); the rule is ``models.is_guest``.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q
from django.utils import timezone

from ..errors import Conflict, NotAllowed
from ..models import GUEST_USERNAME, Guest, Match, MatchStatus
from . import events
from .core import match_abort_now, match_save, players_locked
from .mail_addresses import mail_address_set

_rng = random.SystemRandom()
# A guest's number: four digits while they are easy to find free, then five, then six.
_DIGITS = (4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)


def guest_create():
    """A new guest user, "Guest 4821": no usable password (only the session that made it is
    logged in as it), never a name anyone can sign up with (the space)."""
    users = get_user_model().objects
    with transaction.atomic():
        for digits in _DIGITS:
            name = GUEST_USERNAME.format(_rng.randrange(10 ** (digits - 1), 10**digits))
            if users.filter(username=name).exists():
                continue
            try:
                with transaction.atomic():  # a savepoint: a name taken meanwhile is retried
                    user = users.create(username=name, password=make_password(None))
            except IntegrityError:
                continue
            Guest.objects.create(user=user, seen_at=timezone.now())
            user._is_guest = True
            return user
    raise Conflict("no_guest_name")  # a million guests at once: not this site's problem yet


def guest_keep(*, user, username: str, password: str, email: str = ""):
    """Keep the guest's games: the same user gets ``username`` (checked by the sign-up form)
    and ``password`` and is a guest no more, so its matches, ratings and settings stay; the
    address, if given, waits for the confirmation link mailed to it (``mail_addresses``)."""
    with transaction.atomic():
        players_locked(user)
        guest = Guest.objects.select_for_update().filter(user_id=user.pk).first()
        if guest is None:
            raise NotAllowed("not_a_guest")
        user.username = username
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save(update_fields=["username", "password"])
        except IntegrityError:
            raise Conflict("name_taken") from None
        guest.delete()
    user._is_guest = False
    if email:
        mail_address_set(user=user, address=email)
    return user


def guest_seen(*, user) -> None:
    """The guest visited now (the web layer calls this at most hourly)."""
    Guest.objects.filter(user_id=user.pk).update(seen_at=timezone.now())


def guests_sweep(*, now: datetime | None = None) -> int:
    """Remove the guests not seen for ``GUEST_DAYS``; how many were swept.

    A guest who never played is deleted with everything of theirs. Matches cannot go: a
    match, its moves (append-only) and its rating changes are the other player's history too
    (the foreign keys PROTECT them). So a guest with matches is kept as a deactivated row,
    "Guest 4821" and nothing else about the visitor (no password, no e-mail): nobody can log
    in as it again, its session is over, its open matches are called off, and the opponents'
    histories still name it. Run by the task workers' sweep (``run_worker``); idempotent."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_DAYS)
    stale = Guest.objects.filter(seen_at__lt=cutoff, user__is_active=True)
    swept = 0
    for user_id in stale.values_list("user_id", flat=True):
        with transaction.atomic():
            user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
            guest = Guest.objects.filter(user_id=user_id, seen_at__lt=cutoff).first()
            if user is None or guest is None or not user.is_active:
                continue  # it came back (or was swept) meanwhile
            for match in Match.objects.filter(player0=user, status=MatchStatus.OPEN):
                match_abort_now(match)
                match_save(match, lobby=True)
            mine = Q(player0=user) | Q(player1=user) | Q(created_by=user)
            if not Match.objects.filter(mine).exists() and _deleted(user):
                swept += 1
                continue
            user.is_active = False
            user.save(update_fields=["is_active"])
            events.sessions_check_on_commit(user.pk)
            swept += 1
    return swept


def _deleted(user) -> bool:
    """Delete the user if nothing protects it (a moderator's record of it may); True if so."""
    try:
        with transaction.atomic():
            user.delete()
    except ProtectedError:
        return False
    return True
