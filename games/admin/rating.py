"""Ratings and their changes, read only: they change through the services alone."""

from __future__ import annotations

from django.contrib import admin

from ..models import PlayerRating, RatingChange
from .base import ReadOnlyAdmin


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("player", "match", "before", "after", "delta", "created_at")
    search_fields = ("player__username",)
    list_select_related = ("player",)
    readonly_fields = ("player", "match", "before", "after", "delta", "created_at")


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "value", "rated_matches")
    search_fields = ("user__username",)
    readonly_fields = ("user", "value", "rated_matches")
    ordering = ("-value",)
