"""Arenas (tournaments with a start and an end): their players, invitations and log."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .base import AppendOnly


class Arena(models.Model):
    """A tournament with a start and an end (lichess's arena): every free player who joined
    is paired at once with another (``services.arenas``, a task every few seconds while it
    runs), scores 2 a win (double on a streak) and climbs the live standings."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Starting soon")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=60)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField()
    deck = models.PositiveSmallIntegerField(default=24)
    target = models.PositiveSmallIntegerField(default=5)
    stick_the_dealer = models.BooleanField(default=False)
    dealer_must_take_up = models.BooleanField(default=False)
    move_seconds = models.PositiveSmallIntegerField(default=30)
    rated = models.BooleanField(default=True)
    invited_only = models.BooleanField(default=False)
    bots_allowed = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status, default=Status.SCHEDULED)
    # The pairing task waiting (one per arena, as a match's clock task: a duplicate or a
    # retry finds another time here and does nothing).
    pair_due = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        permissions = [("moderate_arena", "Can cancel arenas and remove their players")]

    def __str__(self) -> str:
        return f"Arena {self.pk}: {self.name}"

    @property
    def ends_at(self):
        return self.starts_at + timedelta(minutes=self.minutes)

    def match_options(self) -> dict:
        """The options of its matches, as ``Match``'s fields take them."""
        return {
            "deck": self.deck, "target": self.target, "stick_the_dealer": self.stick_the_dealer,
            "dealer_must_take_up": self.dealer_must_take_up, "rated": self.rated,
            "spectators_allowed": True, "move_seconds": self.move_seconds,
            "days_per_move": None,
        }  # fmt: skip


class ArenaPlayer(models.Model):
    """A player in an arena: score, wins in a row (the streak), paused or not, and when they
    last became free (the pairing's wait is measured from it)."""

    arena = models.ForeignKey(Arena, models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    score = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    # The sum of the opponents' ratings when each match began: the performance tie-break.
    opponents_rating = models.PositiveIntegerField(default=0)
    paused = models.BooleanField(default=False)
    removed = models.BooleanField(default=False)  # by a moderator: points void, no pairing
    notify = models.BooleanField(default=False)  # a mail when the arena starts
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, related_name="+", null=True, blank=True
    )
    free_since = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_entry_an_arena"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.arena}"


class ArenaInvite(models.Model):
    """Who may join an arena that is by invitation only."""

    arena = models.ForeignKey(Arena, models.CASCADE, related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_invite_an_arena"),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to {self.arena}"


class ArenaAudit(AppendOnly):
    """What was done to an arena, by whom: created, started, ended, cancelled, a player
    removed (the moderators' log, read in the admin)."""

    class Kind(models.TextChoices):
        CREATED = "created", "created"
        STARTED = "started", "started"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"
        REMOVED = "removed", "player removed"

    arena = models.ForeignKey(Arena, models.PROTECT, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="+", null=True, blank=True
    )
    kind = models.CharField(max_length=16, choices=Kind)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="+", null=True, blank=True
    )
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.arena}: {self.get_kind_display()}"
