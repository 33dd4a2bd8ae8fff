"""Accounts beyond Django's user: a player's settings, bots, guests, the computer's
accounts, and what each name looks like (so that none passes for another)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .match import TablePace


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
    # Whether other players may see this player's insights page (their own always may).
    insights_public = models.BooleanField(default=False)
    # A mail when it is the player's turn in a correspondence match (to their address, if any).
    turn_mail = models.BooleanField(default=True)
    # Every turn's mail, rather than at most one a match a day.
    turn_mail_each = models.BooleanField(default=False)
    # The turn's mail even when a push notification told a device of the turn (models.push).
    turn_mail_with_push = models.BooleanField(default=False)
    # A mail when an arena the player joined (asking to be told) starts; on a log-in from a
    # device the account had not used. Turned off by the mails' one-click unsubscription too.
    arena_mail = models.BooleanField(default=True)
    new_login_mail = models.BooleanField(default=True)
    # Web origins (scheme://host[:port], one a line) whose pages may call the API with this
    # player's tokens (CORS): a browser client of their own.
    api_origins = models.TextField(blank=True, max_length=2000)
    # How long the table plays a hand's end (PACE_STAGES), and whether the page plays a card
    # for the player when it is the only one they may play.
    table_pace = models.CharField(max_length=8, choices=TablePace.choices, default=TablePace.QUICK)
    forced_card = models.BooleanField(default=False)
    # Free chat (lines typed by players) shown and sent: off until the player turns it on;
    # quick messages are always there. A short sound when a line arrives.
    free_chat = models.BooleanField(default=False)
    chat_sound = models.BooleanField(default=False)

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


def is_guest(user) -> bool:
    """Whether ``user`` is a guest (one query, remembered on the user object)."""
    if user is None or not getattr(user, "pk", None):
        return False
    if not hasattr(user, "_is_guest"):
        user._is_guest = Guest.objects.filter(user_id=user.pk).exists()
    return user._is_guest


COMPUTER_USERNAME = "computer-{}"


def is_computer(user) -> bool:
    """Whether ``user`` (or a username) is one of the computer's accounts ("computer-easy"),
    which sign-up reserves."""
    name = user if isinstance(user, str) else getattr(user, "username", "")
    return name.startswith(COMPUTER_USERNAME.format(""))


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
