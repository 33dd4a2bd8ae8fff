"""The moderators' desk: matches and their move logs, read-only where history must not change.

Moves, seeds and ratings are never edited by hand: every change goes through games.services.
Each module registers the pages of one aggregate (as ``games.models``); importing them here is
what registers them when the admin discovers ``games.admin``.
"""

from . import api, arena, chat, fairplay, i18n, match, moderation, players, puzzle, rating, social

__all__ = [
    "api", "arena", "chat", "fairplay", "i18n", "match", "moderation", "players", "puzzle",
    "rating", "social",
]  # fmt: skip
