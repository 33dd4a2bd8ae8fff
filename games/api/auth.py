"""The bearer token: who a request (or a stream) acts for, with what scopes, and how often.

CSRF does not apply: a token is sent by the program itself in a header, never by a browser
on its own, and the endpoints read no cookie."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from ..db import statements
from ..models import ApiToken
from ..services import GameError, NotAllowed, throttle, token_digest

# Writing last_used_at on every request would cost each move a write: once a minute is plenty
# for the settings page's "last used".
USED_EVERY = timedelta(minutes=1)


class Unauthorized(GameError):
    """No token, an unknown or revoked one, or one whose player may no longer log in."""


def token_from_header(value: str) -> str | None:
    scheme, _space, token = (value or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


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
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row


def token_live(token_id: int) -> bool:
    """Whether a stream opened with this token may go on (not revoked, player not suspended)."""
    return live_token(token_id) is not None


def live_token(token_id: int) -> ApiToken | None:
    """The token (with its scopes), unless it was revoked or its player suspended."""
    return statements.TOKEN_BY_ID.first(token_id)
