"""Server-drawn charts: plain SVG, readable without JavaScript."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 180, 28


@dataclass(frozen=True)
class LineChart:
    points: str  # SVG polyline points
    dots: list[tuple[float, float, int]]  # x, y, value (the last few, labelled)
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD


def line_chart(values: list[int]) -> LineChart | None:
    """A chart of ``values`` in order (e.g. a rating after each rated match)."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)
    coords = [
        (PAD + i * step, HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD))
        for i, v in enumerate(values)
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    dots = [(x, y, v) for (x, y), v in zip(coords, values, strict=True)]
    return LineChart(points=points, dots=dots[-1:], low=low, high=high)


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
