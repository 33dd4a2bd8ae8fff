"""Fair play: the automatic flags (signals computed by the task worker over a player's recent
rated matches), and what moderators do about them: warnings the player reads once, marks
(computer-assisted, rating-trader) and the player's one appeal against a mark.

A flag by itself changes nothing for the player and is never shown to them; a mark closes
rated play and takes the player off the leaderboard and the arenas' podiums. The refunds of
a mark's victims are ``RatingChange`` rows of their own (``refund=True``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class FairPlayFlag(models.Model):
    """One player's flag: the latest signals of each kind and the rated matches of the window
    they were computed over. One open flag per player (``services.fairplay.raise_flag``)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DISMISSED = "dismissed", "Dismissed"
        WARNED = "warned", "Warned"
        MARKED = "marked", "Marked"

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="fair_play_flags"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(default=timezone.now)
    # Signal dicts: {"kind", "value", "band", "threshold", "matches", "detail"}, one per kind.
    signals = models.JSONField(default=list)
    matches = models.JSONField(default=list)  # the window's rated match ids
    status = models.CharField(max_length=16, choices=Status, default=Status.OPEN)
    # How far beyond its threshold the strongest signal is (1.0: at the threshold): the
    # queue's order among open flags.
    strength = models.FloatField(default=0.0)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "fair-play flag"  # the admin's queue
        permissions = [("handle_fair_play", "Can handle fair-play flags, marks and appeals")]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(status="open"), name="one_open_flag"
            )
        ]

    def __str__(self) -> str:
        return f"Fair-play flag {self.pk}: {self.player} ({self.status})"


class FairPlayMark(models.Model):
    """A moderator's mark on a player: rated play closed, off the leaderboard and podiums,
    until a granted appeal lifts it."""

    class Kind(models.TextChoices):
        COMPUTER = "computer", _("Computer-assisted play")
        TRADER = "trader", _("Rating trading")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="fair_play_marks"
    )
    kind = models.CharField(max_length=16, choices=Kind)
    flag = models.ForeignKey(
        FairPlayFlag, models.SET_NULL, null=True, blank=True, related_name="marks"
    )
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    reason = models.TextField()
    refunded = models.JSONField(default=list)  # the matches whose victims were refunded
    created_at = models.DateTimeField(default=timezone.now)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player}"

    @property
    def active(self) -> bool:
        return self.lifted_at is None


class FairPlayWarning(models.Model):
    """A moderator's warning: shown to the player once, on their next page."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="fair_play_warnings"
    )
    flag = models.ForeignKey(
        FairPlayFlag, models.SET_NULL, null=True, blank=True, related_name="warnings"
    )
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Fair-play warning to {self.player}"


class FairPlayAppeal(models.Model):
    """A marked player's one appeal against the mark, and the moderator's answer."""

    class Outcome(models.TextChoices):
        UPHELD = "upheld", _("Upheld: the mark stays")
        GRANTED = "granted", _("Granted: the mark is lifted")

    mark = models.OneToOneField(FairPlayMark, models.CASCADE, related_name="appeal")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="fair_play_appeals"
    )
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)
    answer = models.TextField(blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    answer_read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "fair-play appeal"

    def __str__(self) -> str:
        return f"Appeal by {self.player} ({self.outcome or 'waiting'})"
