"""The moderators' desk: matches and their move logs, read-only where history must not change.

Moves, seeds and ratings are never edited by hand: every change goes through games.services.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from . import services
from .db import selectors
from .engine.verify import commitment
from .models import (
    ApiToken,
    Arena,
    ArenaAudit,
    ArenaPlayer,
    Block,
    Match,
    MatchStatus,
    ModerationAction,
    Move,
    PlayerRating,
    Puzzle,
    PuzzleRating,
    RatingChange,
    Report,
    TranslationSuggestion,
)
from .presentation import refusals, suggestions


def _moderate(
    modeladmin, request, queryset, *, action, title, description, apply, winners=None,
    undone=(),
):  # fmt: skip
    """An admin action that asks for a reason first, then calls ``apply(obj, reason, post)``
    on each selected object through the services, and reports what happened."""
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
    }  # fmt: skip
    return TemplateResponse(request, "admin/games/moderate.html", context)


@admin.action(description="Void the selected matches (ratings reversed)", permissions=["moderate"])
def void_matches(modeladmin, request, queryset):
    return _moderate(
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

    return _moderate(
        modeladmin, request, queryset, action="adjudicate_match", title="Adjudicate match",
        description="The match ends now and goes to the player you choose (rated as a finish).",
        apply=apply, winners=[p for p in match.players if p],
    )  # fmt: skip


@admin.action(description="Abort the selected matches (no result)", permissions=["moderate"])
def abort_matches(modeladmin, request, queryset):
    return _moderate(
        modeladmin, request, queryset, action="abort_matches", title="Abort matches",
        description="The matches end with no result and no rating change.",
        apply=lambda m, reason, post: services.match_abort_moderated(
            moderator=request.user, match_id=m.pk, reason=reason),
    )  # fmt: skip


class ReadOnlyAdmin(admin.ModelAdmin):
    """History that nobody edits by hand: it only changes through games.services."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


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


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    """Who blocked whom: a moderator handling a report of harassment sees whether the one
    harassed had already blocked the other (the players' own choice: read only here)."""

    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
    readonly_fields = ("blocker", "blocked", "created_at")
    ordering = ("-created_at",)


@admin.action(description="Suspend the selected players", permissions=["suspend"])
def suspend_players(modeladmin, request, queryset):
    return _moderate(
        modeladmin, request, queryset, action="suspend_players", title="Suspend players",
        description="They cannot log in or play; their matches in play go to their opponents.",
        apply=lambda u, reason, post: services.player_suspend(
            moderator=request.user, player=u, reason=reason),
    )  # fmt: skip


@admin.action(description="Reinstate the selected players", permissions=["suspend"])
def reinstate_players(modeladmin, request, queryset):
    return _moderate(
        modeladmin, request, queryset, action="reinstate_players", title="Reinstate players",
        description="They can log in and play again.",
        apply=lambda u, reason, post: services.player_reinstate(
            moderator=request.user, player=u, reason=reason),
    )  # fmt: skip


User = get_user_model()
admin.site.unregister(User)


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


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "links")
    list_filter = ("is_active", "is_staff", "groups")
    actions = [suspend_players, reinstate_players]

    def get_actions(self, request):
        # A player who has played is kept with their matches (their rows protect them), and
        # deleting is never a moderator's everyday step: no "delete selected" beside Suspend.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description="History")
    def links(self, user) -> str:
        return format_html(
            '<a href="{}?q={}">matches</a> · <a href="{}?q={}">rating changes</a> · '
            '<a href="{}?reported__id__exact={}">reports</a>',
            reverse("admin:games_match_changelist"), user.username,
            reverse("admin:games_ratingchange_changelist"), user.username,
            reverse("admin:games_report_changelist"), user.pk,
        )  # fmt: skip

    def has_suspend_permission(self, request) -> bool:
        return request.user.has_perm("games.suspend_player")


@admin.action(description="Mark the selected reports resolved", permissions=["moderate"])
def resolve_reports(modeladmin, request, queryset):
    return _moderate(
        modeladmin, request, queryset, action="resolve_reports", title="Resolve reports",
        description="The reports leave the queue as resolved.",
        apply=lambda r, reason, post: services.report_close(
            moderator=request.user, report=r, dismissed=False, reason=reason),
    )  # fmt: skip


@admin.action(description="Dismiss the selected reports", permissions=["moderate"])
def dismiss_reports(modeladmin, request, queryset):
    return _moderate(
        modeladmin, request, queryset, action="dismiss_reports", title="Dismiss reports",
        description="The reports leave the queue as dismissed.",
        apply=lambda r, reason, post: services.report_close(
            moderator=request.user, report=r, dismissed=True, reason=reason),
    )  # fmt: skip


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "reporter", "reported", "reason", "status", "match_link")
    list_filter = ("status", "reason", "created_at")
    search_fields = ("reporter__username", "reported__username")
    readonly_fields = ("reporter", "reported", "match", "reason", "details", "status", "created_at")
    actions = [resolve_reports, dismiss_reports]

    @admin.display(description="Match")
    def match_link(self, report) -> str:
        if report.match_id is None:
            return "none (from the profile)"
        return format_html(
            '<a href="{}">match {}</a>',
            reverse("admin:games_match_change", args=[report.match_id]), report.match_id,
        )  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        # Nothing of a report is edited: its page answers it (Resolve, Dismiss) and has no Save.
        return obj is None and super().has_change_permission(request)

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("games.moderate_match")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The report's page has Resolve and Dismiss buttons, with the reason beside them
        (templates/admin/games/report/change_form.html), as well as the list's actions."""
        answer = next((a for a in ("_resolve", "_dismiss") if a in request.POST), None)
        if request.method == "POST" and answer:
            report = self.get_object(request, object_id)
            if report is None or not self.has_moderate_permission(request):
                raise PermissionDenied
            try:
                services.report_close(
                    moderator=request.user, report=report, dismissed=answer == "_dismiss",
                    reason=request.POST.get("moderation_reason", ""),
                )  # fmt: skip
            except services.GameError as error:
                self.message_user(request, refusals.words(error), messages.ERROR)
                return HttpResponseRedirect(request.path)
            done = "dismissed" if answer == "_dismiss" else "resolved"
            self.message_user(request, f"{report}: {done}.", messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:games_report_changelist"))
        extra_context = {
            **(extra_context or {}),
            "can_answer": self.has_moderate_permission(request),
        }
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "moderator", "kind", "match", "player", "reason")
    list_filter = ("kind", "created_at")
    search_fields = ("moderator__username", "player__username", "reason")
    readonly_fields = ("moderator", "kind", "match", "player", "report", "reason", "created_at")


@admin.action(description="Revoke the selected API tokens", permissions=["suspend"])
def revoke_tokens(modeladmin, request, queryset):
    return _moderate(
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


@admin.action(description="Cancel the selected arenas", permissions=["moderate"])
def cancel_arenas(modeladmin, request, queryset):
    return _moderate(
        modeladmin, request, queryset, action="cancel_arenas", title="Cancel arenas",
        description="No more pairing and no podium; matches in play go on as ordinary ones.",
        apply=lambda a, reason, post: services.arena_cancel(
            moderator=request.user, arena_id=a.pk, reason=reason),
    )  # fmt: skip


@admin.action(description="Remove the selected players from their arena", permissions=["moderate"])
def remove_arena_players(modeladmin, request, queryset):
    return _moderate(
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
