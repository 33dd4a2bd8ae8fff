"""A player's insights as the page shows them (``templates/insights.html``): each figure in
words beside their rating band's, "too few hands to tell" where a figure rests on fewer than
``MINIMUM`` hands, and two charts drawn on the server (plain SVG, sized to read on a phone),
each shown with its table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..public.insights import BidRow, Figure, Insights, Measure, Outcomes, Point
from .review import percent, points

BID_WORDS = {
    "order_up": gettext_lazy("Ordering up"),
    "take_up": gettext_lazy("Taking up as dealer"),
    "name": gettext_lazy("Naming a suit"),
}
KIND_WORDS = {
    "bid": gettext_lazy("Bidding"),
    "discard": gettext_lazy("Discarding"),
    "play": gettext_lazy("Playing a card"),
}
# A chart's own size, in the units its type is set in: drawn for a phone's width (a 375 px
# screen shows it at about this size, its type as large as the page's small print).
WIDTH, ROW, PAD, LEFT = 340, 46, 12, 40


def too_few(count: int, decisions: bool = False) -> str:
    if decisions:
        return _("Too few decisions to tell (%(count)s)") % {"count": count}
    return _("Too few hands to tell (%(count)s)") % {"count": count}


def average_words(m: Measure, unit: str = "points", decisions: bool = False) -> str:
    if not m.enough:
        return too_few(m.count, decisions)
    if unit == "points":
        return points(m.value)
    if unit == "seconds":
        return _("%(seconds)s s") % {"seconds": f"{m.value:.1f}"}
    return f"{m.value:.3f}"


def rate_words(m: Measure) -> str:
    if not m.enough:
        return too_few(m.count)
    return _("%(times)s of %(count)s (%(percent)s)") % {
        "times": m.times,
        "count": m.count,
        "percent": percent(m.value),
    }


def outcome_words(o: Outcomes) -> dict:
    """A group of bids: how many, and how they ended (in shares, from MINIMUM bids on)."""
    if not o.enough:
        return {"count": o.count, "enough": False, "words": too_few(o.count)}
    return {
        "count": o.count,
        "enough": True,
        "made": percent(o.share("made")),
        "march": percent(o.share("march")),
        "euchred": percent(o.share("euchred")),
    }


@dataclass(frozen=True)
class Bar:
    label: str
    y: float
    x: float  # where the bar starts (the zero line or left of it)
    width: float
    value: str  # the value in words, or the too-few words
    text_x: float
    anchor: str
    band: bool


@dataclass(frozen=True)
class BarChart:
    bars: list[Bar]
    labels: list[tuple[float, str]]  # each row's name, above its two bars
    zero: float
    height: int
    width: int = WIDTH


def points_chart(rows: list[tuple[str, Figure]]) -> BarChart:
    """Points a hand, each row a pair of bars (the player's, the band's) either side of zero."""
    values = [abs(m.value) for _n, f in rows for m in (f.mine, f.band) if m.enough]
    span = max([0.5, *values])
    half = (WIDTH - 2 * PAD) / 2
    zero = PAD + half
    bars, labels = [], []
    for i, (name, figure) in enumerate(rows):
        top = PAD + i * (ROW + 18)
        labels.append((top + 12, name))
        for j, (m, band) in enumerate(((figure.mine, False), (figure.band, True))):
            y = top + 18 + j * 14
            if not m.enough:
                bars.append(Bar(name, y, zero, 0, too_few(m.count), zero + 4, "start", band))
                continue
            length = abs(m.value) / span * (half - LEFT)
            start = zero if m.value >= 0 else zero - length
            text_x = zero + length + 4 if m.value >= 0 else zero - length - 4
            anchor = "start" if m.value >= 0 else "end"
            bars.append(
                Bar(name, y, start, round(length, 1), points(m.value), text_x, anchor, band)
            )
    height = PAD * 2 + len(rows) * (ROW + 18)
    return BarChart(bars, labels, zero, height)


@dataclass(frozen=True)
class TimeChart:
    points: str  # SVG polyline points
    dots: list[tuple[float, float]]
    ticks: list[tuple[float, str, str]]  # x, date, anchor
    values: list[tuple[float, str]]  # y, value
    height: int = 200
    width: int = WIDTH
    left: int = LEFT
    bottom: int = 170


def time_chart(over_time: list[Point]) -> TimeChart | None:
    """The average points lost a decision by week or month, placed by date (a gap in play is
    a gap on the axis); periods with too few decisions are left out of the line."""
    shown = [p for p in over_time if p.loss is not None]
    if not shown:
        return None
    first, last = shown[0].start, shown[-1].start
    days = max((last - first).days, 1)
    high = max(0.1, *(p.loss for p in shown))
    top, bottom, right = 14, 170, WIDTH - PAD

    def x(d: date) -> float:
        return round(LEFT + (d - first).days / days * (right - LEFT), 1)

    def y(v: float) -> float:
        return round(bottom - v / high * (bottom - top), 1)

    coords = [(x(p.start), y(p.loss)) for p in shown]
    ticks = [(x(first), date_format(first, "SHORT_DATE_FORMAT"), "start")]
    if last != first:
        ticks.append((x(last), date_format(last, "SHORT_DATE_FORMAT"), "end"))
    return TimeChart(
        points=" ".join(f"{a},{b}" for a, b in coords),
        dots=coords,
        ticks=ticks,
        values=[(y(0), "0"), (y(high), f"{high:.2f}")],
    )


def _bid_rows(rows: list[BidRow]) -> list[dict]:
    return [
        {"bid": BID_WORDS.get(r.bid, ""), "held": r.held, "mine": outcome_words(r.mine),
         "band": outcome_words(r.band)}
        for r in rows
    ]  # fmt: skip


def page(i: Insights) -> dict:
    """The page's figures, in words, and its charts."""

    def pair(f: Figure, unit: str = "points", decisions: bool = False) -> dict:
        return {
            "mine": average_words(f.mine, unit, decisions),
            "band": average_words(f.band, unit, decisions),
        }

    point_rows = [
        (_("Every hand"), i.hands),
        (_("As maker"), i.maker),
        (_("As defender"), i.defender),
        (_("As dealer"), i.dealer),
        (_("Not dealing"), i.not_dealer),
    ]
    by_bid: dict[str, list] = {}
    for bid, row in zip((r.bid for r in i.bids), _bid_rows(i.bids), strict=True):
        by_bid.setdefault(bid, []).append(row)
    return {
        "points": [{"name": n, **pair(f)} for n, f in point_rows],
        "points_chart": points_chart(point_rows),
        "outcomes": [
            {"name": n, "mine": rate_words(f.mine), "band": rate_words(f.band)}
            for n, f in (
                (_("Euchred as maker"), i.euchred),
                (_("Euchres inflicted as defender"), i.euchres),
                (_("Marches as maker"), i.marches),
            )
        ],
        "bids": [
            {"key": k, "title_id": f"bid-{k}", "words": BID_WORDS[k], "rows": rows}
            for k, rows in by_bid.items()
        ],
        "bowers": _bid_rows(i.bowers),
        "accuracy": pair(i.accuracy, "loss", decisions=True),
        "over_time": [
            {
                "start": date_format(p.start, "SHORT_DATE_FORMAT"),
                "loss": f"{p.loss:.3f}" if p.loss is not None else too_few(p.decisions, True),
                "decisions": p.decisions,
            }
            for p in i.over_time
        ],
        "time_chart": time_chart(i.over_time),
        "seconds": [
            {"name": _("Every decision"), **pair(i.seconds, "seconds", True)},
            *(
                {"name": KIND_WORDS[k], **pair(f, "seconds", True)}
                for k, f in i.seconds_by_kind.items()
            ),
        ],
    }
