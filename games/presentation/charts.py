"""Server-drawn charts: plain SVG, readable without JavaScript."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format

WIDTH, HEIGHT, PAD = 600, 180, 28


LEFT = 54  # room for a rating's four digits beside the line chart's values (a phone's type)
TICKS = 4  # at most this many values, and dates, labelled on an axis


@dataclass(frozen=True)
class Tick:
    at: float  # y of a value, x of a date
    words: str
    anchor: str = "middle"  # SVG text-anchor: a date at either end stays inside the chart


@dataclass(frozen=True)
class LineChart:
    points: str  # SVG polyline points
    dots: list[tuple[float, float, int]]  # x, y, value (the last few, labelled)
    low: int
    high: int
    values: list[Tick]  # the y axis: the lowest and highest values, round ones between
    dates: list[Tick]  # the x axis: a few points' dates, in the viewer's language
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD
    left: int = LEFT


def _step(span: int) -> int:
    """A round step that divides ``span`` into at most ``TICKS`` parts."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if span / step <= TICKS:
            return step
    return 1000 * math.ceil(span / (1000 * TICKS))


def _value_ticks(low: int, high: int, y) -> list[Tick]:
    """The lowest and the highest value, and round values between them far enough from
    both for their labels not to touch (a phone's type: 22 apart)."""
    ticks = [Tick(round(y(low), 1), str(low))]
    if high == low:
        return ticks
    step = _step(high - low)
    between = range((low // step + 1) * step, high, step)
    ticks += [
        Tick(round(y(v), 1), str(v))
        for v in between
        if abs(y(v) - y(low)) >= 22 and abs(y(v) - y(high)) >= 22
    ]
    return [*ticks, Tick(round(y(high), 1), str(high))]


def _date_ticks(dates: list[datetime], x) -> list[Tick]:
    """The first point's date, the last's, and up to two between, evenly spread over the
    points; a date shown once (a day of many matches is labelled at its first)."""
    last = len(dates) - 1
    if last < 0:
        return []
    chosen = sorted({round(i * last / (TICKS - 1)) for i in range(TICKS)})
    ticks, seen = [], set()
    for i in chosen:
        words = date_format(timezone.localtime(dates[i]), "SHORT_DATE_FORMAT")
        if words in seen:
            continue
        seen.add(words)
        anchor = "start" if i == 0 else "end" if i == last else "middle"
        ticks.append(Tick(round(x(i), 1), words, anchor))
    return ticks


def line_chart(values: list[int], dates: list[datetime] | None = None) -> LineChart | None:
    """A chart of ``values`` in order (e.g. a rating after each rated match), each point
    ``dates[i]`` (when it was reached) if given. The points are spaced evenly, one per match,
    not by time: a day of ten matches stays readable beside a month of one; the dates under
    the axis say when."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - LEFT - PAD) / max(len(values) - 1, 1)

    def x(i: float) -> float:
        return LEFT + i * step

    def y(v: float) -> float:
        return HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD)

    coords = [(x(i), y(v)) for i, v in enumerate(values)]
    points = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
    dots = [(cx, cy, v) for (cx, cy), v in zip(coords, values, strict=True)]
    return LineChart(
        points=points, dots=dots[-1:], low=low, high=high,
        values=_value_ticks(low, high, y), dates=_date_ticks(dates or [], x),
    )  # fmt: skip


@dataclass(frozen=True)
class ChanceChart:
    points: str  # SVG polyline points
    flagged: list[tuple[float, float]]  # the player's flagged decisions
    now: float  # x of the replay's step
    middle: float  # y of an even chance
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD


def chance_chart(
    points: list[tuple[int, float]], last: int, step: int, flagged: list[int]
) -> ChanceChart:
    """A chance to win (0 to 1) at each step of a match of ``last`` steps; ``flagged``: the
    steps of decisions to mark (each drawn where its move leaves the chance)."""
    span = max(last, 1)

    def x(i: float) -> float:
        return PAD + i / span * (WIDTH - 2 * PAD)

    def y(chance: float) -> float:
        return HEIGHT - PAD - chance * (HEIGHT - 2 * PAD)

    line = " ".join(f"{x(i):.1f},{y(c):.1f}" for i, c in points)
    after = dict(points)
    marks = [(round(x(i + 1), 1), round(y(after[i + 1]), 1)) for i in flagged if i + 1 in after]
    return ChanceChart(line, marks, round(x(min(step, last)), 1), round(y(0.5), 1))
