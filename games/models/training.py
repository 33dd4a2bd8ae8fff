"""Training on one's own mistakes: each player's flagged decisions with their puzzle themes
(the weak spots), and each player's puzzle streak."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .puzzle import PuzzleTheme


class FlaggedDecision(models.Model):
    """A decision of an analysed match flagged as an inaccuracy, a mistake or a blunder, with
    the theme a puzzle of it would have (``games.bots.puzzles.flagged``), kept by player so
    that their weak spots are one grouped read, not a walk through every analysis."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", models.CASCADE, related_name="+")
    index = models.PositiveIntegerField()  # the move's place in the match
    theme = models.CharField(max_length=16, choices=PuzzleTheme.choices)
    loss = models.FloatField()  # points of the hand lost
    flag = models.CharField(max_length=12)  # "inaccuracy", "mistake" or "blunder"

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="one_flag_per_move")]
        indexes = [models.Index(fields=["user", "theme"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.theme} in match {self.match_id} (move {self.index})"


class PuzzleStreak(models.Model):
    """A player's puzzle streak: puzzles of rising rating until the first miss, unrated (as
    lichess's). ``puzzle`` is the one on the table (None: no run going); the next is rated
    above ``floor`` (the last one solved: its rating, then its id, break ties)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(
        "games.Puzzle", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    current = models.PositiveIntegerField(default=0)  # solved in the run going (or the last)
    best = models.PositiveIntegerField(default=0)
    floor_rating = models.IntegerField(null=True, blank=True)
    floor_id = models.PositiveIntegerField(null=True, blank=True)
    missed = models.ForeignKey(  # the puzzle that ended the last run
        "games.Puzzle", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    runs = models.PositiveIntegerField(default=0)  # runs started

    def __str__(self) -> str:
        return f"{self.user}: streak {self.current}, best {self.best}"
