"""The fair-play queue: one row per flagged player (open flags first, the strongest first),
and each flag's page with its evidence (the signals beside their rating band's figures and
thresholds, the matches behind them linked to their replays with the analysis), the
player's fair-play history, and the actions (dismiss, warn, mark, close the account; answer
an appeal), each with a reason kept in the audit log. Staff with the ``handle_fair_play``
permission only (superusers have it); the admin site asks for the second factor as for all
its pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from .. import services
from ..db import selectors
from ..models import FairPlayAppeal, FairPlayFlag, FairPlayMark, Match, MatchStatus
from ..presentation import refusals
from .base import ReadOnlyAdmin

PERMISSION = "games.handle_fair_play"


class FairPlayOnly(ReadOnlyAdmin):
    """Seen by staff with the fair-play permission only, and changed through its actions
    (``games.services.fairplay``), never by hand."""

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_module_permission(self, request) -> bool:
        return request.user.has_perm(PERMISSION)


# Each signal in a moderator's words: what it measures, how its figure reads, and whether it
# flags when high (at or above the threshold) or low (at or below).
SIGNAL_WORDS = {
    "agreement": ("Agreement with the best choice from what the player knew", "share", True),
    "loss": ("Average points lost per decision", "points", False),
    "timing": ("Decision times unlike a person's (0: like a person's, 1: a machine's)",
               "score", True),
    "evenness": ("Decision times' variation (a person's: about 0.5 to 1; copying another "
                 "tab's answers: even, far below)", "score", False),
    "api_moves": ("Moves made through the API by a person's account", "share", True),
    "trading": ("Rating trading with one opponent or address", "score", True),
    "stalling": ("Lost matches left to the clock or abandoned", "share", True),
}  # fmt: skip


def figure(value, unit: str) -> str:
    """A signal's figure as a moderator reads it: a share as a percentage."""
    if value is None:
        return "?"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    if unit == "share" and 0 <= value <= 1:
        return f"{value * 100:.1f} %"
    return f"{value:.3g}"


@dataclass(frozen=True)
class SignalShown:
    kind: str
    words: str
    value: str
    band: str
    threshold: str
    beyond: bool
    matches: list
    detail: dict


def signals_shown(flag: FairPlayFlag) -> list[SignalShown]:
    shown = []
    for signal in sorted(flag.signals, key=services.fairplay.signal_strength, reverse=True):
        kind = signal.get("kind", "?")
        words, unit, high = SIGNAL_WORDS.get(kind, (kind, "score", True))
        at = "at or above" if high else "at or below"
        shown.append(
            SignalShown(
                kind=kind,
                words=words,
                value=figure(signal.get("value"), unit),
                band=figure(signal.get("band"), unit),
                threshold=f"{at} {figure(signal.get('threshold'), unit)}",
                beyond=services.fairplay.signal_strength(signal) >= 1.0,
                matches=list(signal.get("matches") or []),
                detail=signal.get("detail") or {},
            )  # fmt: skip
        )
    return shown


def matches_shown(flag: FairPlayFlag) -> list[dict]:
    """The matches the signals rest on (else the window's), each with its replay with the
    analysis, the opponent, the result and whether its loser was refunded."""
    ids = services.fairplay.flag_match_ids(flag)
    rows = (
        Match.objects.filter(pk__in=ids)
        .select_related("player0", "player1", "winner")
        .order_by("-finished_at", "-pk")
    )
    refunded = selectors.refunded_matches(match_ids=ids)
    shown = []
    for match in rows:
        opponent = match.opponent_of(flag.player) if flag.player in match.players else None
        won = match.winner_id == flag.player_id
        shown.append({
            "match": match,
            "opponent": opponent.username if opponent else "?",
            "result": ("won" if won else "lost") if match.status == MatchStatus.FINISHED
            else match.get_status_display().lower(),
            "replay": reverse("match_replay", args=[match.pk]) + "?analysis=1",
            "admin": reverse("admin:games_match_change", args=[match.pk]),
            "refundable": won and match.rated and match.status == MatchStatus.FINISHED,
            "refunded": match.pk in refunded,
            "kinds": [s.get("kind") for s in flag.signals if match.pk in (s.get("matches") or [])],
        })  # fmt: skip
    return shown


@admin.register(FairPlayFlag)
class FairPlayFlagAdmin(FairPlayOnly):
    """The queue (the list: each player's latest flag) and a flag's evidence (its page)."""

    list_display = ("player_shown", "status", "strength_shown", "signals_summary", "flags",
                    "appeal", "updated_at")  # fmt: skip
    list_display_links = ("player_shown",)
    list_filter = ("status",)
    search_fields = ("player__username",)
    list_per_page = 50

    def get_queryset(self, request):
        return selectors.fair_play_queue()

    def get_ordering(self, request):
        return ["open_first", "-strength", "-updated_at"]

    @admin.display(description="Player")
    def player_shown(self, flag) -> str:
        return flag.player.username

    @admin.display(description="Strength", ordering="strength")
    def strength_shown(self, flag) -> str:
        return f"{flag.strength:.2f}× its threshold"

    @admin.display(description="Signals")
    def signals_summary(self, flag) -> str:
        beyond = [s.words for s in signals_shown(flag) if s.beyond]
        return "; ".join(beyond) or "none beyond its threshold"

    @admin.display(description="Flags")
    def flags(self, flag) -> int:
        return flag.flags

    @admin.display(description="Appeal")
    def appeal(self, flag) -> str:
        return "waiting for an answer" if flag.waiting else "-"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not request.user.has_perm(PERMISSION):
            raise PermissionDenied
        flag = (
            FairPlayFlag.objects.select_related("player", "resolved_by")
            .filter(pk=object_id)
            .first()
        )  # fmt: skip
        if flag is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if request.method == "POST":
            return self._act(request, flag)
        history = selectors.fair_play_history(player=flag.player)
        waiting = next((a for a in history["appeals"] if not a.outcome), None)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Fair play: {flag.player.username}",
            "flag": flag,
            "signals": signals_shown(flag),
            "matches": matches_shown(flag),
            "history": history,
            "waiting_appeal": waiting,
            "marked": any(m.active for m in history["marks"]),
            "mark_kinds": FairPlayMark.Kind.choices,
            "reason": request.GET.get("reason", ""),
        }
        return TemplateResponse(request, "admin/games/fairplayflag/evidence.html", context)

    def _act(self, request, flag: FairPlayFlag):
        post, me = request.POST, request.user
        reason = post.get("reason", "")
        action = post.get("action", "")
        try:
            if action == "dismiss":
                services.flag_dismiss(moderator=me, flag_id=flag.pk, reason=reason)
                done = "Flag dismissed"
            elif action == "warn":
                services.player_warn(moderator=me, player=flag.player, flag_id=flag.pk,
                                     reason=reason)  # fmt: skip
                done = "Warned: the player reads it on their next page"
            elif action in ("mark_computer", "mark_trader"):
                picked = [int(m) for m in post.getlist("refund") if m.isdigit()]
                mark = services.player_mark(
                    moderator=me, player=flag.player, kind=action.removeprefix("mark_"),
                    reason=reason, flag_id=flag.pk if flag.status == "open" else None,
                    match_ids=picked,
                )  # fmt: skip
                done = f"Marked; {len(mark.refunded)} match(es) refunded to the opponents"
            elif action == "close":
                services.player_close(
                    moderator=me, player=flag.player, reason=reason,
                    flag_id=flag.pk if flag.status == "open" else None,
                )  # fmt: skip
                done = "Account closed"
            elif action in ("upheld", "granted"):
                services.appeal_answer(moderator=me, appeal_id=int(post.get("appeal") or 0),
                                       outcome=action, answer=post.get("answer", ""))  # fmt: skip
                done = "Appeal answered"
            else:
                self.message_user(request, "Choose an action.", messages.ERROR)
                return HttpResponseRedirect(request.path)
        except (services.GameError, ValueError) as error:
            words = refusals.words(error) if isinstance(error, services.GameError) else str(error)
            self.message_user(request, words, messages.ERROR)
            return HttpResponseRedirect(request.path)
        self.message_user(request, f"{flag.player.username}: {done}.", messages.SUCCESS)
        return HttpResponseRedirect(request.path)


@admin.register(FairPlayAppeal)
class FairPlayAppealAdmin(FairPlayOnly):
    """Appeals, waiting first: each answered on its player's flag page."""

    list_display = ("player", "created_at", "mark_kind", "outcome_shown", "answer_link")
    list_filter = ("outcome",)
    search_fields = ("player__username",)
    list_select_related = ("player", "mark")

    def get_ordering(self, request):
        return ["outcome", "-created_at"]  # waiting ones ("") first

    @admin.display(description="Mark")
    def mark_kind(self, appeal) -> str:
        return appeal.mark.get_kind_display()

    @admin.display(description="Outcome")
    def outcome_shown(self, appeal) -> str:
        return appeal.get_outcome_display() or "waiting for an answer"

    @admin.display(description="Answer it")
    def answer_link(self, appeal) -> str:
        flag_id = appeal.mark.flag_id  # (a mark without one: a flag of its player)
        if flag_id is None:
            flag_id = (
                FairPlayFlag.objects.filter(player=appeal.player)
                .values_list("pk", flat=True)
                .first()
            )
        if flag_id is None:
            return "-"
        url = reverse("admin:games_fairplayflag_change", args=[flag_id])
        return format_html('<a href="{}#appeal">on the flag\'s page</a>', url)
