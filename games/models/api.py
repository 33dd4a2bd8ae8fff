"""Personal API tokens: how a program acts for its player (``games.api``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """A personal API token: a program acts for its player with it (``games.api``). Only its
    SHA-256 is kept (the token is 256 random bits, so a fast hash is enough: nothing to guess);
    the player sees the token once, when it is made. Revoked, it stops working at once."""

    class Scope(models.TextChoices):
        # Persisted: the values never change.
        READ = "read", _("Read: your account, your matches and their events")
        PLAY = "play", _("Play: moves, resigning, claims, challenges and joining matches")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.CharField(max_length=32)  # space-separated Scope values
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user}: {self.name}"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    def allows(self, scope: str) -> bool:
        return scope in self.scopes.split()
