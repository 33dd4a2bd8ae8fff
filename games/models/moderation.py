"""The moderators' work: players' reports, and the audit log of every moderator action."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .base import AppendOnly


class Report(models.Model):
    """A player's report about another: an opponent in a match, or a player from their
    profile (no match). The moderators' queue."""

    class Reason(models.TextChoices):
        STALLING = "stalling", _("Stalling or abandoning the match")
        ABUSE = "abuse", _("Abusive behaviour")
        CHEATING = "cheating", _("Cheating or collusion")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="reports_against"
    )
    match = models.ForeignKey(
        "games.Match", models.PROTECT, related_name="reports", null=True, blank=True
    )
    # A report of one line of chat (its match is ``match``).
    chat_line = models.ForeignKey(
        "games.ChatLine", models.PROTECT, related_name="reports", null=True, blank=True
    )
    reason = models.CharField(max_length=16, choices=Reason)
    details = models.TextField(blank=True, max_length=2000)
    status = models.CharField(max_length=16, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [("suspend_player", "Can suspend and reinstate players")]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.reporter} about {self.reported}"


class ModerationAction(AppendOnly):
    """The audit log: every moderator action, append-only."""

    append_only = "The audit log is append-only"

    class Kind(models.TextChoices):
        VOID = "void", _("Void match")
        ADJUDICATE = "adjudicate", _("Adjudicate match")
        ABORT = "abort", _("Abort match")
        SUSPEND = "suspend", _("Suspend player")
        REINSTATE = "reinstate", _("Reinstate player")
        RESOLVE_REPORT = "resolve", _("Resolve report")
        DISMISS_REPORT = "dismiss", _("Dismiss report")
        REVOKE_TOKEN = "revoke_token", _("Revoke API token")
        ACCEPT_WORDING = "accept_wording", _("Accept a translation")
        REJECT_WORDING = "reject_wording", _("Reject a translation")
        REMOVE_CHAT = "remove_chat", _("Remove a chat line")
        CHAT_TIMEOUT = "chat_timeout", _("Time a player out of chat")
        FAIR_PLAY_DISMISS = "fp_dismiss", _("Dismiss a fair-play flag")
        FAIR_PLAY_WARN = "fp_warn", _("Warn a player about fair play")
        FAIR_PLAY_MARK = "fp_mark", _("Mark a player (fair play)")
        FAIR_PLAY_REFUND = "fp_refund", _("Refund a marked player's victims")
        APPEAL_UPHOLD = "fp_uphold", _("Uphold a fair-play appeal's mark")
        APPEAL_GRANT = "fp_grant", _("Grant a fair-play appeal")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind)
    match = models.ForeignKey(
        "games.Match", models.PROTECT, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    report = models.ForeignKey(Report, models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.moderator}"
