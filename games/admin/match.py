"""Matches and their move logs; voiding, adjudicating and aborting them; the filter of
suspicious pairs (rating farming). Neither the seed nor the snapshot is ever shown in play."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Q
from django.db.models.constants import LOOKUP_SEP
from django.urls import reverse
from django.utils.html import format_html

from .. import services
from ..db import selectors
from ..engine.verify import commitment
from ..models import Match, MatchStatus, Move, RatingChange
from .base import moderate


@admin.action(description="Void the selected matches (ratings reversed)", permissions=["moderate"])
def void_matches(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="void_matches", title="Void matches",
        description="The matches will no longer count; their rating changes are reversed.",
        apply=lambda m, reason, post: services.match_void(
            moderator=request.user, match_id=m.pk, reason=reason),
        undone=RatingChange.objects.filter(match__in=queryset).select_related("player", "match")
        .order_by("match_id", "player__username"),
    )  # fmt: skip


@admin.action(description="Adjudicate the selected match", permissions=["moderate"])
def adjudicate_match(modeladmin, request, queryset):
    if queryset.count() != 1:
        modeladmin.message_user(request, "Adjudicate one match at a time.", messages.ERROR)
        return None
    match = queryset.get()

    def apply(m, reason, post):
        winner = next((p for p in m.players if p and str(p.pk) == post.get("winner")), None)
        if winner is None:
            raise services.GameError("winner_not_player")
        services.match_adjudicate(
            moderator=request.user, match_id=m.pk, winner=winner, reason=reason
        )

    return moderate(
        modeladmin, request, queryset, action="adjudicate_match", title="Adjudicate match",
        description="The match ends now and goes to the player you choose (rated as a finish).",
        apply=apply, winners=[p for p in match.players if p],
    )  # fmt: skip


@admin.action(description="Abort the selected matches (no result)", permissions=["moderate"])
def abort_matches(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="abort_matches", title="Abort matches",
        description="The matches end with no result and no rating change.",
        apply=lambda m, reason, post: services.match_abort_moderated(
            moderator=request.user, match_id=m.pk, reason=reason),
    )  # fmt: skip


class MoveInline(admin.TabularInline):
    model = Move
    fields = ("seq", "seat", "player", "action_shown", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="Action")
    def action_shown(self, move: Move) -> str:
        # The dealer's discard is a hidden card until the match is over, to moderators too
        # (one may be playing in it).
        if move.action.startswith("discard") and not move.match.is_over:
            return "discard (shown when the match is over)"
        return move.action


class SuspiciousPairs(admin.SimpleListFilter):
    """Rating farming: two accounts with many rated matches with each other in one day, most
    of them resigned (selectors.suspicious_pairs)."""

    title = "suspicious pairs"
    parameter_name = "suspicious"

    def lookups(self, request, model_admin):
        return [("pairs", "Many rated matches between two players in a day, mostly resigned")]

    def queryset(self, request, queryset):
        if self.value() != "pairs":
            return queryset
        pairs = Q(pk__in=[])
        for a, b, day in selectors.suspicious_pairs():
            players = (a, b)
            pairs |= Q(player0_id__in=players, player1_id__in=players, started_at__date=day)
        return queryset.filter(pairs, rated=True, status=MatchStatus.FINISHED)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id", "player0", "player1", "status", "rated", "deck", "target", "winner",
        "created_at", "finished_at",
    )  # fmt: skip
    list_filter = (
        SuspiciousPairs, "status", "rated", "computer", "deck", "target", "created_at",
        "end_reason",
    )  # fmt: skip
    search_fields = ("player0__username", "player1__username")
    date_hierarchy = "created_at"
    inlines = [MoveInline]
    actions = [void_matches, adjudicate_match, abort_matches]
    readonly_fields = (
        "player0", "player1", "created_by", "deck", "target", "stick_the_dealer",
        "dealer_must_take_up", "rated", "spectators_allowed", "computer", "seed_or_commitment",
        "status", "end_reason",
        "winner", "created_at", "started_at", "finished_at", "version", "move_count", "acted",
        "rematch_seat", "rematch_state", "rematch_until", "next_match", "replay_link",
        "chat_link",
    )  # fmt: skip
    # Whoever knows the seed or the snapshot knows both hands: neither is shown while the
    # match is in play, not even to moderators (one may be playing in it).
    exclude = ("snapshot", "seed")
    list_select_related = ("player0", "player1", "winner")

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        # A filter on the seed or the snapshot in the list's address (?seed__startswith=4)
        # shows or hides the row: asked often enough, it reads them out. No lookup touches them.
        if lookup.split(LOOKUP_SEP)[0] in self.exclude:
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description="Seed")
    def seed_or_commitment(self, match: Match) -> str:
        if match.is_over:
            return match.seed
        sha = commitment(int(match.seed))
        return f"Hidden until the match is over. Commitment (SHA-256): {sha}"

    def has_change_permission(self, request, obj=None) -> bool:
        # A match in play may have its clock changed; a finished one is history: its page is
        # for reading, with no Save (the list's actions still void or adjudicate it).
        if obj is not None and obj.is_over:
            return False
        return super().has_change_permission(request, obj)

    @admin.display(description="Replay")
    def replay_link(self, match: Match) -> str:
        if match.status != "finished":
            return "Opens when the match is finished"
        return format_html(
            '<a href="{}">Watch the replay</a>', reverse("match_replay", args=[match.pk])
        )

    @admin.display(description="Chat")
    def chat_link(self, match: Match) -> str:
        return format_html(
            '<a href="{}?match__id__exact={}">Read the chat of this match</a>',
            reverse("admin:games_chatline_changelist"), match.pk,
        )  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False  # matches are created by players in the lobby

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("games.moderate_match")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_search_results(self, request, queryset, search_term):
        if not search_term:
            return queryset, False
        return queryset.filter(
            Q(player0__username__icontains=search_term)
            | Q(player1__username__icontains=search_term)
        ), False
