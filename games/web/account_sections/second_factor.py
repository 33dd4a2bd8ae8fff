"""The account page's section: second_factor (an authenticator app's codes and recovery
codes: set up with a code from the app, turned off or renewed with the password and a code;
required of staff before the admin opens)."""

from __future__ import annotations

from base64 import b32encode

from django.http import HttpRequest
from django.utils.translation import gettext as _

from ...presentation.qr import qr_svg
from ...services import second_factors
from ..forms_second_factor import SecondFactorCodeForm, SecondFactorGuardForm


def secret_words(key: bytes) -> str:
    """A device's key as a person types it into an app: base32 in groups of four."""
    text = b32encode(key).decode("ascii").rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_second_factor.html``) reads: whether
    a second factor is on (and how many recovery codes are left), or the one being set up
    (its QR code, its key as text, the form for the app's code)."""
    user = request.user
    on = second_factors.has_second_factor(user)
    shown: dict = {
        "second_factor_on": on,
        "second_factor_required": user.is_staff and not on,
    }
    if on:
        shown["recovery_codes_left"] = second_factors.recovery_codes_left(user=user)
        shown["second_factor_off_form"] = SecondFactorGuardForm(ids="second-factor-off")
        shown["second_factor_renew_form"] = SecondFactorGuardForm(ids="second-factor-renew")
        return shown
    pending = second_factors.second_factor_pending(user=user)
    if pending is not None:
        shown["second_factor_qr"] = qr_svg(
            pending.config_url, _("QR code of your key, for an authenticator app")
        )
        shown["second_factor_secret"] = secret_words(pending.bin_key)
        shown["second_factor_confirm_form"] = SecondFactorCodeForm(
            recovery=False, ids="second-factor-confirm"
        )
    return shown
