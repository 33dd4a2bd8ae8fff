"""Leaving: a player deletes their account, or asks for the file of their data.

``account_delete`` does all of it in one transaction. The user row stays (matches, their moves
and rating changes are the opponents' history too, and point at it) but as nobody: renamed
``DELETED_USERNAME`` (pages say "deleted player" and link it nowhere), no password, inactive.
Its old name, as it looks, is kept from new sign-ups for ``settings.DELETED_NAME_DAYS``
(``NameReservation``). What goes: the name, settings, addresses, tokens, sessions (their open
sockets close at once), second factors, follows and blocks both ways, challenges, puzzle
answers, the words of every chat line. A match in play is resigned (the opponent wins, rated
as for a resignation); a seek is called off; entries of arenas to come are withdrawn, and of
a running arena paused. Kept: ratings already computed, reports made and reports about the
player (the moderators' queue and audit need them: a report keeps its reason and details,
its reporter shown as the deleted account), moderators' records, the account log (by number).

``data_export_request`` queues the file (``tasks.data_export``), made by the worker
(``data_export_build``, from ``db.selectors.data_export``) and offered for
``settings.DATA_EXPORT_HOURS``; one a player in that time, a new one replacing the old.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from .. import tasks
from ..db.selectors.data_export import data_of
from ..errors import Conflict, NotAllowed, TooOften
from ..i18n.names import skeleton
from ..models import (
    DELETED_USERNAME,
    AccountEvent,
    AccountSession,
    ApiToken,
    Arena,
    ArenaInvite,
    ArenaPlayer,
    Block,
    Challenge,
    ChatLine,
    ChatMute,
    Connection,
    DataExport,
    FlaggedDecision,
    Follow,
    InsightDecision,
    InsightHand,
    KnownDevice,
    MailSent,
    Match,
    MatchStatus,
    NameReservation,
    PlayerSettings,
    PushSent,
    PushSubscription,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleStreak,
    TranslationSuggestion,
    is_deleted,
    is_guest,
)
from . import events
from .account_log import account_event
from .api_tokens import api_tokens_revoke_all
from .mail_addresses import mail_addresses_forget
from .matches import match_abort, match_resign
from .second_factors import has_second_factor, second_factor_check


def account_delete(*, user, password: str, code: str = "", address: str = "") -> None:
    """Delete ``user``'s account, asked with their password (and a code of their second
    factor, if they have one). Refused, changing nothing: ``NotAllowed`` for a guest, a wrong
    password or code; ``Conflict`` if deleted already."""
    if is_guest(user):
        raise NotAllowed("guest_account")
    if not user.check_password(password or ""):
        raise NotAllowed("leaving_password_wrong")
    if has_second_factor(user) and not second_factor_check(user, code or "", address):
        raise NotAllowed("second_factor_wrong")
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if is_deleted(user) or not user.is_active:
            raise Conflict("already_deleted")
        _matches_left(user)
        _people_left(user)
        _traces_removed(user)
        NameReservation.objects.create(
            skeleton=skeleton(user.username),
            until=timezone.now() + timedelta(days=settings.DELETED_NAME_DAYS),
            user_number=user.pk,
        )
        mail_addresses_forget(user)
        user.username = DELETED_USERNAME.format(user.pk)
        user.first_name = user.last_name = user.email = ""
        user.set_unusable_password()
        user.is_active = user.is_staff = user.is_superuser = False
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        account_event(user=user, kind=AccountEvent.Kind.ACCOUNT_DELETED, address=address)
        events.sessions_check_on_commit(user.pk)  # every open socket of theirs closes


def _matches_left(user) -> None:
    """Their matches in play resigned, their seeks called off, their arenas left."""
    mine = Match.objects.filter(Q(player0=user) | Q(player1=user))
    for match_id in mine.filter(status=MatchStatus.ACTIVE).values_list("pk", flat=True):
        match_resign(user=user, match_id=match_id)
    for match_id in mine.filter(status=MatchStatus.OPEN).values_list("pk", flat=True):
        match_abort(user=user, match_id=match_id)
    entries = ArenaPlayer.objects.filter(user=user)
    to_come = entries.filter(arena__status=Arena.Status.SCHEDULED)
    arena_ids = set(to_come.values_list("arena_id", flat=True))
    to_come.delete()
    running = entries.filter(arena__status=Arena.Status.RUNNING)
    arena_ids |= set(running.values_list("arena_id", flat=True))
    running.update(paused=True)  # its points stay in the standings, under "deleted player"
    for arena_id in arena_ids:
        events.arena_changed_on_commit(arena_id)
    ArenaInvite.objects.filter(user=user).delete()


def _people_left(user) -> None:
    """Follows and blocks both ways, challenges either way: the others' pages hear of it."""
    follows = Follow.objects.filter(Q(follower=user) | Q(followed=user))
    blocks = Block.objects.filter(Q(blocker=user) | Q(blocked=user))
    others = {
        *(pk for pair in follows.values_list("follower_id", "followed_id") for pk in pair),
        *(pk for pair in blocks.values_list("blocker_id", "blocked_id") for pk in pair),
    }
    challenges = Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
    told = {pk for pair in challenges.values_list("challenger_id", "challenged_id") for pk in pair}
    for rows in (follows, blocks, challenges):
        rows.delete()
    others.discard(user.pk)
    told.discard(user.pk)
    events.follows_changed_on_commit(tuple(sorted(others)))
    if told:
        events.send_user_event_on_commit(tuple(sorted(told)))


def _traces_removed(user) -> None:
    """What the site kept of the player that the opponents' history does not need."""
    api_tokens_revoke_all(user=user)  # their open streams close
    ApiToken.objects.filter(user=user).delete()
    keys = list(AccountSession.objects.filter(user=user).values_list("session_key", flat=True))
    Session.objects.filter(session_key__in=keys).delete()
    AccountSession.objects.filter(user=user).delete()
    KnownDevice.objects.filter(user=user).delete()
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    ChatLine.objects.filter(author=user).update(
        text="", phrase="", removed_at=timezone.now()
    )  # their words gone; the rows stay where reports point at them, shown to nobody
    ChatMute.objects.filter(Q(player=user) | Q(muted=user)).delete()
    suggestions = TranslationSuggestion.objects.filter(author=user)
    suggestions.filter(status=TranslationSuggestion.Status.OPEN).delete()
    suggestions.update(credit=False)  # a wording taken stays in the catalogues, unnamed
    for model in (PlayerSettings, PuzzleRating, PuzzleAttempt, PuzzleStreak, FlaggedDecision,
                  Connection, MailSent, DataExport, PushSubscription, PushSent):  # fmt: skip
        model.objects.filter(user=user).delete()
    for model in (InsightHand, InsightDecision):  # the player's numbers; the matches stay
        model.objects.filter(player=user).delete()


def data_export_request(*, user, address: str = "") -> DataExport:
    """Ask for the file of ``user``'s data: the task worker makes it. ``TooOften`` within
    ``DATA_EXPORT_HOURS`` of the last request (``until``: when the next may be made)."""
    if is_guest(user):
        raise NotAllowed("guest_account")
    now = timezone.now()
    with transaction.atomic():
        row = DataExport.objects.select_for_update().filter(user=user).first()
        hours = timedelta(hours=settings.DATA_EXPORT_HOURS)
        if row is not None and row.requested_at > now - hours:
            raise TooOften("data_export_too_often", until=row.requested_at + hours)
        row, _created = DataExport.objects.update_or_create(
            user=user,
            defaults={"requested_at": now, "ready_at": None, "expires_at": None, "content": ""},
        )
        account_event(user=user, kind=AccountEvent.Kind.DATA_EXPORT_ASKED, address=address)
        tasks.schedule_data_export(user.pk, now)
    return row


def data_export_build(*, user_id: int, requested_at: datetime) -> bool:
    """Make the file asked for at ``requested_at`` (run by the task worker); False if that
    request was replaced, or the account deleted, meanwhile."""
    with transaction.atomic():
        row = (
            DataExport.objects.select_for_update()
            .select_related("user")
            .filter(user_id=user_id, requested_at=requested_at, ready_at__isnull=True)
            .first()
        )
        if row is None:
            return False
        row.content = json.dumps(data_of(user=row.user), cls=DjangoJSONEncoder, indent=1)
        row.ready_at = timezone.now()
        row.expires_at = row.ready_at + timedelta(hours=settings.DATA_EXPORT_HOURS)
        row.save(update_fields=["content", "ready_at", "expires_at"])
    return True


def leaving_sweep(*, now: datetime | None = None) -> int:
    """Files of players' data past their day, and names whose delay has passed, gone (run
    by the task workers' hourly sweep); how many."""
    now = now or timezone.now()
    with transaction.atomic():
        files, _kinds = DataExport.objects.filter(expires_at__lte=now).delete()
        names, _kinds = NameReservation.objects.filter(until__lte=now).delete()
    return files + names
