"""A player's mail: the address waiting for its confirmation link, and the mails the site
sent (for the limits that count them). The confirmed address is ``User.email``: only a
followed confirmation link sets it (``services.mail_addresses``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class MailConfirmation(models.Model):
    """An address a player gave, and the link that confirms it is theirs. Only the link's
    hash is kept; a followed link stays (``confirmed_at``) so a second use is told apart from
    a link that never was. An unconfirmed address is mailed nothing but this link."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    address = models.EmailField()
    key_hash = models.CharField(max_length=64, blank=True, db_index=True)
    # When the link was last sent ("" key: never; the page offers to send it), which it expires
    # from, and when it was followed.
    sent_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"Address of player {self.user_id}"


class MailSent(models.Model):
    """A mail of ``kind`` sent to a player (no address kept), about ``match`` if it is one's:
    the turn mails' one a match a day is counted here."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    match = models.ForeignKey(
        "games.Match", models.CASCADE, null=True, blank=True, related_name="+"
    )
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # By time: the retention sweep (MAIL_SENT_DAYS).
        indexes = [
            models.Index(fields=["user", "kind", "match", "-sent_at"]),
            models.Index(fields=["sent_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} mail to player {self.user_id}"
