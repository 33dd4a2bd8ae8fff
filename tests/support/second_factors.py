"""Second factors in tests: a staff account's confirmed authenticator device, a session
verified by it (as the log-in's second step leaves one), and the codes an app would show."""

from __future__ import annotations

import time

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import hotp
from django_otp.plugins.otp_totp.models import TOTPDevice


def app_device(user) -> TOTPDevice:
    """``user``'s confirmed authenticator device (made if they have none)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)
    return device


def session_verified(session: SessionBase, user) -> None:
    """Mark a logged-in ``session`` of ``user`` verified by their device, as the code's page
    does (django_otp.login), and save it."""
    assert str(session.get(SESSION_KEY)) == str(user.pk), "log the user in first"
    session[DEVICE_ID_SESSION_KEY] = app_device(user).persistent_id
    session.save()


def log_in(client: Client, user) -> Client:
    """``client.force_login(user)``; a staff member's session verified by a second factor too
    (given one if they have none), as the log-in's code leaves it: the admin opens to it."""
    client.force_login(user)
    if user.is_staff:
        session_verified(client.session, user)
    return client


def code_now(device: TOTPDevice, steps_ahead: int = 0) -> str:
    """The code the app shows now for ``device`` (or ``steps_ahead`` time steps later: within
    the device's tolerance, a second code for the same moment)."""
    device.refresh_from_db(fields=["drift"])  # a code taken past a step's end moves it
    step = (int(time.time()) - device.t0) // device.step + device.drift + steps_ahead
    return f"{hotp(device.bin_key, step, digits=device.digits):0{device.digits}d}"


def code_from_key(base32_key: str, steps_ahead: int = 0) -> str:
    """The code for a key as the set-up page shows it (base32, in groups), now."""
    from base64 import b32decode

    text = "".join(base32_key.split()).upper()
    key = b32decode(text + "=" * (-len(text) % 8))
    step = int(time.time()) // 30 + steps_ahead
    return f"{hotp(key, step, digits=6):06d}"


def wrong_code(device: TOTPDevice) -> str:
    """Six digits that are no code ``device`` takes now."""
    near = {code_now(device, n) for n in (-2, -1, 0, 1, 2)}
    return next(code for code in ("123456", "654321", "000000") if code not in near)
