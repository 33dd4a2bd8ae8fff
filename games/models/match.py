"""A match: its options, status, clock and snapshot; every move in it; its analysis.

A match's ``snapshot`` is a cache: replaying its moves from its seed and options rebuilds it
exactly (``python manage.py verify_matches`` checks). Writes go through ``games.services``.
Here too: the computer's strengths, the clocks' constants and the table's paces.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..engine import Rules, State, state_from_json, state_to_json
from .base import AppendOnly
from .rating import Ladder


class MatchStatus(models.TextChoices):
    # Persisted: the values never change.
    OPEN = "open", _("Waiting for an opponent")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")
    VOIDED = "voided", _("Voided")


class EndReason(models.TextChoices):
    PLAYED_OUT = "played_out", _("Played to the target")
    RESIGNED = "resigned", _("Resignation")
    ABORTED = "aborted", _("Aborted before the first move")
    ADJUDICATED = "adjudicated", _("Adjudicated by a moderator")
    ABORTED_BY_MODERATOR = "mod_aborted", _("Aborted by a moderator")
    VOIDED = "voided", _("Voided by a moderator")
    TIMEOUT = "timeout", _("Ran out of time")
    ABANDONED = "abandoned", _("Abandoned: claimed by the opponent")


class Computer(models.TextChoices):
    """The computer players' strengths (``games.bots``); persisted values."""

    EASY = "easy", _("Easy: plays any legal card")
    MEDIUM = "medium", _("Medium: plays by the rules of thumb")
    HARD = "hard", _("Hard: thinks every card through")


# A player's first action gets at least this long, whatever the move clock: a newcomer finding
# the table, a page still loading (lichess gives the first move of each side longer too).
FIRST_ACTION_SECONDS = 60
# A match without a clock may be claimed from a player who has not acted for this long (and has
# left: see services.match_claim).
ABANDON_AFTER = timedelta(minutes=5)


class TablePace(models.TextChoices):
    """How long the table plays a hand's end; persisted values."""

    QUICK = "quick", _("Quick")
    RELAXED = "relaxed", _("Relaxed: more time to read each hand's end")


# A hand's end on the table, stage by stage, in milliseconds, at each pace (static/js/table.js
# plays them; the match page carries them): the last trick with its winner marked, the trick
# to its winner, the summary large in the middle (relaxed only: at the quick pace it is beside
# the table from the start), then the deal, a card leaving the stock every ``deal_step`` and
# ``deal_flight`` in the air. The summary stays beside the next deal.
PACE_STAGES = {
    TablePace.QUICK: {"trick": 800, "collect": 300, "summary": 0, "deal_step": 50,
                      "deal_flight": 300},
    TablePace.RELAXED: {"trick": 1500, "collect": 450, "summary": 2200, "deal_step": 70,
                        "deal_flight": 350},
}  # fmt: skip
DEALT_CARDS = 10  # a hand: five cards each


def pace_ms(pace: str) -> int:
    """How long the table plays a hand's end at ``pace``, in milliseconds."""
    s = PACE_STAGES[pace]
    deal = (DEALT_CARDS - 1) * s["deal_step"] + s["deal_flight"]
    return s["trick"] + s["collect"] + s["summary"] + deal


# How long the table plays a hand's end before the next hand's controls are usable: the next
# hand's first turn, its clock and the computer's move, start that much later, at the slower
# of the two players' paces (a computer's is quick), rounded up to a tenth of a second.
HAND_END_BY_PACE = {
    pace: timedelta(milliseconds=-(-pace_ms(pace) // 100) * 100) for pace in TablePace
}
HAND_END = HAND_END_BY_PACE[TablePace.QUICK]


class RematchState(models.TextChoices):
    """Where a finished match's rematch offer stands; persisted values."""

    OFFERED = "offered", _("Rematch offered")
    DECLINED = "declined", _("Rematch declined")
    LAPSED = "lapsed", _("Rematch offer lapsed")


class MatchOptions(models.Model):
    """The options a match is played with: a match's own, and a challenge's to start one."""

    deck = models.PositiveSmallIntegerField(default=24)
    target = models.PositiveSmallIntegerField(default=10)
    stick_the_dealer = models.BooleanField(default=False)
    dealer_must_take_up = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    spectators_allowed = models.BooleanField(default=True)
    # The move clock: seconds for each action, or no clock (None). The player to act loses
    # when it runs out; see services.match_expire.
    move_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    # A correspondence match: days for each action (1, 3 or 7) instead of a move clock; the
    # player to act is told by mail, and loses when the days run out. Its own rating ladder.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)

    OPTION_FIELDS = (
        "deck", "target", "stick_the_dealer", "dealer_must_take_up", "rated",
        "spectators_allowed", "move_seconds", "days_per_move",
    )  # fmt: skip

    class Meta:
        abstract = True

    def options(self) -> dict:
        """The options by field name, as Match's and Challenge's fields take them."""
        return {name: getattr(self, name) for name in self.OPTION_FIELDS}

    @property
    def ladder(self) -> str:
        """The rating a rated match of these options changes."""
        return Ladder.CORRESPONDENCE if self.days_per_move else Ladder.LIVE


def closed_to_watchers(status: str, spectators_allowed: bool, seat: int | None) -> bool:
    """Whether a viewer at ``seat`` (None: not a player) may not follow a match: it is in
    play, its players did not let others watch, and the viewer is not one of them. (Open, the
    invite must still show; over, its result and replay are for everyone.)"""
    return status == MatchStatus.ACTIVE and not spectators_allowed and seat is None


class Match(MatchOptions):
    player0 = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="+", null=True, blank=True
    )
    player1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="+", null=True, blank=True
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    # When the seat to act got the turn: the clock and abandonment claims count from here.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # When the match's one waiting clock task is due (None: none waits). See services._save.
    clock_due = models.DateTimeField(null=True, blank=True)
    # The strength of the computer in seat 1; blank when two people play.
    computer = models.CharField(max_length=8, choices=Computer, blank=True)
    # 128 bits, kept as text; secret until the match ends.
    seed = models.CharField(max_length=40)
    status = models.CharField(max_length=16, choices=MatchStatus, default=MatchStatus.OPEN)
    end_reason = models.CharField(max_length=16, choices=EndReason, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change; a submission carries the version it was made against.
    version = models.PositiveIntegerField(default=0)
    # How many moves the match has: the next move's sequence number is one more.
    move_count = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(null=True, blank=True)
    # The seats that have made their first action, as bits (1: seat 0, 2: seat 1). Until both
    # have, resigning or running out of time calls the match off (no result, no rating).
    acted = models.PositiveSmallIntegerField(default=0)
    # The rematch: who offered it (a seat), until when, where it stands; the match it started.
    rematch_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_state = models.CharField(max_length=16, choices=RematchState, blank=True)
    rematch_until = models.DateTimeField(null=True, blank=True)
    next_match = models.ForeignKey("self", models.SET_NULL, related_name="+", null=True, blank=True)
    # The arena that paired its players (its points go to the arena's standings).
    arena = models.ForeignKey(
        "games.Arena", models.PROTECT, related_name="matches", null=True, blank=True
    )
    # When the task worker stored the finished match's analysis (MatchAnalysis); the end
    # screen links to it from then on.
    analysed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["status", "-created_at"])]
        permissions = [("moderate_match", "Can void, adjudicate and abort matches")]

    def __str__(self) -> str:
        names = " v ".join(p.username for p in self.players if p is not None)
        return f"Match {self.pk}: {names}" if names else f"Match {self.pk}"

    @property
    def rules(self) -> Rules:
        return Rules(
            deck=self.deck,
            target=self.target,
            stick_the_dealer=self.stick_the_dealer,
            dealer_must_take_up=self.dealer_must_take_up,
        )

    @property
    def state(self) -> State | None:
        """The snapshot decoded, once for each snapshot the instance holds. A snapshot is
        replaced, never changed in place (the services assign ``state_to_json(...)``; a read
        from the database is a new object), so the object's identity says whether the state
        kept with it is still its own."""
        snapshot = self.snapshot
        if snapshot is None:
            return None
        kept = self.__dict__.get("_decoded")
        if kept is None or kept[0] is not snapshot:
            # The snapshot itself is kept, not its id(): an id may be reused once it is freed.
            kept = self._decoded = (snapshot, state_from_json(snapshot))
        return kept[1]

    def set_state(self, state: State) -> None:
        """The snapshot of ``state``, and ``state`` kept as its decoding: a move encodes the
        state it made once and never decodes it again."""
        self.snapshot = state_to_json(state)
        self._decoded = (self.snapshot, state)

    @property
    def players(self) -> tuple:
        return (self.player0, self.player1)

    def seat_of(self, user) -> int | None:
        if user is None or not user.is_authenticated:
            return None
        if self.player0_id == user.pk:
            return 0
        if self.player1_id == user.pk:
            return 1
        return None

    def closed_to(self, user) -> bool:
        return closed_to_watchers(self.status, self.spectators_allowed, self.seat_of(user))

    def opponent_of(self, user):
        seat = self.seat_of(user)
        return None if seat is None else self.players[seat ^ 1]

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED, MatchStatus.VOIDED)

    def has_acted(self, seat: int) -> bool:
        return bool(self.acted & (1 << seat))

    @property
    def both_acted(self) -> bool:
        """Both players have made their first action: from now on leaving costs the match."""
        return self.acted == 0b11

    @property
    def deadline(self):
        """When the player to act loses on time; None without a clock or out of play. A
        player's first action has at least FIRST_ACTION_SECONDS."""
        if self.status != MatchStatus.ACTIVE or not self.turn_started_at:
            return None
        if self.days_per_move:
            return self.turn_started_at + timedelta(days=self.days_per_move)
        if not self.move_seconds:
            return None
        seconds = self.move_seconds
        if not self.both_acted and not self.has_acted(self.state.turn):
            seconds = max(seconds, FIRST_ACTION_SECONDS)
        return self.turn_started_at + timedelta(seconds=seconds)

    @property
    def claim_opens_at(self):
        """When a match without a clock may be claimed from a player who has not acted (None if
        it has a clock or is not in play). The opponent must also have gone: see match_claim."""
        if self.status != MatchStatus.ACTIVE or self.move_seconds or not self.turn_started_at:
            return None
        if self.days_per_move:
            return None  # the days a move are its clock
        return self.turn_started_at + ABANDON_AFTER

    @property
    def rematch_offered(self) -> bool:
        return self.rematch_state == RematchState.OFFERED


class Move(AppendOnly):
    """One action in a match. Append-only: the application never changes or deletes one."""

    append_only = "Moves are append-only"

    match = models.ForeignKey(Match, models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField()  # 1, 2, 3... within the match
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    action = models.CharField(max_length=16)  # as the engine writes it: "order_up", "play:JH"
    # The match's version this move made (None for moves from before it was kept): the API's
    # streams replay the moves a client missed since the version it last saw.
    version = models.PositiveIntegerField(null=True, blank=True)
    # The way it came in (metrics.MOVE_WAYS: "page_socket", "api_post", "computer"...; "" for
    # moves from before it was kept): the fair-play signals tell a person's API moves by it.
    way = models.CharField(max_length=12, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq")]

    def __str__(self) -> str:
        # Not the action: a discard is a hidden card (the admin's move log titles rows with this).
        return f"{self.match_id}#{self.seq} seat {self.seat}"


class MatchAnalysis(models.Model):
    """What each option of each decision of a finished match was worth (``games.bots.analysis``),
    worked out once by the task worker when the match ended. Nobody reads it before the match
    is over: it names every card of both hands."""

    match = models.OneToOneField(Match, models.CASCADE, related_name="analysis")
    # The opponent hands searched a decision (analysis.budget: fewer than ANALYSIS_SAMPLES on
    # a long match; each decision stores its own, fewer when fewer hands were consistent).
    samples = models.PositiveIntegerField()
    result = models.JSONField()  # analysis.as_json: the decisions and each seat's figures
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "match analyses"

    def __str__(self) -> str:
        return f"Analysis of match {self.match_id}"
