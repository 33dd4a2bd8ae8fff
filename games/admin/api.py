"""Players' API tokens, read only; a misbehaving program's token revoked."""

from __future__ import annotations

from django.contrib import admin

from .. import services
from ..models import ApiToken
from .base import ReadOnlyAdmin, moderate


@admin.action(description="Revoke the selected API tokens", permissions=["suspend"])
def revoke_tokens(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="revoke_tokens", title="Revoke API tokens",
        description="The programs using these tokens stop at once (their open streams close); "
        "their players keep their accounts and can make new tokens.",
        apply=lambda t, reason, post: services.api_token_revoke_moderated(
            moderator=request.user, token_id=t.pk, reason=reason),
    )  # fmt: skip


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    """Players' API tokens: who has which, what it may do, when it was last used. The token
    itself is never stored (only its hash, not shown); a program misbehaving is stopped by
    revoking its token."""

    list_display = ("user", "name", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter), "scopes", "created_at")
    search_fields = ("user__username", "name")
    fields = ("user", "name", "scopes", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    list_select_related = ("user",)
    actions = [revoke_tokens]

    def has_suspend_permission(self, request) -> bool:
        return request.user.has_perm("games.suspend_player")
