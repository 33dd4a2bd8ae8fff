"""Players (Django's user, with the site's admin): suspending and reinstating them, links to
their matches, rating changes and reports."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html

from .. import services
from ..models import is_deleted
from .base import moderate
from .chat import chat_timeout_action, may_moderate_chat


@admin.action(description="Suspend the selected players", permissions=["suspend"])
def suspend_players(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="suspend_players", title="Suspend players",
        description="They cannot log in or play; their matches in play go to their opponents.",
        apply=lambda u, reason, post: services.player_suspend(
            moderator=request.user, player=u, reason=reason),
    )  # fmt: skip


@admin.action(description="Reinstate the selected players", permissions=["suspend"])
def reinstate_players(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="reinstate_players", title="Reinstate players",
        description="They can log in and play again.",
        apply=lambda u, reason, post: services.player_reinstate(
            moderator=request.user, player=u, reason=reason),
    )  # fmt: skip


timeout_players_from_chat = chat_timeout_action(
    "timeout_players_from_chat", "Time the selected players out of chat", lambda user: user
)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "state", "email", "is_active", "is_staff", "date_joined", "links")
    list_filter = ("is_active", "is_staff", "groups")
    actions = [suspend_players, reinstate_players, timeout_players_from_chat]

    def get_actions(self, request):
        # A player who has played is kept with their matches (their rows protect them), and
        # deleting is never a moderator's everyday step: no "delete selected" beside Suspend.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description="Account")
    def state(self, user) -> str:
        # A deleted account keeps its row (its matches are the opponents' history), renamed.
        if is_deleted(user):
            return "deleted"
        return "active" if user.is_active else "suspended"

    @admin.display(description="History")
    def links(self, user) -> str:
        return format_html(
            '<a href="{}?q={}">matches</a> · <a href="{}?q={}">rating changes</a> · '
            '<a href="{}?reported__id__exact={}">reports</a> · '
            '<a href="{}?author__id__exact={}">chat</a>',
            reverse("admin:games_match_changelist"), user.username,
            reverse("admin:games_ratingchange_changelist"), user.username,
            reverse("admin:games_report_changelist"), user.pk,
            reverse("admin:games_chatline_changelist"), user.pk,
        )  # fmt: skip

    def has_suspend_permission(self, request) -> bool:
        return request.user.has_perm("games.suspend_player")

    def has_moderate_chat_permission(self, request) -> bool:
        return may_moderate_chat(request)
