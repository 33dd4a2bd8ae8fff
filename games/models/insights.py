"""The insights' rows: each finished hand and each choice of a finished match, one row for
each seat a person sat in, written when the match ends (``games.services.insights``) so that a
player's figures are sums over rows, never a replay of matches. Each row carries its match's
date and options, so a filter is a ``WHERE`` on one table."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class InsightRow(models.Model):
    """What the filters read: whose, which match, when it ended, and how it was played."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    rated = models.BooleanField()
    computer = models.BooleanField()  # against the computer (else against a person)
    deck = models.PositiveSmallIntegerField()
    target = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True


class InsightHand(InsightRow):
    """One finished hand (not a passed-out one) for one player (``games.bots.hand_facts``)."""

    hand = models.PositiveSmallIntegerField()  # its number in the match (0: the first)
    dealer = models.BooleanField()
    maker = models.BooleanField()
    bid = models.CharField(max_length=8, blank=True)  # order_up, take_up, name; "": defended
    trumps = models.PositiveSmallIntegerField(null=True)  # the maker's, when it bid
    bowers = models.PositiveSmallIntegerField(null=True)
    scored = models.PositiveSmallIntegerField()
    conceded = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=8)  # made, march, euchred

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player", "hand"], name="one_insight_hand")
        ]
        indexes = [models.Index(fields=["player", "finished_at"], name="insight_hand_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}, hand {self.hand}"


class InsightDecision(InsightRow):
    """One move made where its player had a choice: how long it took, and (once the match's
    analysis is stored) the points it lost against the best option."""

    index = models.PositiveIntegerField()  # the move's place in the match (0: the first)
    kind = models.CharField(max_length=8)  # bid, discard, play
    seconds = models.FloatField(null=True)  # None: a hand's first move, or correspondence
    loss = models.FloatField(null=True)  # None: not analysed yet

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="one_insight_decision")
        ]
        indexes = [models.Index(fields=["player", "finished_at"], name="insight_choice_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}, move {self.index}"
