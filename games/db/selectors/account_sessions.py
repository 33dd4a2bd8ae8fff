"""A player's sessions as the account page lists them."""

from __future__ import annotations

from django.contrib.sessions.models import Session
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ...models import AccountSession


def account_sessions(*, user) -> list[AccountSession]:
    """``user``'s sessions whose Django session is there and has not expired, the last seen
    first (one ended by a password change is still there: the caller checks each one's hash,
    as ``realtime.sessions.session_is_users`` does)."""
    live = Session.objects.filter(
        session_key=OuterRef("session_key"), expire_date__gt=timezone.now()
    )
    return list(AccountSession.objects.filter(user=user).filter(Exists(live)))
