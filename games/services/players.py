"""The player's own settings."""

from __future__ import annotations

from django.db import transaction

from ..models import (
    PlayerSettings,
)


def player_language_set(*, user, language: str) -> None:
    """Save the player's language (a code from settings.LANGUAGES; the view checks it)."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={"language": language})


def player_look_set(*, user, theme: str | None = None, four_colour: bool | None = None) -> None:
    """The table's look: the theme (a ``Theme`` value; the view checks it) and the
    four-colour deck. Only what is given changes."""
    changes = {}
    if theme is not None:
        changes["theme"] = theme
    if four_colour is not None:
        changes["four_colour"] = bool(four_colour)
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults=changes)


def player_sound_set(*, user, sound: bool) -> None:
    """Whether the match page plays a sound on the player's turn and the opponent's cards."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={"sound": bool(sound)})
