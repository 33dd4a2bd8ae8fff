"""Table talk at the desk: every line of a match's or an arena's chat (removed ones stay,
marked), read with
its context and removed with a reason; players timed out of chat for a while, with a reason,
from a line, a report or the player's row; the time outs, read only. Every step goes through
the services (``chat_remove``, ``chat_timeout``), which audit it and push a removal to every
page open on the match or the arena."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html

from .. import services
from ..models import Arena, ChatLine, ChatRoom, ChatTimeout, MatchStatus
from ..presentation import refusals
from ..presentation.chat import PHRASE_WORDS
from .base import ReadOnlyAdmin, moderate

# The usual lengths of a time out, in minutes (any other is typed in minutes; the service
# takes one minute to thirty days).
TIMEOUT_LENGTHS = [
    (10, "10 minutes"), (60, "1 hour"), (60 * 24, "1 day"), (60 * 24 * 7, "7 days"),
]  # fmt: skip
# The lines shown on each side of a line on its page.
CONTEXT_LINES = 5


def may_moderate_chat(request) -> bool:
    """Chat is said at a match: whoever may void or abort matches moderates it too."""
    return request.user.has_perm("games.moderate_match")


def english_words(line: ChatLine) -> str:
    """What the line says: a quick message in English words (each player read it in their
    own language), free chat as typed."""
    if line.phrase:
        with translation.override("en"):
            return str(PHRASE_WORDS.get(line.phrase, line.phrase))
    return line.text


def timeout_minutes(post) -> int:
    """The time out's length from the form: the minutes typed, else the length chosen."""
    typed = (post.get("minutes") or "").strip() or (post.get("duration") or "").strip()
    if not typed.isdigit() or len(typed) > 6:
        raise services.GameError("chat_timeout_length")
    return int(typed)


def chat_timeout_action(name: str, description: str, player_of):
    """An action that times out of chat the player each selected row is about
    (``player_of(row)``), once each, for the length chosen, with a reason."""

    @admin.action(description=description, permissions=["moderate_chat"])
    def action(modeladmin, request, queryset):
        timed_out = set()

        def apply(row, reason, post):
            player = player_of(row)
            minutes = timeout_minutes(post)
            if player.pk not in timed_out:  # two lines by one player: one time out
                services.chat_timeout(
                    moderator=request.user, player=player, minutes=minutes, reason=reason
                )
                timed_out.add(player.pk)

        return moderate(
            modeladmin, request, queryset, action=name, title="Time out of chat",
            description="They can say nothing in any chat until the time out ends; they are "
            "told so in their language when they try.",
            apply=apply, durations=TIMEOUT_LENGTHS,
        )  # fmt: skip

    action.__name__ = name  # the name the admin's form posts back
    return action


@admin.action(description="Remove the selected lines", permissions=["moderate_chat"])
def remove_chat_lines(modeladmin, request, queryset):
    return moderate(
        modeladmin, request, queryset, action="remove_chat_lines", title="Remove chat lines",
        description="They disappear at once from every page open on their match, and stay "
        "here, marked, for the record.",
        apply=lambda line, reason, post: services.chat_remove(
            moderator=request.user, line_id=line.pk, reason=reason),
    )  # fmt: skip


timeout_chat_authors = chat_timeout_action(
    "timeout_chat_authors", "Time the authors of the selected lines out of chat",
    lambda line: line.author,
)  # fmt: skip


class Removed(admin.SimpleListFilter):
    """Lines shown to their readers, or removed by a moderator (kept for the record)."""

    title = "removed"
    parameter_name = "removed"

    def lookups(self, request, model_admin):
        return [("no", "Shown"), ("yes", "Removed")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(removed_at__isnull=self.value() == "no")
        return queryset


def match_chat_url(match_id: int) -> str:
    return f"{reverse('admin:games_chatline_changelist')}?match__id__exact={match_id}"


def arena_chat_url(arena_id: int) -> str:
    return f"{reverse('admin:games_chatline_changelist')}?arena__id__exact={arena_id}"


def line_chat_url(line: ChatLine) -> str:
    """The whole chat the line was said in: its match's or its arena's."""
    if line.arena_id is not None:
        return arena_chat_url(line.arena_id)
    return match_chat_url(line.match_id)


def line_place(line: ChatLine) -> str:
    """Where the line was said, in a moderator's words."""
    if line.arena_id is not None:
        return f"arena {line.arena_id}"
    return f"match {line.match_id}"


class AtArena(admin.SimpleListFilter):
    """The lines of one arena's chat (the latest arenas with chat), or those said at matches."""

    title = "arena"
    parameter_name = "arena__id__exact"

    def lookups(self, request, model_admin):
        arenas = Arena.objects.filter(chat_lines__isnull=False).distinct().order_by("-pk")
        return [("none", "At matches"), *((str(a.pk), str(a)) for a in arenas[:30])]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(arena__isnull=True)
        if self.value() and self.value().isdigit():
            return queryset.filter(arena_id=int(self.value()))
        return queryset


@admin.register(ChatLine)
class ChatLineAdmin(ReadOnlyAdmin):
    """Every line said at the matches and in the arenas, by match or arena, author and room; a
    line's page shows it among the lines around it and has Remove and Time out beside a
    reason."""

    list_display = ("created_at", "match_shown", "room", "author_shown", "words", "removed")
    list_display_links = ("created_at",)
    list_filter = ("room", AtArena, Removed, "created_at")
    search_fields = ("author__username", "text")
    search_help_text = "A player's name, or words of the line (a quick message's English words)."
    list_select_related = ("author", "removed_by", "arena")
    fields = (
        "match_shown", "room", "author_shown", "words", "quick", "move_count", "created_at",
        "removed",
    )  # fmt: skip
    readonly_fields = fields
    actions = [remove_chat_lines, timeout_chat_authors]

    def get_queryset(self, request):
        # The spectators' room is kept from a match's players while it is in play (nobody
        # may help a player): from a moderator playing in it too.
        playing = Q(match__player0=request.user) | Q(match__player1=request.user)
        in_play = Q(match__status__in=(MatchStatus.OPEN, MatchStatus.ACTIVE))
        kept = Q(room=ChatRoom.SPECTATORS) & in_play & playing
        return super().get_queryset(request).exclude(kept)

    def get_ordering(self, request):
        # One match's (or arena's) chat reads in the order it was said; all of them, the
        # newest first.
        one = "match__id__exact" in request.GET or "arena__id__exact" in request.GET
        return ("pk",) if one else ("-pk",)

    def get_search_results(self, request, queryset, search_term):
        found, duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().casefold()
        if term:
            with translation.override("en"):
                codes = [c for c, words in PHRASE_WORDS.items() if term in str(words).casefold()]
            if codes:
                found |= queryset.filter(phrase__in=codes)
        return found, duplicates

    @admin.display(description="Match or arena", ordering="match_id")
    def match_shown(self, line: ChatLine) -> str:
        if line.arena_id is not None:
            return format_html(
                '<a href="{}">{}</a> · <a href="{}">chat</a>',
                reverse("admin:games_arena_change", args=[line.arena_id]), line.arena,
                arena_chat_url(line.arena_id),
            )  # fmt: skip
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">chat</a>',
            reverse("admin:games_match_change", args=[line.match_id]), line.match_id,
            match_chat_url(line.match_id),
        )  # fmt: skip

    @admin.display(description="Author", ordering="author__username")
    def author_shown(self, line: ChatLine) -> str:
        return format_html(
            '<a href="{}?author__id__exact={}">{}</a>',
            reverse("admin:games_chatline_changelist"), line.author_id, line.author.username,
        )  # fmt: skip

    @admin.display(description="Words")
    def words(self, line: ChatLine) -> str:
        if line.phrase:
            return format_html('{} <span class="quiet">(quick message)</span>', english_words(line))
        return format_html('<span dir="auto">{}</span>', line.text)

    @admin.display(description="Quick message", boolean=True)
    def quick(self, line: ChatLine) -> bool:
        return bool(line.phrase)

    @admin.display(description="Removed", ordering="removed_at")
    def removed(self, line: ChatLine) -> str:
        if line.removed_at is None:
            return "-"
        when = timezone.localtime(line.removed_at)
        return f"Removed by {line.removed_by}, {when:%Y-%m-%d %H:%M}"

    def has_moderate_chat_permission(self, request) -> bool:
        return may_moderate_chat(request)

    def context_of(self, request, line: ChatLine) -> list[dict]:
        """The line among the ``CONTEXT_LINES`` said before and after it at its match (or in
        its arena)."""
        if line.arena_id is not None:
            lines = self.get_queryset(request).filter(arena_id=line.arena_id)
        else:
            lines = self.get_queryset(request).filter(match_id=line.match_id)
        lines = lines.select_related("author", "removed_by")
        before = lines.filter(pk__lt=line.pk).order_by("-pk")[:CONTEXT_LINES]
        after = lines.filter(pk__gt=line.pk).order_by("pk")[:CONTEXT_LINES]
        rows = [*reversed(before), line, *after]
        return [
            {
                "id": row.pk,
                "current": row.pk == line.pk,
                "created_at": f"{timezone.localtime(row.created_at):%Y-%m-%d %H:%M:%S}",
                "room": row.get_room_display(),
                "author": row.author.username,
                "words": english_words(row),
                "removed": self.removed(row) if row.removed_at else "",
                "url": reverse("admin:games_chatline_change", args=[row.pk]),
            }
            for row in rows
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The line's page: its context, and Remove and Time out, each with its reason
        (templates/admin/games/chatline/change_form.html)."""
        line = self.get_object(request, object_id)
        step = next((s for s in ("_remove", "_timeout") if s in request.POST), None)
        if request.method == "POST" and step:
            if line is None or not may_moderate_chat(request):
                raise PermissionDenied
            try:
                if step == "_remove":
                    services.chat_remove(
                        moderator=request.user, line_id=line.pk,
                        reason=request.POST.get("remove_reason", ""),
                    )  # fmt: skip
                    done = f"The line by {line.author} is removed from every page."
                else:
                    timeout = services.chat_timeout(
                        moderator=request.user, player=line.author,
                        minutes=timeout_minutes(request.POST),
                        reason=request.POST.get("timeout_reason", ""),
                    )  # fmt: skip
                    until = timezone.localtime(timeout.until)
                    done = f"Timed out of chat: {line.author}, until {until:%Y-%m-%d %H:%M}."
            except services.GameError as error:
                self.message_user(request, refusals.words(error), messages.ERROR)
                return HttpResponseRedirect(request.path)
            self.message_user(request, done, messages.SUCCESS)
            return HttpResponseRedirect(request.path)
        extra_context = {**(extra_context or {}), "can_moderate_chat": may_moderate_chat(request)}
        if line is not None:
            extra_context["chat_context"] = self.context_of(request, line)
            extra_context["match_chat_url"] = line_chat_url(line)
            extra_context["chat_place"] = line_place(line)
            extra_context["durations"] = TIMEOUT_LENGTHS
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(ChatTimeout)
class ChatTimeoutAdmin(ReadOnlyAdmin):
    """Who was timed out of chat, until when, by whom and why (given from a line, a report
    or the player's row)."""

    list_display = ("player", "until", "in_force", "moderator", "reason", "created_at")
    list_filter = ("created_at",)
    search_fields = ("player__username", "moderator__username", "reason")
    list_select_related = ("player", "moderator")
    fields = readonly_fields = ("player", "until", "in_force", "moderator", "reason", "created_at")

    @admin.display(description="In force", boolean=True)
    def in_force(self, timeout: ChatTimeout) -> bool:
        return timeout.until > timezone.now()
