"""Reads behind the limits on rated play: how often two players met in a day, and pairs that
look like rating farming.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.db.models.functions import Greatest, Least, TruncDate
from django.utils import timezone

from ...models import EndReason, Match, MatchStatus


def _rated_today():
    """Rated matches that started in the last 24 hours and still count."""
    since = timezone.now() - timedelta(hours=24)
    statuses = (MatchStatus.ACTIVE, MatchStatus.FINISHED)
    return Match.objects.filter(rated=True, status__in=statuses, started_at__gte=since)


def rated_today_capped(*, user, other) -> bool:
    """Whether ``user`` and ``other`` have played as many rated matches with each other in the
    last 24 hours as may count (settings.RATED_MATCHES_PER_PAIR_PER_DAY): their next is casual."""
    between = Q(player0=user, player1=other) | Q(player0=other, player1=user)
    return _rated_today().filter(between).count() >= settings.RATED_MATCHES_PER_PAIR_PER_DAY


def rated_today_capped_opponents(*, user) -> set[int]:
    """The ids of the players with whom ``user``'s next match would be casual."""
    mine = _rated_today().filter(Q(player0=user) | Q(player1=user))
    counts: dict[int, int] = {}
    for pair in mine.values_list("player0_id", "player1_id"):
        other = pair[1] if pair[0] == user.pk else pair[0]
        counts[other] = counts.get(other, 0) + 1
    return {pk for pk, n in counts.items() if n >= settings.RATED_MATCHES_PER_PAIR_PER_DAY}


def suspicious_pairs() -> list[tuple[int, int, object]]:
    """(player, player, day) where two accounts finished as many rated matches with each other
    in one day as may count (or more, before the cap), most of them resigned: rating farming."""
    groups = (
        Match.objects.filter(rated=True, status=MatchStatus.FINISHED, player1__isnull=False)
        .annotate(a=Least("player0", "player1"), b=Greatest("player0", "player1"))
        .annotate(day=TruncDate("started_at"))
        .values("a", "b", "day")
        .annotate(played=Count("pk"), resigned=Count("pk", filter=Q(end_reason=EndReason.RESIGNED)))
        .filter(played__gte=settings.RATED_MATCHES_PER_PAIR_PER_DAY)
    )
    return [(g["a"], g["b"], g["day"]) for g in groups if g["resigned"] * 2 > g["played"]]
