"""A player's mail address, confirmed before it is mailed anything but its confirmation link,
and the one way every mail of the site goes out (``mail_send``).

The confirmed address is ``User.email``; only a followed confirmation link sets it. An
address given (at sign-up, keeping a guest's games, or on the account page with the password)
waits in a ``MailConfirmation`` row, whose link (a random key: only its hash is kept) works
once, for ``MAIL_CONFIRM_HOURS``. Changing the address tells the confirmed one, which keeps
the mail until the new one is confirmed.

Every sender asks ``mail_address(user, kind)``: the confirmed address, unless the player has
turned that kind off. Each kind but "security" can be turned off from the account page or in
one click from the mail itself (RFC 8058: ``List-Unsubscribe`` with a signed link that works
``MAIL_UNSUBSCRIBE_DAYS``; a POST to it turns that kind off). The words are the templates'
(``templates/mail/``), rendered in the player's language.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import smtplib
from datetime import UTC, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from ..errors import Conflict, NotAllowed, NotFound, Throttled, TooOften
from ..models import AccountEvent, MailConfirmation, MailSent, PlayerSettings
from . import throttle
from .account_log import account_event

log = logging.getLogger(__name__)

TURN, ARENA, NEW_LOGIN, SECURITY = "turn", "arena", "new_login", "security"
# The kinds a player may turn off, and the setting that says whether they want each.
CHOICES = {TURN: "turn_mail", ARENA: "arena_mail", NEW_LOGIN: "new_login_mail"}
KINDS = (*CHOICES, SECURITY)
CONFIRM = "confirm"  # the link to the address being confirmed: no other mail goes there

UNSUBSCRIBE_SALT = "games.mail-unsubscribe"


def mail_address(user, kind: str) -> str | None:
    """Where to send ``user`` a mail of ``kind`` (one of ``KINDS``): their confirmed address,
    or None if they have none, their account is closed, or they turned that kind off."""
    if kind not in KINDS:
        raise ValueError(f"no mail kind {kind!r}")
    if user is None or not user.is_active or not user.email:
        return None
    if kind in CHOICES:
        off = PlayerSettings.objects.filter(user=user, **{CHOICES[kind]: False})
        if off.exists():
            return None
    return user.email


def mail_kinds_wanted(*, user) -> dict[str, bool]:
    """Each kind a player may turn off, and whether they want it (yes unless they said no)."""
    found = PlayerSettings.objects.filter(user=user).values(*CHOICES.values()).first() or {}
    return {kind: found.get(field, True) for kind, field in CHOICES.items()}


def mail_turn_each(*, user) -> bool:
    """Whether the player wants every turn's mail, not at most one a match a day."""
    return PlayerSettings.objects.filter(user=user, turn_mail_each=True).exists()


def mail_kind_set(*, user, kind: str, wanted: bool) -> None:
    """Whether ``user`` wants mails of ``kind`` (one of ``CHOICES``)."""
    if kind not in CHOICES:
        raise NotFound("no_such_mail_kind")
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={CHOICES[kind]: bool(wanted)})


def mail_kinds_set(*, user, wanted: dict[str, bool], turn_each: bool) -> None:
    """The account page's choices at once: each kind on or off, and every turn's mail rather
    than one a match a day."""
    fields = {CHOICES[kind]: bool(on) for kind, on in wanted.items() if kind in CHOICES}
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(
            user=user, defaults={**fields, "turn_mail_each": bool(turn_each)}
        )


def unsubscribe_token(user_id: int, kind: str) -> str:
    """The signed token of a mail's one-click unsubscription from ``kind``."""
    return signing.dumps([user_id, kind], salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_target(token: str):
    """The player and the kind a token unsubscribes; NotFound for a token not ours, Conflict
    for one older than ``MAIL_UNSUBSCRIBE_DAYS``."""
    max_age = timedelta(days=settings.MAIL_UNSUBSCRIBE_DAYS)
    try:
        user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=max_age)
    except signing.SignatureExpired:
        raise Conflict("mail_link_expired") from None
    except (signing.BadSignature, ValueError, TypeError):
        raise NotFound("mail_link_invalid") from None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or kind not in CHOICES:
        raise NotFound("mail_link_invalid")
    return user, kind


def mail_send(
    *, user, kind: str, template: str, context: dict, to: str | None = None, match=None
) -> bool:
    """Send ``user`` the mail ``template`` (``<template>_subject.txt`` on one line, and
    ``<template>.txt``) of ``kind``, in their language, times in UTC: to ``mail_address``
    unless ``to`` is given (the confirmation link's own address). A kind that may be turned
    off carries its one-click unsubscription (``unsubscribe_url`` in the context, and RFC
    8058's headers). True if it went out; a mail server that fails is logged, not raised."""
    to = to if to is not None else mail_address(user, kind)
    if not to:
        return False
    site = settings.SITE_URL.rstrip("/")
    headers = {}
    context = {"player": user.username, "site_url": site, **context}
    if kind in CHOICES:
        url = site + reverse("mail_unsubscribe", args=[unsubscribe_token(user.pk, kind)])
        context["unsubscribe_url"] = url
        headers = {
            "List-Unsubscribe": f"<{url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    language = PlayerSettings.objects.filter(user=user).values_list("language", flat=True).first()
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(UTC):
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = render_to_string(f"{template}.txt", context)
    try:
        EmailMultiAlternatives(subject, body, to=[to], headers=headers).send()
    except (OSError, smtplib.SMTPException) as error:
        log.warning("mail %s to player %s not sent: %s", kind, user.pk, error)
        return False
    MailSent.objects.create(user=user, kind=kind, match=match)
    return True


def _key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def mail_pending(*, user) -> MailConfirmation | None:
    """The address ``user`` gave that waits for its link, if any."""
    rows = MailConfirmation.objects.filter(user=user, confirmed_at__isnull=True)
    return rows.order_by("-created_at").first()


def _link_send(user, row: MailConfirmation) -> bool:
    """A new link for ``row`` (the last one sent stops working), mailed to its address: at most
    ``MAIL_CONFIRM_LIMIT`` an hour a player and an address (Throttled beyond)."""
    limit = settings.MAIL_CONFIRM_LIMIT
    throttle.hit("mail-confirm-player", str(user.pk), limit, 3600)
    throttle.hit("mail-confirm-address", row.address.lower(), limit, 3600)
    key = secrets.token_urlsafe(32)
    row.key_hash, row.sent_at = _key_hash(key), timezone.now()
    row.save(update_fields=["key_hash", "sent_at"])
    site = settings.SITE_URL.rstrip("/")
    context = {
        "url": site + reverse("mail_confirm", args=[key]),
        "hours": settings.MAIL_CONFIRM_HOURS,
    }
    return mail_send(
        user=user, kind=CONFIRM, template="mail/confirm_address", context=context, to=row.address
    )


def mail_address_set(
    *, user, address: str, password: str | None = None, address_ip: str = ""
) -> bool:
    """``user`` gives ``address`` (or "" for none): it waits for its confirmation link, sent
    now, and the confirmed address (if any) is told, and keeps the mail until then. From the
    account page the current ``password`` is asked (NotAllowed if wrong); sign-up and keeping
    a guest's games pass none. True if the link went out (not over the limits)."""
    if password is not None and not user.check_password(password):
        raise NotAllowed("mail_password_wrong")
    address = address.strip()
    old = user.email
    with transaction.atomic():
        MailConfirmation.objects.filter(user=user, confirmed_at__isnull=True).delete()
        if address.lower() == old.lower() and address:
            return False  # the confirmed one already: nothing to confirm
        if not address:
            user.email = ""
            user.save(update_fields=["email"])
            row = None
        else:
            row = MailConfirmation.objects.create(user=user, address=address)
        account_event(user=user, kind=AccountEvent.Kind.MAIL_SET, address=address_ip)
    if old:
        context = {
            "removed": not address,
            "url": settings.SITE_URL.rstrip("/") + reverse("account"),
        }
        mail_send(
            user=user, kind=SECURITY, template="mail/address_changed", context=context, to=old
        )
    if row is None:
        return False
    try:
        return _link_send(user, row)
    except Throttled:
        return False


def mail_confirm_again(*, user) -> str:
    """Send the waiting address's link again (the last one stops working); its address.
    NotFound if none waits, TooOften past the limits."""
    row = mail_pending(user=user)
    if row is None:
        raise NotFound("no_mail_pending")
    try:
        _link_send(user, row)
    except Throttled as error:
        raise TooOften("too_often", seconds=error.retry_after) from None
    return row.address


def _link_row(key: str, *, lock: bool = False) -> MailConfirmation:
    """The waiting address of a confirmation link; refused as ``mail_address_confirm`` says."""
    rows = MailConfirmation.objects.select_related("user")
    row = (rows.select_for_update() if lock else rows).filter(key_hash=_key_hash(key)).first()
    if row is None or not key:
        raise NotFound("mail_link_invalid")
    if row.confirmed_at is not None:
        raise Conflict("mail_link_used")
    if row.sent_at < timezone.now() - timedelta(hours=settings.MAIL_CONFIRM_HOURS):
        raise Conflict("mail_link_expired")
    return row


def mail_link_address(*, key: str) -> str:
    """The address a confirmation link would confirm (a read: the page with the button);
    refused as ``mail_address_confirm`` says."""
    return _link_row(key).address


def mail_address_confirm(*, key: str, address_ip: str = ""):
    """Follow a confirmation link: its address becomes the player's, who is returned. Refused
    if the link is not one or was replaced by a newer one (NotFound), or was followed already
    or is older than ``MAIL_CONFIRM_HOURS`` (Conflict)."""
    with transaction.atomic():
        row = _link_row(key, lock=True)
        user = row.user
        row.confirmed_at = timezone.now()
        row.save(update_fields=["confirmed_at"])
        user.email = row.address
        user.save(update_fields=["email"])
        account_event(user=user, kind=AccountEvent.Kind.MAIL_CONFIRMED, address=address_ip)
    return user


def mail_addresses_forget(user) -> None:
    """Every address of ``user`` gone, confirmed or waiting, and every link (an account that
    leaves)."""
    with transaction.atomic():
        MailConfirmation.objects.filter(user=user).delete()
        if user.email:
            user.email = ""
            user.save(update_fields=["email"])


def password_reset_targets(*, address: str) -> list:
    """The accounts a password reset asked for ``address`` mails, in one mail: those whose
    confirmed address it is (active, with a password), unless the address had
    ``PASSWORD_RESET_LIMIT`` mails in ``PASSWORD_RESET_WINDOW_SECONDS``; each account too.
    [] otherwise, which the page does not tell apart."""
    users = get_user_model().objects.filter(email__iexact=address.strip(), is_active=True)
    found = [u for u in users if u.has_usable_password() and u.email]
    if not found:
        return []
    limit, seconds = settings.PASSWORD_RESET_LIMIT, settings.PASSWORD_RESET_WINDOW_SECONDS
    try:
        throttle.hit("reset-address", address.strip().lower(), limit, seconds)
    except Throttled:
        return []
    targets = []
    for user in found:
        try:
            throttle.hit("reset-account", str(user.pk), limit, seconds)
        except Throttled:
            continue
        targets.append(user)
    return targets
