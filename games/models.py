"""Users' matches and every move in them.

A match's ``snapshot`` is a cache: replaying its moves from its seed and options rebuilds it
exactly (``python manage.py verify_matches`` checks). Writes go through ``games.services``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from . import rating
from .engine import Rules, State, state_from_json


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


COMPUTER_USERNAME = "computer-{}"

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


class Ladder(models.TextChoices):
    """The ratings a player has: one for live matches, one for correspondence matches."""

    LIVE = "live", _("Live")
    CORRESPONDENCE = "correspondence", _("Correspondence")


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
        "Arena", models.PROTECT, related_name="matches", null=True, blank=True
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
        return None if self.snapshot is None else state_from_json(self.snapshot)

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


class AppendOnly(models.Model):
    """Rows that are written once and never changed or deleted (history, audit)."""

    append_only = "This record is append-only"  # the refusal, worded by each model

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError(f"{self.append_only}: a saved one is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{self.append_only}: a saved one is never deleted")


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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq")]

    def __str__(self) -> str:
        # Not the action: a discard is a hidden card (the admin's move log titles rows with this).
        return f"{self.match_id}#{self.seq} seat {self.seat}"


class PlayerRating(models.Model):
    """A player's current Elo ratings, live and correspondence (each a ladder of its own);
    their history is the player's ``RatingChange`` rows."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, related_name="rating")
    value = models.IntegerField(default=rating.INITIAL)
    rated_matches = models.PositiveIntegerField(default=0)
    correspondence = models.IntegerField(default=rating.INITIAL)
    correspondence_matches = models.PositiveIntegerField(default=0)

    # Each ladder's two fields: the rating, and the rated matches that made it.
    FIELDS = {"live": ("value", "rated_matches"),
              "correspondence": ("correspondence", "correspondence_matches")}  # fmt: skip

    def __str__(self) -> str:
        return f"{self.user}: {self.display}"

    @property
    def display(self) -> str:
        return rating.display(self.value, self.rated_matches)

    @property
    def correspondence_display(self) -> str:
        return rating.display(self.correspondence, self.correspondence_matches)

    def on(self, ladder: str) -> tuple[int, int]:
        """The rating on ``ladder`` and the rated matches that made it."""
        value, played = self.FIELDS[ladder]
        return getattr(self, value), getattr(self, played)

    def display_on(self, ladder: str) -> str:
        return rating.display(*self.on(ladder))


class RatingChange(models.Model):
    """One player's rating change from one match: enough to draw the history and undo it."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    match = models.ForeignKey(Match, models.PROTECT, related_name="rating_changes")
    before = models.IntegerField()
    after = models.IntegerField()
    delta = models.IntegerField()
    # The player's rated matches before this one: whether ``before`` and ``after`` were
    # provisional ("1500?").
    played = models.PositiveIntegerField(default=0)
    ladder = models.CharField(max_length=16, choices=Ladder.choices, default=Ladder.LIVE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        # A match changes each player's rating at most once, whatever retries happen.
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="one_change_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.delta:+d} (match {self.match_id})"

    @property
    def before_display(self) -> str:
        return rating.display(self.before, self.played)

    @property
    def after_display(self) -> str:
        return rating.display(self.after, self.played + 1)


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
    match = models.ForeignKey(Match, models.SET_NULL, related_name="+", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When it was accepted, declined, withdrawn or lapsed: the challenger hears of a refusal.
    answered_at = models.DateTimeField(null=True, blank=True)
    decline_reason = models.CharField(max_length=16, choices=DeclineReason, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["challenged", "status"])]

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


class Connection(models.Model):
    """An open websocket or stream of a player: a match page's socket (presence, and the
    spectators it counts), any other page's socket, or an API stream. Every kind is capped per
    account, and those on a match per match (``services.presence``).

    Shared by every server process through the database. A process killed without closing its
    sockets leaves rows behind; ``seen_at`` (refreshed by a heartbeat) lets them age out.
    """

    class Kind(models.TextChoices):
        MATCH = "match", "match page"
        PAGE = "page", "other page"  # /ws/me/, /ws/lobby/
        STREAM = "stream", "API stream"  # websocket or http, of a match or the account

    match = models.ForeignKey(
        Match, models.CASCADE, related_name="connections", null=True, blank=True
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MATCH)
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["match", "user", "seen_at"]),
            models.Index(fields=["user", "kind", "seen_at"]),
        ]

    def __str__(self) -> str:
        where = f"match {self.match_id}" if self.match_id else self.get_kind_display()
        return f"{self.user} on {where}"


class Report(models.Model):
    """A player's report about another: an opponent in a match, or a player from their
    profile (no match). The moderators' queue."""

    class Reason(models.TextChoices):
        STALLING = "stalling", _("Stalling or abandoning the match")
        ABUSE = "abuse", _("Abusive behaviour")
        CHEATING = "cheating", _("Cheating or collusion")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="reports_against"
    )
    match = models.ForeignKey(Match, models.PROTECT, related_name="reports", null=True, blank=True)
    reason = models.CharField(max_length=16, choices=Reason)
    details = models.TextField(blank=True, max_length=2000)
    status = models.CharField(max_length=16, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [("suspend_player", "Can suspend and reinstate players")]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.reporter} about {self.reported}"


class ModerationAction(AppendOnly):
    """The audit log: every moderator action, append-only."""

    append_only = "The audit log is append-only"

    class Kind(models.TextChoices):
        VOID = "void", _("Void match")
        ADJUDICATE = "adjudicate", _("Adjudicate match")
        ABORT = "abort", _("Abort match")
        SUSPEND = "suspend", _("Suspend player")
        REINSTATE = "reinstate", _("Reinstate player")
        RESOLVE_REPORT = "resolve", _("Resolve report")
        DISMISS_REPORT = "dismiss", _("Dismiss report")
        REVOKE_TOKEN = "revoke_token", _("Revoke API token")
        ACCEPT_WORDING = "accept_wording", _("Accept a translation")
        REJECT_WORDING = "reject_wording", _("Reject a translation")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind)
    match = models.ForeignKey(Match, models.PROTECT, null=True, blank=True, related_name="+")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    report = models.ForeignKey(Report, models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.moderator}"


class Theme(models.TextChoices):
    """The site's colours: the device's choice (light or dark), or one of them always."""

    AUTO = "auto", _("As the device")
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")


class PlayerSettings(models.Model):
    """A player's own choices; the language follows them from device to device."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, related_name="settings")
    language = models.CharField(max_length=8, blank=True)
    sound = models.BooleanField(default=False)  # a short sound on my turn and their cards
    theme = models.CharField(max_length=8, choices=Theme.choices, default=Theme.AUTO)
    four_colour = models.BooleanField(default=False)  # diamonds blue, clubs green
    # A bot account plays only through the API, shows a BOT badge and has its own leaderboard;
    # set on a fresh account (no match yet), never unset.
    bot = models.BooleanField(default=False)
    # Whether bot accounts may challenge this player.
    bot_challenges = models.BooleanField(default=False)
    # Whether a puzzle from this player's matches may name them once solved (both must allow).
    puzzle_names = models.BooleanField(default=False)
    # A mail when it is the player's turn in a correspondence match (to their address, if any).
    turn_mail = models.BooleanField(default=True)
    # Web origins (scheme://host[:port], one a line) whose pages may call the API with this
    # player's tokens (CORS): a browser client of their own.
    api_origins = models.TextField(blank=True, max_length=2000)
    # How long the table plays a hand's end (PACE_STAGES), and whether the page plays a card
    # for the player when it is the only one they may play.
    table_pace = models.CharField(max_length=8, choices=TablePace.choices, default=TablePace.QUICK)
    forced_card = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Settings of {self.user}"


def is_bot(user) -> bool:
    """Whether ``user`` is a bot account. Reads the player's settings unless they came with
    the user (``select_related("...__settings")``), and remembers the answer on the user."""
    if user is None or not getattr(user, "pk", None):
        return False
    try:
        return bool(user.settings.bot)
    except PlayerSettings.DoesNotExist:
        return False


class WorkerBeat(models.Model):
    """A task worker's heartbeat (``manage.py run_worker``): a worker silent for longer than
    ``WORKER_DEAD_AFTER_SECONDS`` is dead, and the tasks it had taken are queued again."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}"


class NameSkeleton(models.Model):
    """What each player's name looks like (games.i18n.names.skeleton), so that a new name that
    passes for a taken one is found with one indexed query. Kept by a signal on every save of
    a user's name, whichever way the account was made."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.CASCADE, primary_key=True, related_name="+"
    )
    skeleton = models.CharField(max_length=600, db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.skeleton}"


class MatchAnalysis(models.Model):
    """What each option of each decision of a finished match was worth (``games.bots.analysis``),
    worked out once by the task worker when the match ended. Nobody reads it before the match
    is over: it names every card of both hands."""

    match = models.OneToOneField(Match, models.CASCADE, related_name="analysis")
    samples = models.PositiveIntegerField()  # the search's budget: opponent hands per decision
    result = models.JSONField()  # analysis.as_json: the decisions and each seat's figures
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "match analyses"

    def __str__(self) -> str:
        return f"Analysis of match {self.match_id}"


class ApiToken(models.Model):
    """A personal API token: a program acts for its player with it (``games.api``). Only its
    SHA-256 is kept (the token is 256 random bits, so a fast hash is enough: nothing to guess);
    the player sees the token once, when it is made. Revoked, it stops working at once."""

    class Scope(models.TextChoices):
        # Persisted: the values never change.
        READ = "read", _("Read: your account, your matches and their events")
        PLAY = "play", _("Play: moves, resigning, claims, challenges and joining matches")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.CharField(max_length=32)  # space-separated Scope values
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user}: {self.name}"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    def allows(self, scope: str) -> bool:
        return scope in self.scopes.split()


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

    match = models.ForeignKey(Match, models.CASCADE, related_name="puzzles")
    index = models.PositiveIntegerField()  # the move's place in the match (0: the first)
    seat = models.PositiveSmallIntegerField()
    answer = models.CharField(max_length=16)  # the action, as the engine writes it
    theme = models.CharField(max_length=16, choices=PuzzleTheme.choices)
    graded = models.CharField(max_length=8)  # "points" or "chances"
    margin = models.FloatField()  # the answer's lead over the next option
    options = models.JSONField()  # [[action, value from what the seat knew], ...]
    line = models.JSONField()  # the rest of the hand after the answer: [[seat, action], ...]
    reason = models.JSONField()  # the hints' reason for the answer: [code, params]
    rating = models.IntegerField(default=rating.INITIAL)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

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
    value = models.IntegerField(default=rating.INITIAL)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user}: {self.value}"


class PuzzleAttempt(models.Model):
    """One player's answer to one puzzle (one each: a puzzle once tried is not shown again),
    with the player's puzzle rating before and after it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(Puzzle, models.CASCADE, related_name="tries")
    chosen = models.CharField(max_length=16)
    correct = models.BooleanField()
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_attempt_per_puzzle")
        ]

    def __str__(self) -> str:
        return f"{self.user} on puzzle {self.puzzle_id}: {'solved' if self.correct else 'missed'}"


class TranslationSuggestion(models.Model):
    """A player's better wording for one message of a language's catalogue, with a note: the
    moderators' queue. An accepted one is written into the catalogue (``applied_at``)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for a moderator")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Not taken")

    language = models.CharField(max_length=8)
    msgctxt = models.TextField(blank=True)
    msgid = models.TextField()
    current = models.TextField(blank=True)  # the catalogue's wording when it was suggested
    text = models.TextField(max_length=2000)
    note = models.TextField(blank=True, max_length=1000)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="translation_suggestions"
    )
    credit = models.BooleanField(default=False)  # name the author on the thanks page
    status = models.CharField(max_length=16, choices=Status, default=Status.OPEN)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["language", "status"])]

    def __str__(self) -> str:
        return f"{self.language}: {self.msgid[:60]}"


class Guest(models.Model):
    """A visitor playing without an account: a real user (every page and socket works as for a
    player) with no usable password, bound to the one session that made it, named
    ``GUEST_USERNAME`` (a space: never a valid sign-up name, so nobody can take one). Keeping
    the games (``services.guest_keep``) gives the same user a name and a password and drops
    this row. ``seen_at`` is the last visit, refreshed at most hourly; guests not seen for
    ``GUEST_DAYS`` are swept (``services.guests_sweep``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.CASCADE, primary_key=True, related_name="guest"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"Guest {self.user_id}"


GUEST_USERNAME = "Guest {}"


def is_computer(user) -> bool:
    """Whether ``user`` (or a username) is one of the computer's accounts ("computer-easy"),
    which sign-up reserves."""
    name = user if isinstance(user, str) else getattr(user, "username", "")
    return name.startswith(COMPUTER_USERNAME.format(""))


def is_guest(user) -> bool:
    """Whether ``user`` is a guest (one query, remembered on the user object)."""
    if user is None or not getattr(user, "pk", None):
        return False
    if not hasattr(user, "_is_guest"):
        user._is_guest = Guest.objects.filter(user_id=user.pk).exists()
    return user._is_guest


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
