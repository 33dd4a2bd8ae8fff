"""Personal API tokens: made and revoked by their player on the settings page; a program
presents one as ``Authorization: Bearer <token>`` (``games.api``)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..errors import GameError, LimitReached, NotAllowed, NotFound
from ..models import ApiToken, is_guest
from . import events

PREFIX = "euchre_"
TOKENS_PER_PLAYER = 20


def token_digest(token: str) -> str:
    """What is stored and looked up: the token's SHA-256."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def api_token_create(*, user, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token for ``user`` with these scopes; returns the row and the token itself, which
    is never stored and so can be shown only now."""
    if is_guest(user):
        raise NotAllowed("guest_account")  # a program acts for an account, not a visit
    scopes = sorted(set(scopes))
    if not scopes or not set(scopes) <= set(ApiToken.Scope.values):
        raise GameError("bad_scopes")
    name = name.strip()[:60]
    if not name:
        raise GameError("token_name")
    with transaction.atomic():
        live = ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if len(live) >= TOKENS_PER_PLAYER:
            raise LimitReached("tokens_cap", count=TOKENS_PER_PLAYER)
        token = PREFIX + secrets.token_urlsafe(32)
        row = ApiToken.objects.create(
            user=user, name=name, digest=token_digest(token), scopes=" ".join(scopes)
        )
    return row, token


def api_token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens: requests with it are refused from now on, and its open
    streams (http and websocket) close as soon as the news reaches them."""
    with transaction.atomic():
        row = ApiToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if row is None:
            raise NotFound("no_such_token")
        if row.revoked_at is None:
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            events.token_revoked_on_commit(row.pk)
    return row


def api_token_used(*, token_id: int, at: datetime) -> None:
    """Note when a token was last used (the settings page shows it): one statement, no lock,
    as a later use only moves it forward."""
    ApiToken.objects.filter(pk=token_id).update(last_used_at=at)


def api_tokens_revoke_all(*, user) -> int:
    """Revoke every live token of ``user`` (their password changed or was reset: a token made
    with a stolen password must not outlive it); returns how many were live."""
    with transaction.atomic():
        live = ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        revoked = list(live.values_list("pk", flat=True))
        ApiToken.objects.filter(pk__in=revoked).update(revoked_at=timezone.now())
        for token_id in revoked:
            events.token_revoked_on_commit(token_id)
    return len(revoked)
