"""A player's account and what guards it: the security log of what was done to the account
(addresses confirmed, second factors set, sessions ended, the account deleted), kept apart
from the moderators' audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .base import AppendOnly


class AccountEvent(AppendOnly):
    """One thing done to a player's account, by the player or by the site, append-only. The
    player is kept as a number too, so the row outlives a deleted account's user."""

    append_only = "The account log is append-only"

    class Kind(models.TextChoices):
        # The kinds are the Python side's only: the column has no check, so a new kind needs no
        # migration (each issue's part adds its own below).
        LOGIN = "login", _("Logged in")
        PASSWORD = "password", _("Password changed")
        SESSION_ENDED = "session_ended", _("Session ended")
        SESSIONS_ENDED = "sessions_ended", _("All other sessions ended")
        NEW_DEVICE = "new_device", _("Logged in from a new device")
        MAIL_SET = "mail_set", _("Email address changed")
        MAIL_CONFIRMED = "mail_confirmed", _("Email address confirmed")
        SECOND_FACTOR_SET = "second_factor_set", _("Second factor set up")
        SECOND_FACTOR_REMOVED = "second_factor_removed", _("Second factor turned off")
        RECOVERY_CODES_MADE = "recovery_codes_made", _("Recovery codes made")
        RECOVERY_CODE_USED = "recovery_code_used", _("Recovery code used")
        SECOND_FACTOR_REFUSED = "second_factor_refused", _("Second factor code refused")
        DATA_EXPORT_ASKED = "data_export_asked", _("Download of your data asked for")
        ACCOUNT_DELETED = "account_deleted", _("Account deleted")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    user_number = models.PositiveIntegerField(db_index=True)
    kind = models.CharField(max_length=24)
    # What a person reading the log needs beside the kind (never a secret, a code or a token).
    detail = models.CharField(max_length=200, blank=True)
    # The address it came from, hashed with the site's key as the rest of the site keeps them.
    address_hash = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        # The retention sweep finds the old rows by their time (ACCOUNT_LOG_DAYS).
        indexes = [
            models.Index(fields=["user_number", "-created_at"]),
            models.Index(fields=["created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for player {self.user_number}"
