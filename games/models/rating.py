"""Players' Elo ratings, one on each ladder (live, correspondence), and each match's change
to them. The arithmetic is ``games.rating``'s."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .. import rating as elo


class Ladder(models.TextChoices):
    """The ratings a player has: one for live matches, one for correspondence matches."""

    LIVE = "live", _("Live")
    CORRESPONDENCE = "correspondence", _("Correspondence")


class PlayerRating(models.Model):
    """A player's current Elo ratings, live and correspondence (each a ladder of its own);
    their history is the player's ``RatingChange`` rows."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, related_name="rating")
    value = models.IntegerField(default=elo.INITIAL)
    rated_matches = models.PositiveIntegerField(default=0)
    correspondence = models.IntegerField(default=elo.INITIAL)
    correspondence_matches = models.PositiveIntegerField(default=0)

    # Each ladder's two fields: the rating, and the rated matches that made it.
    FIELDS = {"live": ("value", "rated_matches"),
              "correspondence": ("correspondence", "correspondence_matches")}  # fmt: skip

    def __str__(self) -> str:
        return f"{self.user}: {self.display}"

    @property
    def display(self) -> str:
        return elo.display(self.value, self.rated_matches)

    @property
    def correspondence_display(self) -> str:
        return elo.display(self.correspondence, self.correspondence_matches)

    def on(self, ladder: str) -> tuple[int, int]:
        """The rating on ``ladder`` and the rated matches that made it."""
        value, played = self.FIELDS[ladder]
        return getattr(self, value), getattr(self, played)

    def display_on(self, ladder: str) -> str:
        return elo.display(*self.on(ladder))


class RatingChange(models.Model):
    """One player's rating change from one match: enough to draw the history and undo it."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    match = models.ForeignKey("games.Match", models.PROTECT, related_name="rating_changes")
    before = models.IntegerField()
    after = models.IntegerField()
    delta = models.IntegerField()
    # The player's rated matches before this one: whether ``before`` and ``after`` were
    # provisional ("1500?").
    played = models.PositiveIntegerField(default=0)
    ladder = models.CharField(max_length=16, choices=Ladder.choices, default=Ladder.LIVE)
    created_at = models.DateTimeField(auto_now_add=True)
    # A fair-play refund: the points a marked player's victim lost in ``match`` given back
    # (a row of its own in the victim's history, not a rated match: ``played`` unchanged).
    refund = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at", "pk"]
        # A match changes each player's rating at most once, whatever retries happen (and
        # refunds it at most once).
        constraints = [
            models.UniqueConstraint(
                fields=["player", "match", "refund"], name="one_change_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.delta:+d} (match {self.match_id})"

    @property
    def before_display(self) -> str:
        return elo.display(self.before, self.played)

    @property
    def after_display(self) -> str:
        return elo.display(self.after, self.played + 1)
