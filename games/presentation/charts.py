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
