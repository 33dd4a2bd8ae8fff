"""Arenas: tournaments with a start and an end time. Players join before or during one; while
it runs, a task in the worker pairs every free player every few seconds (``games.arena``'s
rules: similar scores, not the last opponent); each match's result scores in the standings
(``arena_results``). No match starts after the end; those in play then finish and count.

Any player with enough rated matches may create one (a moderator, any); moderators cancel
arenas and remove players (their points void), each in the arena's audit log.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypeVar

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from psycopg.errors import DeadlockDetected, SerializationFailure

from .. import tasks
from ..arena import Entrant, pairings
from ..db.selectors.arenas import live_in_play
from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..db.selectors.fairplay import fair_play_marked
from ..errors import Conflict, GameError, NotAllowed, NotFound
from ..models import (
    Arena,
    ArenaAudit,
    ArenaInvite,
    ArenaPlayer,
    Block,
    Connection,
    PlayerRating,
    is_bot,
    is_guest,
)
from . import events
from .core import players_locked
from .matches import clock_checked, match_start, rules_checked

ARENA_MINUTES = (30, 60, 90)
NAME_MOST = 60
# How far ahead an arena may be announced.
ANNOUNCED_AHEAD = timedelta(days=14)
# Two who just played each other meet again only after this long free (another player may
# come free meanwhile).
REMATCH_WAIT = timedelta(seconds=10)
# How many times a pairing transaction that lost a deadlock (or a serialisation) to another
# is tried in all before the error stands.
RACE_ATTEMPTS = 3

T = TypeVar("T")


def may_create_arenas(user) -> bool:
    """A moderator, or a player (not a guest, not a bot) with enough rated matches."""
    if user.has_perm("games.moderate_arena"):
        return True
    if is_guest(user) or is_bot(user):
        return False
    played = PlayerRating.objects.filter(user=user).values_list("rated_matches", flat=True)
    return (played.first() or 0) >= settings.ARENA_CREATOR_RATED_MATCHES


def arena_create(
    *,
    user,
    name: str,
    starts_at: datetime,
    minutes: int,
    deck: int = 24,
    target: int = 5,
    stick_the_dealer: bool = False,
    dealer_must_take_up: bool = False,
    move_seconds: int = 30,
    rated: bool = True,
    invited_only: bool = False,
    bots_allowed: bool = False,
    invited: tuple = (),
) -> Arena:
    """Announce an arena. A player (not a moderator) needs ARENA_CREATOR_RATED_MATCHES rated
    matches and may have one arena announced or running at a time."""
    name = " ".join(name.split())[:NAME_MOST]
    if not name:
        raise GameError("arena_name")
    if not may_create_arenas(user):
        raise NotAllowed("arena_creator", count=settings.ARENA_CREATOR_RATED_MATCHES)
    if minutes not in ARENA_MINUTES:
        raise GameError("arena_minutes", minutes=", ".join(map(str, ARENA_MINUTES)))
    now = timezone.now()
    if not now - timedelta(minutes=1) <= starts_at <= now + ANNOUNCED_AHEAD:
        raise GameError("arena_start", days=ANNOUNCED_AHEAD.days)
    rules_checked(deck, target, stick_the_dealer, dealer_must_take_up)
    if move_seconds is None:
        raise GameError("arena_clock")
    clock_checked(move_seconds)
    with transaction.atomic():
        if not user.has_perm("games.moderate_arena"):
            live = (Arena.Status.SCHEDULED, Arena.Status.RUNNING)
            if Arena.objects.filter(created_by=user, status__in=live).exists():
                raise Conflict("arena_one_at_a_time")
        arena = Arena.objects.create(
            name=name, created_by=user, starts_at=max(starts_at, now), minutes=minutes,
            deck=deck, target=target, stick_the_dealer=stick_the_dealer,
            dealer_must_take_up=dealer_must_take_up, move_seconds=move_seconds, rated=rated,
            invited_only=invited_only, bots_allowed=bots_allowed,
        )  # fmt: skip
        ArenaInvite.objects.bulk_create(
            [ArenaInvite(arena=arena, user=u) for u in {*invited, user} if u is not None]
        )
        ArenaAudit.objects.create(arena=arena, actor=user, kind=ArenaAudit.Kind.CREATED)
        tasks.schedule_arena_start(arena.pk, arena.starts_at)
    return arena


# The locks of an arena's writes are taken in one order: the arena's row, then its players'
# rows (players_locked), then matches and the players' entries. The arena's row is locked FOR
# NO KEY UPDATE: only to serialise its writers. FOR UPDATE also makes every row that refers
# to the arena (a match of it started, an entry joining) wait for the foreign key's FOR KEY
# SHARE: a pairing holding an entry waited for a pause holding the arena, which waited for
# that entry (PostgreSQL's deadlock, a 500 or a round lost).
def _arena_row_locked(arena_id: int) -> Arena | None:
    return Arena.objects.select_for_update(no_key=True).filter(pk=arena_id).first()


def _arena_locked(arena_id: int) -> Arena:
    arena = _arena_row_locked(arena_id)
    if arena is None:
        raise NotFound("no_such_arena")
    return arena


def _lost_a_race(error: OperationalError) -> bool:
    return isinstance(error.__cause__, (DeadlockDetected, SerializationFailure))


def _retried(work: Callable[[], T]) -> T:
    """``work`` (its own transactions), again if PostgreSQL chose it to lose a deadlock or a
    serialisation, up to RACE_ATTEMPTS in all: the other transaction has gone on, so the next
    attempt finds its rows free. Inside a caller's transaction nothing is tried again: that
    transaction is aborted, and the error is the caller's."""
    for _attempt in range(RACE_ATTEMPTS - 1):
        try:
            return work()
        except OperationalError as error:
            if connection.in_atomic_block or not _lost_a_race(error):
                raise
    return work()  # the last attempt: its error stands


def arena_join(*, user, arena_id: int, notify: bool | None = None) -> ArenaPlayer:
    """Join an arena announced or running (again: back from a pause). ``notify``: a mail
    when it starts (None: as before)."""
    with transaction.atomic():
        arena = _arena_locked(arena_id)
        if arena.status not in (Arena.Status.SCHEDULED, Arena.Status.RUNNING):
            raise Conflict("arena_over")
        if arena.status == Arena.Status.RUNNING and timezone.now() >= arena.ends_at:
            raise Conflict("arena_over")
        if arena.rated and is_guest(user):
            raise NotAllowed("guest_rated")
        if arena.rated and fair_play_marked(user):
            raise NotAllowed("fair_play_rated")
        if is_bot(user) and not arena.bots_allowed:
            raise NotAllowed("arena_no_bots")
        invited = ArenaInvite.objects.filter(arena=arena, user=user).exists()
        if arena.invited_only and not invited:
            raise NotAllowed("arena_invited_only")
        entry, created = ArenaPlayer.objects.get_or_create(
            arena=arena, user=user,
            defaults={"free_since": timezone.now(), "notify": bool(notify)},
        )  # fmt: skip
        if entry.removed:
            raise NotAllowed("arena_removed")
        if not created:
            entry.paused = False
            entry.free_since = timezone.now()
            if notify is not None:
                entry.notify = notify
            entry.save(update_fields=["paused", "free_since", "notify"])
        events.arena_changed_on_commit(arena.pk)
    return entry


def arena_pause(*, user, arena_id: int) -> ArenaPlayer:
    """Leave the pairing pool (a match in play goes on); ``arena_join`` comes back."""
    with transaction.atomic():
        arena = _arena_locked(arena_id)
        entry = ArenaPlayer.objects.filter(arena=arena, user=user).first()
        if entry is None:
            raise NotFound("arena_not_joined")
        entry.paused = True
        entry.save(update_fields=["paused"])
        events.arena_changed_on_commit(arena.pk)
    return entry


def arena_start(*, arena_id: int) -> bool:
    """The arena's start (its task, due at the start time): running, paired at once; its
    end queued; the players who asked are told. True if it started now."""
    with transaction.atomic():
        arena = _arena_row_locked(arena_id)
        if arena is None or arena.status != Arena.Status.SCHEDULED:
            return False
        if timezone.now() < arena.starts_at:
            return False  # a retry come early: its own task is still due
        arena.status = Arena.Status.RUNNING
        arena.pair_due = timezone.now()
        arena.save(update_fields=["status", "pair_due"])
        ArenaAudit.objects.create(arena=arena, kind=ArenaAudit.Kind.STARTED)
        tasks.schedule_arena_pair(arena.pk, arena.pair_due)
        tasks.schedule_arena_end(arena.pk, arena.ends_at)
        tasks.schedule_push("arena", arena.pk)
        joined = tuple(ArenaPlayer.objects.filter(arena=arena).values_list("user_id", flat=True))
        events.send_user_event_on_commit(joined)  # the banner: it has started
        events.arena_changed_on_commit(arena.pk)
        for entry_id in ArenaPlayer.objects.filter(arena=arena, notify=True).values_list(
            "pk", flat=True
        ):
            tasks.schedule_arena_mail(entry_id)
    return True


def _free(arena: Arena) -> list[ArenaPlayer]:
    """The players free to be paired now: joined, not paused or removed, connected (a page,
    socket or stream of theirs open: someone who left the site is not paired), and in no
    live match (of this arena or another: the arena's page names it, selectors.arena_live)."""
    since = timezone.now() - PRESENCE_TIMEOUT
    connected = Connection.objects.filter(seen_at__gte=since).values("user_id")
    busy = (
        live_in_play()
        .filter(Q(player0_id__in=connected) | Q(player1_id__in=connected))
        .values_list("player0_id", "player1_id")
    )
    playing = {pk for pair in busy for pk in pair}
    entries = ArenaPlayer.objects.filter(
        arena=arena, paused=False, removed=False, user__is_active=True, user_id__in=connected
    ).select_related("user")
    return [entry for entry in entries if entry.user_id not in playing]


def arena_pair(*, arena_id: int, due: datetime) -> int:
    """The pairing task: pair the arena's free players and start their matches (both pages
    go to them), then queue the next round. Does nothing unless it is the arena's waiting
    task (``Arena.pair_due``). How many matches started.

    The round is decided under the arena's lock, the next one queued with it; then each match
    starts in a transaction of its own, so that the first pairs are at their tables while the
    last are being seated (a round of a hundred matches at an arena's start). A transaction
    that loses a deadlock is tried again: an error would lose the rest of the round, or (the
    round's decision) the arena's pairing, whose next round it queues."""
    decided = _retried(lambda: _round(arena_id, due))
    if decided is None:
        return 0
    arena, pairs = decided
    started = sum(_retried(lambda pair=pair: _pair_start(arena, pair)) for pair in pairs)
    if started:
        with transaction.atomic():
            events.arena_changed_on_commit(arena.pk)
    return started


def _round(arena_id: int, due: datetime) -> tuple[Arena, list[tuple[int, int]]] | None:
    """The round's pairs, and the next round queued; None if this is not the arena's waiting
    task or it is over."""
    with transaction.atomic():
        arena = _arena_row_locked(arena_id)
        if arena is None or arena.pair_due != due or arena.status != Arena.Status.RUNNING:
            return None
        now = timezone.now()
        if now >= arena.ends_at:
            arena.pair_due = None
            arena.save(update_fields=["pair_due"])
            return None  # no match starts after the end (arena_end finishes it)
        free = {entry.user_id: entry for entry in _free(arena)}
        ratings = dict(
            PlayerRating.objects.filter(user_id__in=free).values_list("user_id", "value")
        )
        # Either of two may have blocked the other: they are never paired (pairings).
        blocks = Block.objects.filter(blocker_id__in=free, blocked_id__in=free)
        waited = now - REMATCH_WAIT
        entrants = [
            Entrant(
                id=pk,
                score=entry.score,
                rating=ratings.get(pk, 1500),
                last_opponent=entry.last_opponent_id,
                waited=entry.free_since is None or entry.free_since <= waited,
            )
            for pk, entry in free.items()
        ]
        pairs = pairings(entrants, blocked=blocks.values_list("blocker_id", "blocked_id"))
        arena.pair_due = now + timedelta(seconds=settings.ARENA_PAIR_SECONDS)
        arena.save(update_fields=["pair_due"])
        tasks.schedule_arena_pair(arena.pk, arena.pair_due)
    return arena, pairs


def _pair_start(arena: Arena, pair: tuple[int, int]) -> bool:
    """One pair's match, if both are still free (a round still seating its pairs when the
    next one began saw them free too: nobody is in two matches). True if it started.

    The arena's row first, then the players' (the order of every arena write): a pause or a
    removal waits for the match to start, and the match of another arena or of the lobby for
    the same player waits too, so the check that both are free holds until the commit."""
    with transaction.atomic():
        if _arena_row_locked(arena.pk) is None:
            return False
        entries = list(
            ArenaPlayer.objects.filter(arena=arena, user_id__in=pair, paused=False, removed=False)
            .select_related("user")
            .order_by("user_id")
        )
        if len(entries) != 2:
            return False
        players_locked(*(entry.user for entry in entries))
        busy = live_in_play().filter(Q(player0_id__in=pair) | Q(player1_id__in=pair))
        if busy.exists():
            return False
        one, two = sorted(entries, key=lambda e: pair.index(e.user_id))
        match = match_start(
            players=(one.user, two.user), created_by=arena.created_by,
            options=arena.match_options(), arena_id=arena.pk,
        )  # fmt: skip
        events.send_user_event_on_commit((one.user_id, two.user_id), goto=match.pk)
    return True


def arena_end(*, arena_id: int) -> bool:
    """The end time (its task): no more pairing; the matches in play finish and count."""
    with transaction.atomic():
        arena = _arena_row_locked(arena_id)
        if arena is None or arena.status != Arena.Status.RUNNING:
            return False
        if timezone.now() < arena.ends_at:
            return False
        arena.status = Arena.Status.FINISHED
        arena.pair_due = None
        arena.save(update_fields=["status", "pair_due"])
        ArenaAudit.objects.create(arena=arena, kind=ArenaAudit.Kind.FINISHED)
        events.arena_changed_on_commit(arena.pk)
    return True


def arena_cancel(*, moderator, arena_id: int, reason: str) -> Arena:
    """A moderator calls the arena off: no more pairing, no podium (matches in play go on,
    as ordinary matches)."""
    with transaction.atomic():
        arena = _arena_locked(arena_id)
        if arena.status in (Arena.Status.FINISHED, Arena.Status.CANCELLED):
            raise Conflict("arena_over")
        arena.status = Arena.Status.CANCELLED
        arena.pair_due = None
        arena.save(update_fields=["status", "pair_due"])
        ArenaAudit.objects.create(
            arena=arena, actor=moderator, kind=ArenaAudit.Kind.CANCELLED, reason=reason
        )
        events.arena_changed_on_commit(arena.pk)
    return arena


def arena_player_remove(*, moderator, arena_id: int, player, reason: str) -> ArenaPlayer:
    """A moderator removes a player: their points are void, they are paired no more and may
    not join again."""
    with transaction.atomic():
        arena = _arena_locked(arena_id)
        entry = (
            ArenaPlayer.objects.select_for_update(no_key=True)
            .filter(arena=arena, user=player)
            .first()
        )
        if entry is None:
            raise NotFound("arena_not_joined")
        entry.removed = True
        entry.score = 0
        entry.streak = 0
        entry.save(update_fields=["removed", "score", "streak"])
        ArenaAudit.objects.create(
            arena=arena, actor=moderator, kind=ArenaAudit.Kind.REMOVED, player=player,
            reason=reason,
        )  # fmt: skip
        events.arena_changed_on_commit(arena.pk)
    return entry
