"""The player's own settings."""

from __future__ import annotations

from django.db import transaction

from ..db.selectors.matches import has_matches
from ..errors import Conflict
from ..models import PlayerSettings
from .core import players_locked


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


def player_bot_set(*, user) -> None:
    """Make ``user``'s account a bot account: for good, and only while it has no match."""
    with transaction.atomic():
        players_locked(user)
        if has_matches(user=user):
            raise Conflict("bot_has_matches")
        PlayerSettings.objects.update_or_create(user=user, defaults={"bot": True})


def player_puzzle_names_set(*, user, allowed: bool) -> None:
    """Whether a solved puzzle from ``user``'s matches may name them (and link the match)."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={"puzzle_names": bool(allowed)})


def player_bot_challenges_set(*, user, allowed: bool) -> None:
    """Whether bot accounts may challenge ``user``."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(
            user=user, defaults={"bot_challenges": bool(allowed)}
        )
