"""The account log (``AccountEvent``): what was done to a player's account, written by the
services that do it (addresses, second factors, sessions, leaving), read by the player on the
settings page and by moderators in the admin."""

from __future__ import annotations

from django.utils.crypto import salted_hmac

from ..models.account import AccountEvent


def address_hash(address: str) -> str:
    """An address as the log keeps it: keyed with the site's secret, so the log holds no
    address and two rows from one address still compare equal."""
    if not address:
        return ""
    return salted_hmac("games.account_log.address", address).hexdigest()


def account_event(*, user, kind: str, detail: str = "", address: str = "") -> AccountEvent:
    """Log ``kind`` (an ``AccountEvent.Kind``) for ``user``, from ``address`` (a client's IP
    address, or none when the site did it)."""
    return AccountEvent.objects.create(
        user=user,
        user_number=user.pk,
        kind=str(kind),
        detail=detail[:200],
        address_hash=address_hash(address),
    )
