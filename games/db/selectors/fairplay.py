"""Fair play's reads: who is marked (rated play closed, off the leaderboard and podiums),
the moderators' queue of flagged players, a flag's evidence, a player's fair-play history,
and what the player sees of it (their mark, their appeal; never a flag or a signal)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Case, Count, Exists, IntegerField, Max, OuterRef, Q, Value, When

from ...models import FairPlayAppeal, FairPlayFlag, FairPlayMark, FairPlayWarning, RatingChange


def marked_players():
    """The ids of players with a mark not lifted (a queryset to filter with)."""
    return FairPlayMark.objects.filter(lifted_at__isnull=True).values("player")


def fair_play_marked(user) -> bool:
    """Whether ``user`` bears a mark not lifted: no rated play for them."""
    if user is None or not getattr(user, "pk", None):
        return False
    return FairPlayMark.objects.filter(player_id=user.pk, lifted_at__isnull=True).exists()


def fair_play_standing(*, user) -> dict | None:
    """What the player sees on their settings page: their latest mark (lifted or not) and its
    appeal, or None (a player with no mark sees nothing: a flag is never shown)."""
    mark = FairPlayMark.objects.filter(player=user).order_by("-created_at", "-pk").first()
    if mark is None:
        return None
    appeal = FairPlayAppeal.objects.filter(mark=mark).first()
    return {"mark": mark, "appeal": appeal, "may_appeal": mark.active and appeal is None}


def fair_play_queue():
    """One row per flagged player: their latest flag, open ones first, the strongest first,
    with how many flags they had, and whether an appeal waits."""
    latest = FairPlayFlag.objects.values("player").annotate(last=Max("pk")).values("last")
    open_first = Case(When(status=FairPlayFlag.Status.OPEN, then=Value(0)), default=Value(1),
                      output_field=IntegerField())  # fmt: skip
    return (
        FairPlayFlag.objects.filter(pk__in=latest)
        .select_related("player")
        .annotate(
            open_first=open_first,
            flags=Count("player__fair_play_flags", distinct=True),
            waiting=Count(
                "player__fair_play_appeals",
                filter=Q(player__fair_play_appeals__outcome=""),
                distinct=True,
            ),
        )
        .order_by("open_first", "-strength", "-updated_at")
    )


def appeals_waiting():
    return FairPlayAppeal.objects.filter(outcome="").select_related("player", "mark")


def fair_play_history(*, player) -> dict:
    """Every flag, mark, warning and appeal of the player, newest first."""
    return {
        "flags": list(FairPlayFlag.objects.filter(player=player).select_related("resolved_by")),
        "marks": list(FairPlayMark.objects.filter(player=player).select_related("moderator")),
        "warnings": list(FairPlayWarning.objects.filter(player=player).select_related("moderator")),
        "appeals": list(
            FairPlayAppeal.objects.filter(player=player).select_related("mark", "answered_by")
        ),
    }


def refunded_matches(*, match_ids) -> set[int]:
    """Which of ``match_ids`` had their loser refunded (a fair-play mark's)."""
    refunds = RatingChange.objects.filter(match_id__in=match_ids, refund=True)
    return set(refunds.values_list("match_id", flat=True))


def fair_play_notices(*, user) -> tuple[bool, bool]:
    """Whether the player has a warning not read yet, and an appeal's answer not read yet
    (one query: every page of a logged-in player asks)."""
    warned = FairPlayWarning.objects.filter(player=OuterRef("pk"), read_at__isnull=True)
    answered = FairPlayAppeal.objects.filter(
        player=OuterRef("pk"), answered_at__isnull=False, answer_read_at__isnull=True
    )
    row = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .values_list(Exists(warned), Exists(answered))
        .first()
    )
    return row or (False, False)
