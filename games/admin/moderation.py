"""Players' reports (resolved or dismissed, from the list or the report's page) and the
moderators' audit log."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import Truncator

from .. import services
from ..models import ModerationAction, Report
from ..presentation import refusals
from .base import ReadOnlyAdmin, moderate
from .chat import chat_timeout_action, english_words, line_chat_url, may_moderate_chat


@admin.action(description="Mark the selected reports resolved", permissions=["moderate"])
def resolve_reports(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="resolve_reports", title="Resolve reports",
        description="The reports leave the queue as resolved.",
        apply=lambda r, reason, post: services.report_close(
            moderator=request.user, report=r, dismissed=False, reason=reason),
    )  # fmt: skip


@admin.action(description="Dismiss the selected reports", permissions=["moderate"])
def dismiss_reports(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="dismiss_reports", title="Dismiss reports",
        description="The reports leave the queue as dismissed.",
        apply=lambda r, reason, post: services.report_close(
            moderator=request.user, report=r, dismissed=True, reason=reason),
    )  # fmt: skip


timeout_reported_from_chat = chat_timeout_action(
    "timeout_reported_from_chat", "Time the reported players out of chat",
    lambda report: report.reported,
)  # fmt: skip


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "reporter", "reported", "reason", "status", "match_link")
    list_filter = ("status", "reason", "created_at")
    search_fields = ("reporter__username", "reported__username")
    list_select_related = ("reporter", "reported", "chat_line")
    readonly_fields = (
        "reporter", "reported", "match", "chat_line_shown", "reason", "details", "status",
        "created_at",
    )  # fmt: skip
    exclude = ("chat_line",)  # shown as its words, with links to it and its match's chat
    actions = [resolve_reports, dismiss_reports, timeout_reported_from_chat]

    @admin.display(description="Match")
    def match_link(self, report) -> str:
        if report.match_id is None and report.chat_line_id is not None:  # an arena's chat
            return format_html("Line: {}", self.chat_line_shown(report))
        if report.match_id is None:
            return "none (from the profile)"
        match = format_html(
            '<a href="{}">match {}</a>',
            reverse("admin:games_match_change", args=[report.match_id]), report.match_id,
        )  # fmt: skip
        if report.chat_line_id is None:
            return match
        return format_html("{}<br>Line: {}", match, self.chat_line_shown(report))

    @admin.display(description="Chat line")
    def chat_line_shown(self, report) -> str:
        line = report.chat_line
        if line is None:
            return "-"
        removed = " (removed)" if line.removed_at else ""
        return format_html(
            '<a href="{}" dir="auto">{}</a>{} · <a href="{}">the {}\'s chat</a>',
            reverse("admin:games_chatline_change", args=[line.pk]),
            Truncator(english_words(line)).chars(60), removed, line_chat_url(line),
            "arena" if line.arena_id is not None else "match",
        )  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_moderate_chat_permission(self, request) -> bool:
        return may_moderate_chat(request)

    def has_change_permission(self, request, obj=None) -> bool:
        # Nothing of a report is edited: its page answers it (Resolve, Dismiss) and has no Save.
        return obj is None and super().has_change_permission(request)

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("games.moderate_match")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The report's page has Resolve and Dismiss buttons, with the reason beside them
        (templates/admin/games/report/change_form.html), as well as the list's actions."""
        answer = next((a for a in ("_resolve", "_dismiss") if a in request.POST), None)
        if request.method == "POST" and answer:
            report = self.get_object(request, object_id)
            if report is None or not self.has_moderate_permission(request):
                raise PermissionDenied
            try:
                services.report_close(
                    moderator=request.user, report=report, dismissed=answer == "_dismiss",
                    reason=request.POST.get("moderation_reason", ""),
                )  # fmt: skip
            except services.GameError as error:
                self.message_user(request, refusals.words(error), messages.ERROR)
                return HttpResponseRedirect(request.path)
            done = "dismissed" if answer == "_dismiss" else "resolved"
            self.message_user(request, f"{report}: {done}.", messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:games_report_changelist"))
        extra_context = {
            **(extra_context or {}),
            "can_answer": self.has_moderate_permission(request),
        }
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "moderator", "kind", "match", "player", "reason")
    list_filter = ("kind", "created_at")
    search_fields = ("moderator__username", "player__username", "reason")
    readonly_fields = ("moderator", "kind", "match", "player", "report", "reason", "created_at")
