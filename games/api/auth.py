"""The bearer token: who a request (or a stream) acts for, with what scopes, and how often.

CSRF does not apply: a token is sent by the program itself in a header (or, on a websocket,
in a subprotocol: a browser's WebSocket cannot set a header), never by a browser on its own,
and the endpoints read no cookie."""

from __future__ import annotations

import re
import time
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .. import caches, services
from ..db import statements
from ..models import ApiToken
from ..services import GameError, NotAllowed, throttle, token_digest

# Writing last_used_at on every request would cost each move a write: once a minute is plenty
# for the settings page's "last used".
USED_EVERY = timedelta(minutes=1)

# A token whose account was found at its cap on streams is refused from this process's memory
# for this long: a flood of attempts costs no read of the token, the limits or the account's
# streams (and so nothing to the other players). A stream that closes meanwhile frees its
# place a moment later.
FULL_FOR = 1.0
_full: dict[str, float] = {}  # token digest -> time.monotonic() until which it is refused


class Unauthorized(GameError):
    """No token, an unknown or revoked one, or one whose player may no longer log in."""


# A websocket's client offers ``[SUBPROTOCOL, TOKEN_PROTOCOL + token]``; the server picks
# SUBPROTOCOL, never the one with the secret (a browser fails a connection whose server picks
# none of those it offered).
SUBPROTOCOL = "euchre.v1"
TOKEN_PROTOCOL = "euchre.token."  # noqa: S105 - a prefix, not a secret


# RFC 6750's spelling and no other: the scheme in any case, one space, the token. The front
# counts the streams a token opens by the token it reads from the header, however spelt
# (deploy/nginx.conf): a spelling taken here and read otherwise there would have a limit of
# its own.
BEARER = re.compile(r"(?i:bearer) ([\w.~+/-]+=*)", re.ASCII)


def token_from_header(value: str) -> str | None:
    """The token of an ``Authorization`` header spelt ``Bearer <token>``, else None."""
    found = BEARER.fullmatch(value or "")
    return found[1] if found else None


def token_from_subprotocols(offered: list[str]) -> str | None:
    """The token a websocket's client offered as the subprotocol ``euchre.token.<token>``
    (the first such, as the front reads it)."""
    for protocol in offered:
        protocol = protocol.strip(" \t")  # the front skips these, and only these
        if protocol.startswith(TOKEN_PROTOCOL) and len(protocol) > len(TOKEN_PROTOCOL):
            return protocol.removeprefix(TOKEN_PROTOCOL)
    return None


def token_player(header: str) -> int | None:
    """The id of the player whose live token an ``Authorization`` header carries (one read),
    without counting a request against it."""
    token = token_from_header(header)
    row = statements.TOKEN_BY_DIGEST.first(token_digest(token)) if token else None
    return row.user_id if row is not None else None


def authenticate(token: str | None, scope: str) -> ApiToken:
    """The live token with its player, allowed ``scope``; raises Unauthorized, NotAllowed
    (the scope is missing) or throttle.Throttled (too many requests with this token)."""
    row = statements.TOKEN_BY_DIGEST.first(token_digest(token)) if token else None
    if row is None:
        raise Unauthorized("unauthorized")
    if not row.allows(scope):
        raise NotAllowed("scope_missing", scope=scope)
    throttle.hit("api", str(row.pk), settings.API_REQUESTS_PER_MINUTE, 60)
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at > USED_EVERY:
        services.api_token_used(token_id=row.pk, at=now)
    return row


def token_live(token_id: int) -> bool:
    """Whether a stream opened with this token may go on (not revoked, player not suspended)."""
    return live_token(token_id) is not None


def live_token(token_id: int) -> ApiToken | None:
    """The token (with its scopes), unless it was revoked or its player suspended."""
    return statements.TOKEN_BY_ID.first(token_id)


def stream_admit(token: str | None) -> ApiToken:
    """``authenticate(token, "read")`` for a new stream, which raises services.TooOften while
    the token's account holds as many streams as it may. Once the database has said so, the
    token is refused from memory for ``FULL_FOR`` seconds."""
    if stream_full(token):
        raise services.TooOften("too_many_sockets")
    row = authenticate(token, "read")
    try:
        services.connection_room(user=row.user, kind="stream")
    except services.TooOften:
        stream_refused(token_digest(token))
        raise
    return row


def stream_full(token: str | None) -> bool:
    """Whether streams opened with this token are refused now, from memory."""
    return bool(token) and _full.get(token_digest(token), 0.0) > time.monotonic()


def stream_refused(digest: str) -> None:
    """The token's account was found at its cap: refuse it from memory for a while."""
    now = time.monotonic()
    if len(_full) > 10_000:  # tokens are few per account: only a long-lived process gets here
        for old in [d for d, until in _full.items() if until <= now]:
            del _full[old]
    _full[digest] = now + FULL_FOR


caches.register("tokens at their cap on streams", _full.clear)
