"""The player's own settings."""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

from django.core.cache import cache
from django.db import transaction

from .. import caches
from ..db.selectors.matches import has_matches
from ..errors import Conflict, GameError, NotAllowed
from ..models import PlayerSettings, is_guest
from .core import players_locked

log = logging.getLogger(__name__)

# How many web origins a player may allow to call the API with their tokens.
API_ORIGINS_MOST = 10
# The cache entry of every player's origins (``games.api.cors``), dropped when one changes.
API_ORIGINS_KEY = "api:origins"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")


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


def player_table_pace_set(*, user, pace: str, forced_card: bool) -> None:
    """How long the player's table plays a hand's end (a ``TablePace`` value; the form checks
    it), and whether their page plays a card for them when it is the only one they may play."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(
            user=user, defaults={"table_pace": pace, "forced_card": bool(forced_card)}
        )


def player_bot_set(*, user) -> None:
    """Make ``user``'s account a bot account: for good, and only while it has no match."""
    with transaction.atomic():
        players_locked(user)
        if is_guest(user):
            raise NotAllowed("guest_account")
        if has_matches(user=user):
            raise Conflict("bot_has_matches")
        PlayerSettings.objects.update_or_create(user=user, defaults={"bot": True})


def player_puzzle_names_set(*, user, allowed: bool) -> None:
    """Whether a solved puzzle from ``user``'s matches may name them (and link the match)."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={"puzzle_names": bool(allowed)})


def player_turn_mail_set(*, user, allowed: bool) -> None:
    """Whether ``user`` gets a mail when it is their turn in a correspondence match (to their
    confirmed address: ``mail_addresses``)."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={"turn_mail": bool(allowed)})


def player_bot_challenges_set(*, user, allowed: bool) -> None:
    """Whether bot accounts may challenge ``user``."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(
            user=user, defaults={"bot_challenges": bool(allowed)}
        )


def api_origin(text: str) -> str | None:
    """``text`` as a browser writes it in an ``Origin`` header (``scheme://host[:port]``,
    lower case, no default port), or None unless it is an http or https origin: a trailing
    ``/`` is forgiven (an address bar's), a path, a query or a user name are not."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except (ValueError, UnicodeError):
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or parts.path not in ("", "/") or parts.query:
        return None
    if parts.fragment or "@" in parts.netloc or text.strip().endswith(("?", "#")) or port == 0:
        return None
    if "[" in parts.netloc:  # IPv6
        if not re.fullmatch(r"[0-9a-f:.]+", host):
            return None
        host = f"[{host}]"
    elif not _HOST.fullmatch(host):
        return None
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def player_api_origins_set(*, user, origins: list[str]) -> list[str]:
    """The web origins whose pages may call the API with ``user``'s tokens (CORS), replacing
    those before: each an http or https ``scheme://host[:port]`` (kept as ``api_origin``
    writes it, once), at most ``API_ORIGINS_MOST``. Returns them as stored."""
    kept: list[str] = []
    for text in origins:
        origin = api_origin(text)
        if origin is None:
            raise GameError("api_origin_invalid", origin=text.strip()[:100])
        if origin not in kept:
            kept.append(origin)
    if len(kept) > API_ORIGINS_MOST:
        raise GameError("api_origins_too_many", most=API_ORIGINS_MOST)
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(
            user=user, defaults={"api_origins": "\n".join(kept)}
        )
        # Dropped now, and again with the commit: a reader may fill the entry in between from
        # the rows as they were.
        _api_origins_changed()
        transaction.on_commit(_api_origins_changed)
    return kept


def _api_origins_changed() -> None:
    try:
        cache.delete(API_ORIGINS_KEY)
    except Exception as error:  # the cache (Redis) is down: the entry lapses within a minute
        log.warning("the API's origins were not dropped from the cache (%s)", error)


caches.register("the API's origins", _api_origins_changed)
