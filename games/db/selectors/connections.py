"""Who is at a match (its sockets), remembered briefly in each process, and the task workers
alive.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from ...models import Connection, WorkerBeat

PRESENCE_TIMEOUT = timedelta(seconds=45)


# Every board rendered shows presence, and a move renders several: each process remembers a
# match's presence briefly. A connect or disconnect anywhere is broadcast to every process,
# which forgets it at once (forget_presence); the expiry covers servers that died silently,
# whose sockets count as present until PRESENCE_TIMEOUT anyway. Under load (500 matches, a move
# every 2 s each) 5 s of memory meant a presence query about every other move.
PRESENCE_MEMORY_SECONDS = 15.0


@dataclass(frozen=True)
class Presence:
    """Who is at a match: its players with a live socket on it, and how many other sockets
    watch it (counted no further than a match's cap on sockets)."""

    players: frozenset[int] = frozenset()
    watching: int = 0


_presence: dict[int, tuple[float, Presence]] = {}


def presence(*, match_ids: list[int]) -> dict[int, Presence]:
    """Each match's presence, in at most one query for all those this process does not
    remember (heartbeats refresh the sockets' rows every few seconds)."""
    now = time.monotonic()
    found: dict[int, Presence] = {}
    for match_id in match_ids:
        remembered = _presence.get(match_id)
        if remembered and remembered[0] > now:
            found[match_id] = remembered[1]
    missing = [match_id for match_id in match_ids if match_id not in found]
    if not missing:
        return found
    since = timezone.now() - PRESENCE_TIMEOUT
    rows = Connection.objects.filter(match_id__in=missing, seen_at__gte=since).values_list(
        "match_id", "user_id", "match__player0_id", "match__player1_id"
    )
    players: dict[int, set[int]] = {match_id: set() for match_id in missing}
    watching = dict.fromkeys(missing, 0)
    for match_id, user_id, player0, player1 in rows:
        if user_id in (player0, player1):
            players[match_id].add(user_id)
        else:
            watching[match_id] += 1
    if len(_presence) > 10_000:
        _presence.clear()
    for match_id in missing:
        here = Presence(
            frozenset(players[match_id]), min(watching[match_id], settings.SOCKETS_PER_MATCH)
        )
        _presence[match_id] = (now + PRESENCE_MEMORY_SECONDS, here)
        found[match_id] = here
    return found


def live_workers() -> int:
    """Task workers that wrote their heartbeat lately."""
    since = timezone.now() - timedelta(seconds=settings.WORKER_DEAD_AFTER_SECONDS)
    return WorkerBeat.objects.filter(seen_at__gte=since).count()


def forget_presence(match_id: int) -> None:
    _presence.pop(match_id, None)
