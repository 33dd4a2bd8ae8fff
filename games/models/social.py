"""Between players: challenges (with the reasons to decline one), follows and blocks."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .match import MatchOptions


class DeclineReason(models.TextChoices):
    """Why a challenged player declined (lichess's reasons, for this game's options)."""

    GENERIC = "generic", _("I am not accepting challenges at the moment.")
    LATER = "later", _("This is not the right time for me: please ask again later.")
    TOO_FAST = "too_fast", _("This move clock is too fast for me.")
    TOO_SLOW = "too_slow", _("This move clock is too slow for me.")
    RATED = "rated", _("Please send me a rated challenge instead.")
    CASUAL = "casual", _("Please send me a casual challenge instead.")
    RULES = "rules", _("I am not playing with these options right now.")
    NO_BOT = "no_bot", _("I am not accepting challenges from bots.")
    ONLY_BOT = "only_bot", _("I am only accepting challenges from bots.")


class Challenge(MatchOptions):
    """One player invites another to a match with chosen options; the challenged player
    accepts (the match starts for both) or declines, with a reason. It lapses if nobody
    answers."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Withdrawn")
        LAPSED = "lapsed", _("Lapsed")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=Status, default=Status.PENDING)
    until = models.DateTimeField()
    match = models.ForeignKey(
        "games.Match", models.SET_NULL, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # When it was accepted, declined, withdrawn or lapsed: the challenger hears of a refusal.
    answered_at = models.DateTimeField(null=True, blank=True)
    decline_reason = models.CharField(max_length=16, choices=DeclineReason, blank=True)

    class Meta:
        ordering = ["-created_at"]
        # By time: the retention sweep (CHALLENGE_DAYS), answered ones and lost lapses.
        indexes = [
            models.Index(fields=["challenged", "status"]),
            models.Index(fields=["answered_at"]),
            models.Index(fields=["until"]),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger} to {self.challenged}"


class Follow(models.Model):
    """One player follows another: sees them in their list, online or not, and challenges them
    from it; with ``notify``, hears when they open a match in the lobby."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    notify = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_a_pair"),
        ]
        indexes = [models.Index(fields=["followed", "notify"])]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """One player blocks another: no challenge or follow from them, no match with them."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_a_pair"),
        ]
        indexes = [models.Index(fields=["blocked"])]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"
