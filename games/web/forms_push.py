"""The settings' notification forms: a device's push subscription, as its browser gave it
(RFC 8030's endpoint, RFC 8291's keys), and the kinds the player's devices are told of."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ..presentation.push import kind_labels


def _b64url(value: str) -> bytes:
    """Decoded base64url (the padding optional, as browsers send it); ValueError if not."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValueError(value) from None


class PushSubscribeForm(forms.Form):
    """A subscription: where the device's push service takes its messages, and its keys."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=200)
    auth = forms.CharField(max_length=64)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"]
        scheme = urlsplit(endpoint).scheme
        # Browsers' push services are https; a local one (the tests') only where allowed.
        if scheme != "https" and not (scheme == "http" and settings.PUSH_ALLOW_HTTP):
            raise forms.ValidationError(_("This browser's push address is not one we can use."))
        return endpoint

    def clean_p256dh(self) -> str:
        key = self.cleaned_data["p256dh"]
        try:
            raw = _b64url(key)
        except ValueError:
            raw = b""
        if len(raw) != 65 or raw[0] != 4:  # an uncompressed P-256 point (RFC 8291 section 3.1)
            raise forms.ValidationError(_("This browser's push keys are not ones we can use."))
        return key

    def clean_auth(self) -> str:
        secret = self.cleaned_data["auth"]
        try:
            raw = _b64url(secret)
        except ValueError:
            raw = b""
        if len(raw) != 16:  # RFC 8291 section 3.2
            raise forms.ValidationError(_("This browser's push keys are not ones we can use."))
        return secret


class PushKindsForm(forms.Form):
    """What the player's devices are told of, and whether the turn's mail still goes."""

    kinds = forms.MultipleChoiceField(
        required=False,
        label=_("Tell my devices of"),
        widget=forms.CheckboxSelectMultiple,
        choices=kind_labels,
    )
    mail_too = forms.BooleanField(
        required=False,
        label=_("Email me my turn too, when a device of mine was told of it"),
    )
