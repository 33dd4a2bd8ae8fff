"""Elo ratings: pure arithmetic, no Django.

New players start at 1500. K is 40 for a player's first 20 rated matches (their rating is
provisional, shown as "1500?"), then 20. Each player's change is rounded to a whole point.
"""

from __future__ import annotations

INITIAL = 1500
PROVISIONAL_MATCHES = 20
K_PROVISIONAL = 40
K_ESTABLISHED = 20


def expected(rating: float, opponent: float) -> float:
    """Expected score of a player against an opponent: 1 / (1 + 10^((Rb - Ra) / 400))."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def k_factor(rated_matches: int) -> int:
    """K for a player who has finished ``rated_matches`` rated matches before this one."""
    return K_PROVISIONAL if rated_matches < PROVISIONAL_MATCHES else K_ESTABLISHED


def is_provisional(rated_matches: int) -> bool:
    return rated_matches < PROVISIONAL_MATCHES


def change(rating: int, opponent: int, score: float, rated_matches: int) -> int:
    """Points gained (or lost, negative) for ``score`` (1 win, 0 loss) against ``opponent``."""
    return round(k_factor(rated_matches) * (score - expected(rating, opponent)))


def display(rating: int, rated_matches: int) -> str:
    return f"{rating}?" if is_provisional(rated_matches) else str(rating)
