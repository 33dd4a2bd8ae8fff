"""Arenas' pure rules: the pairing of free players, the points of a win (with lichess's
streak), and the performance rating that breaks ties. No Django here: the services read the
rows, ask these, and write the answer (``games.services.arenas``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIN = 2
STREAK = 2  # after this many wins in a row, a win counts double until a loss


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
    (``blocked``: (blocker, blocked) ids), and two who just played each other only when no
    other pairing of the same players avoids it and both have ``waited`` (two alone free
    play again once nobody else came free meanwhile: a rematch beats waiting on). With an
    odd number, the lowest placed waits for the next round; so does one blocked from all
    the others left, unless a swap with a pair made seats them."""
    barred = {frozenset(pair) for pair in blocked}

    def fits(a: Entrant, b: Entrant) -> bool:
        return frozenset((a.id, b.id)) not in barred

    def good(a: Entrant, b: Entrant) -> bool:
        return fits(a, b) and not _again(a, b)

    left = sorted({e.id: e for e in free}.values(), key=lambda e: (-e.score, -e.rating, e.id))
    pairs: list[tuple[Entrant, Entrant]] = []
    waiting: list[Entrant] = []
    while left:
        first = left.pop(0)
        allowed = [e for e in left if fits(first, e)]
        if not allowed:
            waiting.append(first)
            continue
        # Its last opponent only if nobody else is left (then a swap below may still avoid it).
        other = next((e for e in allowed if not _again(first, e)), allowed[0])
        left.remove(other)
        pairs.append((first, other))
    # Those left waiting, two by two (each pair blocked): a swap below may still seat them.
    pairs += zip(waiting[::2], waiting[1::2], strict=False)
    # A pair that does not fit (a rematch, or two left waiting) may swap with another pair:
    # each player has one last opponent, so one of the two swaps always works when the others
    # fit and nobody is blocked.
    for k in range(len(pairs) - 1, -1, -1):
        if good(*pairs[k]):
            continue
        x, y = pairs[k]
        for i in range(len(pairs) - 1, -1, -1):
            if i == k:
                continue
            a, b = pairs[i]
            for one, two in (((a, x), (b, y)), ((a, y), (b, x))):
                if good(*one) and good(*two):
                    pairs[i], pairs[k] = one, two
                    break
            else:
                continue
            break
    # No blocked pair; a rematch no swap avoided, of two who have not waited: they wait for
    # the next round.
    return [
        (a.id, b.id)
        for a, b in pairs
        if fits(a, b) and (not _again(a, b) or (a.waited and b.waited))
    ]


def performance(opponents_rating: int, games: int, wins: int) -> int:
    """The tournament performance rating: the opponents' mean rating (``opponents_rating``:
    their sum over the ``games``), plus 400 for each win beyond the losses, over the games
    (0 before any)."""
    if not games:
        return 0
    return round((opponents_rating + 400 * (2 * wins - games)) / games)
