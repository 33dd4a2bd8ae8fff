"""Second factors: an authenticator app's codes (TOTP, django-otp's ``TOTPDevice``) and single-use
recovery codes (its ``StaticDevice``), optional for players and required of staff before the
admin opens (``euchre_site.admin``).

Setting one up: ``second_factor_begin`` makes an unconfirmed device (its key shown as a QR
code and as text); ``second_factor_confirm`` with a code from the app confirms it and makes
the recovery codes, shown once. Only a confirmed device counts (``has_second_factor``).

A code is checked by ``second_factor_verify`` (the device that took it, or a refusal) or
``second_factor_check`` (a yes or no, for other services' confirmations): an app's code is
taken once (django-otp keeps the last time step used, so a replay is refused), a recovery
code is used up; ``SECOND_FACTOR_ATTEMPTS`` codes per account per
``SECOND_FACTOR_WINDOW_MINUTES`` at most, right or wrong (django-otp's own growing delays are
off: this one limit is simpler to say). Everything done is in the account log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django_otp.oath import hotp
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from ..errors import Conflict, GameError, NotAllowed, Throttled, TooOften
from ..models import AccountEvent
from . import throttle
from .account_log import account_event

RECOVERY_CODES = 10
APP_NAME = "authenticator"
RECOVERY_NAME = "recovery"


def has_second_factor(user) -> bool:
    """Whether ``user`` has a confirmed second factor (log-ins ask for its code)."""
    if user is None or not getattr(user, "pk", None):
        return False
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def second_factor_pending(*, user) -> TOTPDevice | None:
    """The device being set up (shown, not yet confirmed by a code), if any."""
    return TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()


def recovery_codes_left(*, user) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def second_factor_begin(*, user) -> TOTPDevice:
    """A new unconfirmed device for ``user`` to add to their app (any earlier unconfirmed one
    goes); Conflict if a confirmed one is there already."""
    with transaction.atomic():
        if has_second_factor(user):
            raise Conflict("second_factor_set_already")
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        return TOTPDevice.objects.create(user=user, name=APP_NAME, confirmed=False)


def second_factor_confirm(*, user, code: str, address: str = "") -> tuple[TOTPDevice, list[str]]:
    """The app's ``code`` confirms the device being set up: it counts from now on, and the
    recovery codes are made (returned once, to be shown once)."""
    _attempt(user)
    with transaction.atomic():
        device = (
            TOTPDevice.objects.select_for_update()
            .filter(user=user, confirmed=False)
            .order_by("-pk")
            .first()
        )
        if device is None:
            raise Conflict("second_factor_not_begun")
        taken = device.verify_token(_digits(code))
        if taken:
            TOTPDevice.objects.filter(user=user, confirmed=True).delete()
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            account_event(user=user, kind=AccountEvent.Kind.SECOND_FACTOR_SET, address=address)
            codes = _recovery_codes_made(user)
    if not taken:
        account_event(user=user, kind=AccountEvent.Kind.SECOND_FACTOR_REFUSED, address=address)
        raise NotAllowed("second_factor_wrong")
    return device, codes


def second_factor_verify(*, user, code: str, address: str = "") -> TOTPDevice | StaticDevice:
    """The confirmed device that takes ``code`` (an app's code, or a recovery code, which is
    then used up); NotAllowed (wrong, or an app's code used already) or TooOften otherwise."""
    _attempt(user)
    with transaction.atomic():
        app = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
        if app is None:
            raise Conflict("second_factor_none")
        digits = _digits(code)
        if digits.isdigit() and len(digits) == app.digits:
            if app.verify_token(digits):
                return app
            refusal = "second_factor_replayed" if _replayed(app, digits) else "second_factor_wrong"
        else:
            recovery = StaticDevice.objects.filter(user=user, confirmed=True).first()
            if recovery is not None and recovery.verify_token(_letters(code)):
                left = recovery.token_set.count()
                account_event(
                    user=user, kind=AccountEvent.Kind.RECOVERY_CODE_USED,
                    detail=f"{left} left", address=address,
                )  # fmt: skip
                return recovery
            refusal = "second_factor_wrong"
    account_event(user=user, kind=AccountEvent.Kind.SECOND_FACTOR_REFUSED, address=address)
    raise NotAllowed(refusal)


def second_factor_check(user, code: str, address: str = "") -> bool:
    """Whether ``code`` is a right, unused code of ``user``'s second factor (an app's code or
    a recovery code, used up by this). False too past the attempts' limit, or without a
    second factor. For a confirmation asked before something grave (deleting the account)."""
    try:
        second_factor_verify(user=user, code=code, address=address)
    except GameError:
        return False
    return True


def recovery_codes_renew(*, user, password: str, code: str, address: str = "") -> list[str]:
    """New recovery codes for the old ones, with the password and a code; returned once."""
    _password_checked(user, password)
    second_factor_verify(user=user, code=code, address=address)
    with transaction.atomic():
        return _recovery_codes_made(user)


def second_factor_remove(*, user, password: str, code: str, address: str = "") -> None:
    """Turn the second factor off, with the password and a code: log-ins ask for the password
    alone again."""
    _password_checked(user, password)
    second_factor_verify(user=user, code=code, address=address)
    with transaction.atomic():
        _devices_deleted(user)
        account_event(user=user, kind=AccountEvent.Kind.SECOND_FACTOR_REMOVED, address=address)


def second_factor_reset(*, user, operator: str) -> bool:
    """An operator's removal of a player's second factor (a lost phone and lost recovery
    codes), logged with who did it. False if there was none."""
    with transaction.atomic():
        had = TOTPDevice.objects.filter(user=user).exists()
        _devices_deleted(user)
        if had:
            account_event(
                user=user, kind=AccountEvent.Kind.SECOND_FACTOR_REMOVED,
                detail=f"reset by the operator {operator}"[:200],
            )  # fmt: skip
    return had


def _devices_deleted(user) -> None:
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


def _recovery_codes_made(user) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = []
    while len(codes) < RECOVERY_CODES:
        token = StaticToken.random_token()
        if token not in codes:
            codes.append(token)
    StaticToken.objects.bulk_create(StaticToken(device=device, token=t) for t in codes)
    account_event(user=user, kind=AccountEvent.Kind.RECOVERY_CODES_MADE)
    return codes


def _password_checked(user, password: str) -> None:
    if not user.check_password(password or ""):
        raise NotAllowed("second_factor_password_wrong")


def _attempt(user) -> None:
    """One more code tried for ``user``: TooOften past the limit."""
    seconds = settings.SECOND_FACTOR_WINDOW_MINUTES * 60
    try:
        throttle.hit("second-factor", str(user.pk), settings.SECOND_FACTOR_ATTEMPTS, seconds)
    except Throttled as error:
        account_event(user=user, kind=AccountEvent.Kind.SECOND_FACTOR_REFUSED, detail="limit")
        raise TooOften("second_factor_attempts", seconds=error.retry_after) from None


def _replayed(device: TOTPDevice, digits: str) -> bool:
    """Whether ``digits`` is the code of a time step already taken (the app shows it still)."""
    steps = range(max(0, device.last_t - device.tolerance), device.last_t + 1)
    return any(hotp(device.bin_key, step, digits=device.digits) == int(digits) for step in steps)


def _digits(code: str) -> str:
    return "".join(str(code or "").split())[:16]


def _letters(code: str) -> str:
    return "".join(str(code or "").split()).replace("-", "").lower()[:16]
