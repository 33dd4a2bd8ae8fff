"""Leaving: a deleted account's name kept from new sign-ups for a while, and the file of a
player's data (made by the task worker, offered for a day)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# A deleted account's user row stays (its matches are the opponents' history too), renamed to
# this: the space makes it a name nobody can sign up with, and pages show it in words
# ("deleted player"), never as it is.
DELETED_USERNAME = "deleted {}"


def is_deleted(user) -> bool:
    """Whether ``user`` (or a username) is a deleted account's."""
    name = user if isinstance(user, str) else getattr(user, "username", "") or ""
    return name.startswith(DELETED_USERNAME.format("")) and name[8:].isdigit()


class NameReservation(models.Model):
    """A deleted account's name, as it looks (``games.i18n.names.skeleton``), refused to new
    sign-ups until ``until`` (``settings.DELETED_NAME_DAYS`` after the deletion)."""

    skeleton = models.CharField(max_length=600, db_index=True)
    until = models.DateTimeField(db_index=True)
    user_number = models.PositiveIntegerField()  # the deleted account's, for moderators

    def __str__(self) -> str:
        return f"{self.skeleton} until {self.until:%Y-%m-%d}"


class DataExport(models.Model):
    """The file of everything the site holds about a player (docs/DATA_EXPORT.md): asked for
    (``requested_at``), made by the task worker (``ready_at``, ``content``), offered until
    ``expires_at``. One a player: a new request replaces the old."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.CASCADE, primary_key=True, related_name="+"
    )
    requested_at = models.DateTimeField()
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    content = models.TextField(blank=True)  # the JSON file, once made

    def __str__(self) -> str:
        return f"Data of player {self.user_id}"
