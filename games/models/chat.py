"""Table talk: the lines said at a match or in an arena (a quick message, read in each reader's
own language, or a line of free chat, plain text), the opponents a player muted for a match,
and the players a moderator timed out of chat."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# At most this many characters in a line of free chat.
CHAT_LENGTH = 140


class ChatRoom(models.TextChoices):
    """Where a line is said: between the two players, or among those watching (the players
    read it once the match is over, so nobody can help a player during it); or in an arena,
    on its page."""

    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")
    ARENA = "arena", _("Arena")


class ChatLine(models.Model):
    """One line, kept with its match (for the two players' replay and for moderators) or its
    arena: one of the two, never both. A removed line stays here (with who removed it and
    when) and is shown to nobody."""

    match = models.ForeignKey(
        "games.Match", models.CASCADE, related_name="chat_lines", null=True, blank=True
    )
    arena = models.ForeignKey(
        "games.Arena", models.CASCADE, related_name="chat_lines", null=True, blank=True
    )
    room = models.CharField(max_length=16, choices=ChatRoom, default=ChatRoom.PLAYERS)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    # A quick message's code (games.services.chat.PHRASES), or free chat's text: one of them.
    phrase = models.CharField(max_length=16, blank=True)
    text = models.CharField(max_length=CHAT_LENGTH, blank=True)
    # The match's moves when it was said: its place among them in the move log.
    move_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["pk"]
        # By time: the retention sweep (CHAT_DAYS).
        indexes = [
            models.Index(fields=["author", "-created_at"]),
            models.Index(fields=["created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(match__isnull=False, arena__isnull=True)
                    | models.Q(match__isnull=True, arena__isnull=False)
                ),
                name="chat_line_at_a_match_or_an_arena",
            )
        ]

    def __str__(self) -> str:
        return f"{self.author}: {self.phrase or self.text}"


class ChatMute(models.Model):
    """A player muted another for one match: nothing that one says there reaches them."""

    match = models.ForeignKey("games.Match", models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player", "muted"], name="one_mute_a_match")
        ]

    def __str__(self) -> str:
        return f"{self.player} muted {self.muted}"


class ChatTimeout(models.Model):
    """A moderator's time out: the player may say nothing in any chat until ``until``."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    until = models.DateTimeField()
    reason = models.TextField()
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["player", "-until"])]

    def __str__(self) -> str:
        return f"{self.player} timed out until {self.until:%Y-%m-%d %H:%M}"
