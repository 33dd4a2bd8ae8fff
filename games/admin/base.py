"""What the desk's pages share: an action that asks for a reason first and applies it
through the services, and the read-only page of history nobody edits by hand."""

from __future__ import annotations

from django.contrib import admin, messages
from django.template.response import TemplateResponse

from .. import services
from ..presentation import refusals


def moderate(
    modeladmin, request, queryset, *, action, title, description, apply, winners=None,
    undone=(), durations=None,
):  # fmt: skip
    """An admin action that asks for a reason first, then calls ``apply(obj, reason, post)``
    on each selected object through the services, and reports what happened. ``winners``
    (players) and ``durations`` ((minutes, words) pairs) add a choice the action needs."""
    reason = request.POST.get("reason", "")
    if request.POST.get("apply"):
        done, refused = 0, []
        for obj in queryset:
            try:
                apply(obj, reason, request.POST)
                done += 1
            except services.GameError as error:
                refused.append(f"{obj}: {refusals.words(error)}")
        if done:
            modeladmin.message_user(request, f"{title}: {done} done.", messages.SUCCESS)
        for line in refused:
            modeladmin.message_user(request, line, messages.ERROR)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title, "description": description, "objects": list(queryset),
        "action": action, "winners": winners, "reason": reason, "undone": list(undone),
        "durations": durations,
    }  # fmt: skip
    return TemplateResponse(request, "admin/games/moderate.html", context)


class ReadOnlyAdmin(admin.ModelAdmin):
    """History that nobody edits by hand: it only changes through games.services."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
