"""The account page's section: mail (the confirmed address, one waiting for its link, and
which mails the player wants)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from ...services import mail_addresses
from ..forms_mail import MailAddressForm, MailKindsForm


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_mail.html``) reads."""
    user = request.user
    pending = mail_addresses.mail_pending(user=user)
    wanted = mail_addresses.mail_kinds_wanted(user=user)
    each = mail_addresses.mail_turn_each(user=user)
    expired = pending is not None and (
        pending.sent_at is None
        or pending.sent_at < timezone.now() - timedelta(hours=settings.MAIL_CONFIRM_HOURS)
    )
    return {
        "mail_confirmed": user.email,
        "mail_pending": pending.address if pending else "",
        "mail_link_lapsed": expired,
        "mail_form": MailAddressForm(),
        "mail_kinds_form": MailKindsForm(initial={**wanted, "turn_each": each}),
    }
