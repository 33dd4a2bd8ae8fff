"""The moderators' desk: matches and their move logs, read-only where history must not change.

Moves, seeds and ratings are never edited by hand: every change goes through games.services.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html

from .models import Match, Move, PlayerRating, RatingChange


class MoveInline(admin.TabularInline):
    model = Move
    fields = ("seq", "seat", "player", "action", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id", "player0", "player1", "status", "rated", "deck", "target", "winner",
        "created_at", "finished_at",
    )  # fmt: skip
    list_filter = ("status", "rated", "deck", "target", "created_at", "end_reason")
    search_fields = ("player0__username", "player1__username")
    date_hierarchy = "created_at"
    inlines = [MoveInline]
    readonly_fields = (
        "player0", "player1", "created_by", "deck", "target", "stick_the_dealer",
        "dealer_must_take_up", "rated", "spectators_allowed", "seed", "status", "end_reason",
        "winner", "created_at", "started_at", "finished_at", "version", "replay_link",
    )  # fmt: skip
    exclude = ("snapshot",)
    list_select_related = ("player0", "player1", "winner")

    @admin.display(description="Replay")
    def replay_link(self, match: Match) -> str:
        if match.status != "finished":
            return "Opens when the match is finished"
        return format_html(
            '<a href="{}">Watch the replay</a>', reverse("match_replay", args=[match.pk])
        )

    def has_add_permission(self, request) -> bool:
        return False  # matches are created by players in the lobby

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_search_results(self, request, queryset, search_term):
        if not search_term:
            return queryset, False
        return queryset.filter(
            Q(player0__username__icontains=search_term)
            | Q(player1__username__icontains=search_term)
        ), False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("player", "match", "before", "after", "delta", "created_at")
    search_fields = ("player__username",)
    list_select_related = ("player",)
    readonly_fields = ("player", "match", "before", "after", "delta", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "value", "rated_matches")
    search_fields = ("user__username",)
    readonly_fields = ("user", "value", "rated_matches")
    ordering = ("-value",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
