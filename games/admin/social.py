"""Blocks between players, read only."""

from __future__ import annotations

from django.contrib import admin

from ..models import Block
from .base import ReadOnlyAdmin


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    """Who blocked whom: a moderator handling a report of harassment sees whether the one
    harassed had already blocked the other (the players' own choice: read only here)."""

    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
    readonly_fields = ("blocker", "blocked", "created_at")
    ordering = ("-created_at",)
