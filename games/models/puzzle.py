"""Puzzles mined from analysed matches, players' puzzle ratings and their attempts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .. import rating as elo


class PuzzleTheme(models.TextChoices):
    """What a puzzle's position is about (``games.bots.puzzles.theme``)."""

    # Persisted: the values never change.
    ORDERING_UP = "ordering_up", _("Ordering up")
    BIDDING = "bidding", _("Bidding")
    DISCARD = "discard", _("The dealer's discard")
    MARCH_DEFENCE = "march_defence", _("Defending against a march")
    LEADING_TRUMP = "leading_trump", _("Leading trump")
    BOWERS = "bowers", _("The bowers")
    LAST_TRICKS = "last_tricks", _("The last tricks")
    PLAY = "play", _("Card play")


class Puzzle(models.Model):
    """A decision of an analysed match where one option was clearly best, to be found again
    (``games.bots.puzzles``): the position is the seat's view before the move ``index``."""

    match = models.ForeignKey("games.Match", models.CASCADE, related_name="puzzles")
    index = models.PositiveIntegerField()  # the move's place in the match (0: the first)
    seat = models.PositiveSmallIntegerField()
    answer = models.CharField(max_length=16)  # the action, as the engine writes it
    theme = models.CharField(max_length=16, choices=PuzzleTheme.choices)
    graded = models.CharField(max_length=8)  # "points" or "chances"
    margin = models.FloatField()  # the answer's lead over the next option
    options = models.JSONField()  # [[action, value from what the seat knew], ...]
    line = models.JSONField()  # the rest of the hand after the answer: [[seat, action], ...]
    reason = models.JSONField()  # the hints' reason for the answer: [code, params]
    rating = models.IntegerField(default=elo.INITIAL)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Below everyone's bar (games.bots.puzzles.PRIVATE_MARGIN): shown only to the player who
    # made the decision (the seat's), to train on their own mistakes.
    private = models.BooleanField(default=False)
    # When a full count of the opponent's hands (games.bots.puzzles.recheck) or a newer
    # analysis no longer found it a puzzle: shown nowhere again, its answers kept.
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="one_puzzle_per_move")
        ]
        indexes = [models.Index(fields=["rating"]), models.Index(fields=["theme", "rating"])]

    def __str__(self) -> str:
        return f"Puzzle {self.pk} (match {self.match_id}, move {self.index})"


class PuzzleRating(models.Model):
    """A player's puzzle rating: Elo on solves, each attempt a game against the puzzle."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="puzzle_rating"
    )
    value = models.IntegerField(default=elo.INITIAL)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user}: {self.value}"


class PuzzleAttempt(models.Model):
    """One player's answer to one puzzle (one each: a puzzle once tried is not shown again),
    with the player's puzzle rating before and after it (the same for an unrated answer, one
    in a streak)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(Puzzle, models.CASCADE, related_name="tries")
    chosen = models.CharField(max_length=16)
    correct = models.BooleanField()
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    rated = models.BooleanField(default=True)  # False: in a streak (games.models.training)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_attempt_per_puzzle")
        ]

    def __str__(self) -> str:
        return f"{self.user} on puzzle {self.puzzle_id}: {'solved' if self.correct else 'missed'}"
