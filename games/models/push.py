"""Web Push: a player's devices that asked for notifications (a browser's push subscription
each), and what was sent to a player (so that a match, a challenge or an arena notifies a
player at most once of each kind until the player acts)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PushKind(models.TextChoices):
    """What a notification is about; the stored values are stable (a device's ``kinds``)."""

    TURN = "turn", "your turn in a correspondence match"
    LIVE = "live", "your turn in a live match while its tab is hidden"
    CHALLENGE = "challenge", "a challenge to you"
    REMATCH = "rematch", "a rematch offer"
    ARENA = "arena", "an arena you joined starting"
    FOLLOW = "follow", "a followed player's open match"


class PushSubscription(models.Model):
    """One device's push subscription (RFC 8030's endpoint, RFC 8291's keys), as its browser
    gave it. The push service's 404 or 410 for it deletes it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    # The push service's URL for this device: a secret of the browser's (whoever holds it may
    # send to the device, given the keys), so it is shown to nobody.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)  # the device's ECDH public key, base64url
    auth = models.CharField(max_length=64)  # its authentication secret, base64url
    device = models.CharField(max_length=120, blank=True)  # "Firefox on Android", for the list
    # The kinds this device wants, comma-separated PushKind values.
    kinds = models.CharField(max_length=120, default=",".join(PushKind.values))
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"Push device {self.pk} of player {self.user_id}"

    @property
    def kind_list(self) -> list[str]:
        return [kind for kind in self.kinds.split(",") if kind]


class PushSent(models.Model):
    """A notification of ``kind`` about ``subject`` (a match's, a challenge's or an arena's
    id) sent to a player, at ``mark``: what the player had done then (in a match, the number
    of their last move; else 0). One a player, kind, subject and mark: a notification goes
    again only once the player has acted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=PushKind.choices)
    subject = models.BigIntegerField()
    mark = models.IntegerField(default=0)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "subject", "mark"], name="one_push_until_acted"
            )
        ]
        indexes = [models.Index(fields=["sent_at"])]

    def __str__(self) -> str:
        return f"{self.kind} push to player {self.user_id} about {self.subject}"
