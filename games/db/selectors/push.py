"""A player's Web Push devices and choices, for the settings page."""

from __future__ import annotations

from ...models import PlayerSettings, PushSubscription


def push_devices(*, user) -> list[PushSubscription]:
    """The player's devices that are notified, oldest first."""
    return list(PushSubscription.objects.filter(user=user).order_by("created_at", "pk"))


def turn_mail_with_push(*, user) -> bool:
    """Whether the player wants the turn's mail even when a device was told of the turn."""
    return PlayerSettings.objects.filter(user=user, turn_mail_with_push=True).exists()
