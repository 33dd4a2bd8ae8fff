"""Arenas: cancelled, their players removed, their log read."""

from __future__ import annotations

from django.contrib import admin

from .. import services
from ..models import Arena, ArenaAudit, ArenaPlayer
from .base import ReadOnlyAdmin, moderate


@admin.action(description="Cancel the selected arenas", permissions=["moderate"])
def cancel_arenas(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="cancel_arenas", title="Cancel arenas",
        description="No more pairing and no podium; matches in play go on as ordinary ones.",
        apply=lambda a, reason, post: services.arena_cancel(
            moderator=request.user, arena_id=a.pk, reason=reason),
    )  # fmt: skip


@admin.action(description="Remove the selected players from their arena", permissions=["moderate"])
def remove_arena_players(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="remove_arena_players",
        title="Remove players from an arena",
        description="Their points are void; they are paired no more and cannot join again.",
        apply=lambda e, reason, post: services.arena_player_remove(
            moderator=request.user, arena_id=e.arena_id, player=e.user, reason=reason),
    )  # fmt: skip


class ArenaAuditInline(admin.TabularInline):
    """The arena's log: created, started, finished, cancelled, players removed, and why."""

    model = ArenaAudit
    fields = readonly_fields = ("created_at", "kind", "actor", "player", "reason")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(ReadOnlyAdmin):
    """Arenas are announced by players and moderators on the site; here moderators cancel
    them and read their log (players are removed from the arena's players' list)."""

    list_display = ("id", "name", "status", "starts_at", "minutes", "created_by", "rated")
    list_filter = ("status", "rated", "invited_only", "bots_allowed")
    search_fields = ("name", "created_by__username")
    readonly_fields = (
        "name", "created_by", "starts_at", "minutes", "deck", "target", "stick_the_dealer",
        "dealer_must_take_up", "move_seconds", "rated", "invited_only", "bots_allowed",
        "status", "created_at",
    )  # fmt: skip
    exclude = ("pair_due",)
    inlines = [ArenaAuditInline]
    actions = [cancel_arenas]

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("games.moderate_arena")


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(ReadOnlyAdmin):
    list_display = ("arena", "user", "score", "wins", "losses", "paused", "removed")
    list_filter = ("removed", "paused")
    search_fields = ("user__username", "arena__name")
    list_select_related = ("arena", "user")
    readonly_fields = ("arena", "user", "score", "streak", "wins", "losses", "paused", "removed")
    exclude = ("last_opponent", "free_since", "opponents_rating", "notify")
    actions = [remove_arena_players]

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("games.moderate_arena")
