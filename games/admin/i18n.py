"""Players' suggested wordings of the site's messages: read in context, accepted or rejected."""

from __future__ import annotations

from django.contrib import admin, messages

from .. import services
from ..models import TranslationSuggestion
from ..presentation import refusals, suggestions
from .base import ReadOnlyAdmin


@admin.action(description="Accept the selected suggestions (into the catalogue at once)",
              permissions=["moderate"])  # fmt: skip
def accept_suggestions(modeladmin, request, queryset):
    return _review_suggestions(modeladmin, request, queryset, accepted=True)


@admin.action(description="Reject the selected suggestions", permissions=["moderate"])
def reject_suggestions(modeladmin, request, queryset):
    return _review_suggestions(modeladmin, request, queryset, accepted=False)


def _review_suggestions(modeladmin, request, queryset, *, accepted: bool):
    done, refused = 0, []
    for suggestion in queryset:
        try:
            services.translation_review(
                moderator=request.user, suggestion_id=suggestion.pk, accepted=accepted
            )
            done += 1
        except services.GameError as error:
            refused.append(f"{suggestion}: {refusals.words(error)}")
    if done:
        verb = "Accepted, and written into the catalogue" if accepted else "Rejected"
        modeladmin.message_user(request, f"{verb}: {done}.", messages.SUCCESS)
    for line in refused:
        modeladmin.message_user(request, line, messages.ERROR)


@admin.register(TranslationSuggestion)
class TranslationSuggestionAdmin(ReadOnlyAdmin):
    """Players' wording for the site's messages: read in context (the change against today's
    wording, a preview, the check's verdict), then accepted or rejected. A wording that fails
    the check (``i18n.wording``) is refused on acceptance too."""

    list_display = ("created_at", "language", "english", "current", "text", "verdict", "note",
                    "author", "credit", "status")  # fmt: skip
    list_filter = ("status", "language")
    search_fields = ("msgid", "text", "author__username")
    fields = ("language", "msgctxt", "english", "current", "text", "change", "preview", "verdict",
              "note", "author", "credit", "status", "created_at", "reviewed_by",
              "reviewed_at")  # fmt: skip
    readonly_fields = fields
    actions = [accept_suggestions, reject_suggestions]

    @admin.display(description="English")
    def english(self, suggestion: TranslationSuggestion) -> str:
        return suggestion.msgid

    @admin.display(
        description="Change (today's wording struck through, the suggestion's underlined)"
    )
    def change(self, suggestion: TranslationSuggestion) -> str:
        return suggestions.change_html(suggestion.current, suggestion.text)

    @admin.display(description="As a page shows it")
    def preview(self, suggestion: TranslationSuggestion) -> str:
        return suggestions.preview_html(suggestion.msgid, suggestion.text)

    @admin.display(description="Check")
    def verdict(self, suggestion: TranslationSuggestion) -> str:
        return suggestions.warnings_text(suggestion.msgid, suggestion.text)

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("games.view_translationsuggestion") or (
            self.has_moderate_permission(request)
        )

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("games.moderate_match")
