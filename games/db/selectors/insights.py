"""A player's insights: sums over their ``InsightHand`` and ``InsightDecision`` rows (and the
same sums over the rows of the players of their rating band), a fixed handful of queries
whatever the number of matches: never a query, nor a replay, per match."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Case, CharField, Count, F, Q, Sum, Value, When
from django.db.models.functions import TruncMonth, TruncWeek
from django.utils import timezone

from ... import rating as elo
from ...bots.hand_facts import BIDS
from ...models import InsightDecision, InsightHand, PlayerRating, PlayerSettings
from ...public.insights import (
    BAND,
    BOWERS,
    KINDS,
    PERIODS,
    TRUMPS,
    BidRow,
    Figure,
    Filters,
    Insights,
    Measure,
    Outcomes,
    Point,
)


def insights_visible(*, viewer, player) -> bool:
    """Whether ``viewer`` may see ``player``'s insights: their own, or the player allows it."""
    if viewer.is_authenticated and viewer.pk == player.pk:
        return True
    return insights_public_mine(user=player)


def insights_public_mine(*, user) -> bool:
    """Whether ``user`` lets other players see their insights (a setting, off by default)."""
    return PlayerSettings.objects.filter(user=user, insights_public=True).exists()


def _where(filters: Filters) -> Q:
    q = Q()
    days = PERIODS[filters.period]
    if days is not None:
        q &= Q(finished_at__gte=timezone.now() - timedelta(days=days))
    if filters.rated != "all":
        q &= Q(rated=filters.rated == "rated")
    if filters.opponent != "all":
        q &= Q(computer=filters.opponent == "computer")
    if filters.deck is not None:
        q &= Q(deck=filters.deck)
    if filters.target is not None:
        q &= Q(target=filters.target)
    return q


_NET = F("scored") - F("conceded")
_MAKER, _DEFENDER = Q(maker=True), Q(maker=False)
_HAND_SUMS = {
    "hands": Count("pk"),
    "net": Sum(_NET),
    "maker_hands": Count("pk", filter=_MAKER),
    "maker_net": Sum(_NET, filter=_MAKER),
    "defender_hands": Count("pk", filter=_DEFENDER),
    "defender_net": Sum(_NET, filter=_DEFENDER),
    "dealer_hands": Count("pk", filter=Q(dealer=True)),
    "dealer_net": Sum(_NET, filter=Q(dealer=True)),
    "other_hands": Count("pk", filter=Q(dealer=False)),
    "other_net": Sum(_NET, filter=Q(dealer=False)),
    "euchred": Count("pk", filter=_MAKER & Q(outcome="euchred")),
    "marches": Count("pk", filter=_MAKER & Q(outcome="march")),
    "euchres": Count("pk", filter=_DEFENDER & Q(outcome="euchred")),
    "players": Count("player", distinct=True),
}
_TRUMPS = Case(
    When(trumps__lte=1, then=Value(TRUMPS[0])),
    When(trumps=2, then=Value(TRUMPS[1])),
    When(trumps=3, then=Value(TRUMPS[2])),
    default=Value(TRUMPS[3]),
    output_field=CharField(),
)
_BOWERS = Case(
    When(bowers=0, then=Value(BOWERS[0])),
    When(bowers=1, then=Value(BOWERS[1])),
    default=Value(BOWERS[2]),
    output_field=CharField(),
)
_OUTCOMES = {
    "count": Count("pk"),
    "made": Count("pk", filter=Q(outcome="made")),
    "march": Count("pk", filter=Q(outcome="march")),
    "euchred": Count("pk", filter=Q(outcome="euchred")),
}
_DECISION_SUMS = {
    "analysed": Count("pk", filter=Q(loss__isnull=False)),
    "lost": Sum("loss"),
    "timed": Count("pk", filter=Q(seconds__isnull=False)),
    "took": Sum("seconds"),
    **{f"{k}_timed": Count("pk", filter=Q(kind=k, seconds__isnull=False)) for k in KINDS},
    **{f"{k}_took": Sum("seconds", filter=Q(kind=k)) for k in KINDS},
}


def _bids(rows) -> tuple[dict, dict]:
    """Outcomes by (bid, trumps) and by bowers, from rows grouped by bid, trumps and bowers
    (a few dozen groups at most)."""
    by_trumps: dict = {}
    by_bowers: dict = {}
    for row in rows:
        counts = [row[k] for k in _OUTCOMES]
        for table, key in ((by_trumps, (row["bid"], row["held"])), (by_bowers, row["bowered"])):
            was = table.get(key, [0, 0, 0, 0])
            table[key] = [a + b for a, b in zip(was, counts, strict=True)]
    return by_trumps, by_bowers


def _outcomes(table: dict, key) -> Outcomes:
    return Outcomes(*table.get(key, (0, 0, 0, 0)))


def insights(*, player, filters: Filters) -> Insights:
    """``player``'s insights over the matches ``filters`` select, beside their rating band's
    Seven queries, whatever the number of matches."""
    rated = PlayerRating.objects.filter(user=player).values_list("value", flat=True).first()
    rating = elo.INITIAL if rated is None else rated
    low, high = rating - BAND, rating + BAND
    where = _where(filters)
    band_q = where & Q(player__rating__value__range=(low, high)) & ~Q(player=player)
    mine_q = where & Q(player=player)
    hands, band = (InsightHand.objects.filter(q).aggregate(**_HAND_SUMS) for q in (mine_q, band_q))
    grouped = [
        _bids(
            InsightHand.objects.filter(q, maker=True)
            .annotate(held=_TRUMPS, bowered=_BOWERS)
            .values("bid", "held", "bowered")
            .annotate(**_OUTCOMES)
            .order_by()
        )
        for q in (mine_q, band_q)
    ]
    decisions, band_decisions = (
        InsightDecision.objects.filter(q).aggregate(**_DECISION_SUMS) for q in (mine_q, band_q)
    )
    days = PERIODS[filters.period]
    step = "week" if days is not None and days <= 90 else "month"
    trunc = TruncWeek if step == "week" else TruncMonth
    over_time = [
        Point(
            row["start"].date() if hasattr(row["start"], "date") else row["start"],
            Measure.average(row["lost"], row["n"], 3).value,
            row["n"],
        )
        for row in InsightDecision.objects.filter(mine_q, loss__isnull=False)
        .annotate(start=trunc("finished_at"))
        .values("start")
        .annotate(lost=Sum("loss"), n=Count("pk"))
        .order_by("start")
    ]

    def average(name: str, count: str, sums=(hands, band), digits: int = 2) -> Figure:
        return Figure(*(Measure.average(s[name], s[count], digits) for s in sums))

    def rate(name: str, count: str) -> Figure:
        return Figure(*(Measure.rate(s[name], s[count]) for s in (hands, band)))

    pair = (decisions, band_decisions)
    return Insights(
        player=player.username,
        filters=filters,
        rating=rating,
        band_low=low,
        band_high=high,
        band_players=band["players"],
        hands=average("net", "hands"),
        maker=average("maker_net", "maker_hands"),
        defender=average("defender_net", "defender_hands"),
        dealer=average("dealer_net", "dealer_hands"),
        not_dealer=average("other_net", "other_hands"),
        euchred=rate("euchred", "maker_hands"),
        euchres=rate("euchres", "defender_hands"),
        marches=rate("marches", "maker_hands"),
        bids=[
            BidRow(
                bid,
                held,
                _outcomes(grouped[0][0], (bid, held)),
                _outcomes(grouped[1][0], (bid, held)),
            )
            for bid in BIDS
            for held in TRUMPS
        ],
        bowers=[
            BidRow("all", held, _outcomes(grouped[0][1], held), _outcomes(grouped[1][1], held))
            for held in BOWERS
        ],
        accuracy=average("lost", "analysed", pair, 3),
        over_time=over_time,
        step=step,
        seconds=average("took", "timed", pair, 1),
        seconds_by_kind={k: average(f"{k}_took", f"{k}_timed", pair, 1) for k in KINDS},
    )
