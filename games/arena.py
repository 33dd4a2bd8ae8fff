"""Arenas' pure rules: the pairing of free players, the points of a win (with lichess's
streak), and the performance rating that breaks ties. No Django here: the services read the
rows, ask these, and write the answer (``games.services.arenas``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

WIN = 2
STREAK = 2  # after this many wins in a row, a win counts double until a loss
# An arena announced starts by default at the next quarter hour at least this far ahead.
QUARTER = timedelta(minutes=15)
NOTICE = timedelta(minutes=5)


@dataclass(frozen=True)
class Entrant:
    """A free player of an arena: its score, rating (the tie-break of the order) and last
    opponent (None before their first match)."""

    id: int
    score: int
    rating: int
    last_opponent: int | None = None
    # Free for a while already: may meet the last opponent again rather than wait longer.
    waited: bool = True


def points(streak: int, won: bool) -> int:
    """A match's points for a player with ``streak`` wins in a row before it: 2 a win, 0 a
    loss; after two wins in a row, a win scores double (on fire) until a loss."""
    if not won:
        return 0
    return 2 * WIN if streak >= STREAK else WIN


def tally(results: Sequence[bool]) -> tuple[int, int, int, int]:
    """A player's score, streak, wins and losses from their results in the order they came
    (True a win)."""
    score = streak = 0
    for won in results:
        score += points(streak, won)
        streak = streak + 1 if won else 0
    wins = sum(results)
    return score, streak, wins, len(results) - wins


def on_fire(streak: int) -> bool:
    """Whether the next win scores double (the flame on the standings)."""
    return streak >= STREAK


def _again(a: Entrant, b: Entrant) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def pairings(
    free: Sequence[Entrant], blocked: Iterable[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """Pairs of the free players: similar scores together (the order is score, then rating),
    never a player twice or with themselves, never two of whom one has blocked the other
    (``blocked``: (blocker, blocked) ids), and two who just played each other only when
    neither can meet anyone else left free, not even by a swap with a pair made, and both
    have ``waited`` (two alone free play again once nobody else came free meanwhile: a
    rematch beats waiting on). With an odd number, the lowest placed waits for the next
    round; so does one blocked from all the others."""
    barred = {frozenset(pair) for pair in blocked}

    def fits(a: Entrant, b: Entrant) -> bool:
        return frozenset((a.id, b.id)) not in barred

    def good(a: Entrant, b: Entrant) -> bool:
        return fits(a, b) and not _again(a, b)

    order = sorted({e.id: e for e in free}.values(), key=lambda e: (-e.score, -e.rating, e.id))
    place = {e.id: k for k, e in enumerate(order)}
    pairs: list[tuple[Entrant, Entrant]] = []
    alone: list[Entrant] = []
    left = list(order)
    while left:
        first = left.pop(0)
        # The best placed one it may meet, not its last opponent: a player with none such
        # waits rather than take a rematch (its last opponent may meet someone else: with
        # A-B just played and C last against A, B-C rather than A-B again).
        other = next((e for e in left if good(first, e)), None)
        if other is None:
            alone.append(first)
            continue
        left.remove(other)
        pairs.append((first, other))

    def split(x: Entrant, y: Entrant) -> tuple[int, tuple, tuple] | None:
        """A pair made that x and y may split: a-b becomes x-a and b-y (or x-b and a-y)."""
        for k, (a, b) in enumerate(pairs):
            for one, two in (((x, a), (b, y)), ((x, b), (a, y))):
                if good(*one) and good(*two):
                    return k, one, two
        return None

    # No two left alone may meet without a rematch: a split is the way to seat them.
    while found := next(((x, y, s) for x, y in combinations(alone, 2) if (s := split(x, y))), None):
        x, y, (k, one, two) = found
        pairs[k] = one
        pairs.append(two)
        alone.remove(x)
        alone.remove(y)
    # Still alone: two who just played each other and both waited play again (nobody else
    # is free for either of them).
    while alone:
        first = alone.pop(0)
        other = next((e for e in alone if fits(first, e) and first.waited and e.waited), None)
        if other is not None:
            alone.remove(other)
            pairs.append((first, other))
    seats = [tuple(sorted(pair, key=lambda e: place[e.id])) for pair in pairs]
    return sorted(((a.id, b.id) for a, b in seats), key=lambda p: place[p[0]])


def default_start(now: datetime) -> datetime:
    """The start the form to announce an arena suggests: the next quarter hour at least five
    minutes after ``now`` (to the minute, in ``now``'s time zone)."""
    earliest = now + NOTICE
    midnight = earliest.replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight + -(-(earliest - midnight) // QUARTER) * QUARTER


def performance(opponents_rating: int, games: int, wins: int) -> int:
    """The tournament performance rating: the opponents' mean rating (``opponents_rating``:
    their sum over the ``games``), plus 400 for each win beyond the losses, over the games
    (0 before any)."""
    if not games:
        return 0
    return round((opponents_rating + 400 * (2 * wins - games)) / games)
