"""Puzzles and puzzle ratings, read only."""

from __future__ import annotations

from django.contrib import admin

from ..models import Puzzle, PuzzleRating
from .base import ReadOnlyAdmin


@admin.register(Puzzle)
class PuzzleAdmin(ReadOnlyAdmin):
    """Puzzles come from analysed matches; a voided match's are no longer shown."""

    list_display = ("pk", "match", "index", "theme", "answer", "rating", "attempts", "solved")
    list_filter = ("theme", "graded")
    readonly_fields = (
        "match", "index", "seat", "answer", "theme", "graded", "margin", "options", "line",
        "reason", "rating", "attempts", "solved", "created_at",
    )  # fmt: skip
    ordering = ("-created_at",)


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "value", "attempts", "solved")
    search_fields = ("user__username",)
    readonly_fields = ("user", "value", "attempts", "solved")
    ordering = ("-value",)
