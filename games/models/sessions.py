"""Where a player is logged in: a row for each of their sessions (Django's own session rows
hold no player nor device we could list), and the devices they logged in from before, known by
a long-lived random cookie of which only the hash is kept."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccountSession(models.Model):
    """One of a player's sessions, made at log-in, gone at log-out or when the player ends it.
    The session itself is Django's row of ``session_key`` (its key changes when the session is
    renewed, at a password change: this row follows it, ``services.account_session_seen``);
    a row whose Django session expired is left out of the list and swept at the next log-in."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="account_sessions"
    )
    session_key = models.CharField(max_length=40, unique=True)
    # The browser's User-Agent as it came (read into words when shown: ``presentation.devices``).
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Written at most every few minutes (``web.sessions.SessionSeen``), never on every request.
    last_seen = models.DateTimeField()

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self) -> str:
        return f"session {self.pk} of player {self.user_id}"


class KnownDevice(models.Model):
    """A browser a player has logged in from: the SHA-256 of the random value of its device
    cookie (256 bits: a fast hash is enough, there is nothing to guess). A log-in whose browser
    has no known cookie is from a new device, which the player may be told of by mail."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    digest = models.CharField(max_length=64)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "digest"], name="known_device_once_per_user")
        ]
        indexes = [models.Index(fields=["last_seen"])]  # the retention sweep (KNOWN_DEVICE_DAYS)

    def __str__(self) -> str:
        return f"device {self.pk} of player {self.user_id}"
