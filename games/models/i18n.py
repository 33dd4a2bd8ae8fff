"""Players' wordings for the site's messages, the moderators' queue."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TranslationSuggestion(models.Model):
    """A player's better wording for one message of a language's catalogue, with a note: the
    moderators' queue. An accepted one is written into the catalogue (``applied_at``)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for a moderator")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Not taken")

    language = models.CharField(max_length=8)
    msgctxt = models.TextField(blank=True)
    msgid = models.TextField()
    current = models.TextField(blank=True)  # the catalogue's wording when it was suggested
    text = models.TextField(max_length=2000)
    note = models.TextField(blank=True, max_length=1000)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="translation_suggestions"
    )
    credit = models.BooleanField(default=False)  # name the author on the thanks page
    status = models.CharField(max_length=16, choices=Status, default=Status.OPEN)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["language", "status"])]

    def __str__(self) -> str:
        return f"{self.language}: {self.msgid[:60]}"
