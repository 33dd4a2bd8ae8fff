"""An arena's locks against PostgreSQL's deadlock detector: a pause or a join racing the
worker's pairing waits its turn and succeeds (no 500), and a pairing that PostgreSQL makes lose
a deadlock all the same is tried again rather than losing its round.

Each race is forced, not timed: the test holds a player's row, so the pairing stops where it
locks the players; the other side starts only once the pairing waits there, and the row is let
go only once that side waits too (seen in ``pg_blocking_pids``)."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games import services
from games.models import Arena, ArenaPlayer, Match, MatchStatus
from tests.support.arenas import moderator_made, online, running

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: this runs in the DATABASE_URL pass of CI")


@pytest.fixture
def moderator(moderators_group):
    return moderator_made()


class InThread:
    """``work`` run in a thread, on a database connection of its own (its backend ``pid``)."""

    def __init__(self, work):
        self.pid = None
        self.done = threading.Event()
        self._started = threading.Event()
        self._outcome = ()
        self._thread = threading.Thread(target=self._run, args=(work,))
        self._thread.start()
        assert self._started.wait(30), "the thread did not connect"

    def _run(self, work) -> None:
        try:
            connection.ensure_connection()
            self.pid = connection.connection.info.backend_pid
            self._started.set()
            self._outcome = (work(),)
        except BaseException as error:  # handed to the test's thread by result()
            self._outcome = (None, error)
        finally:
            connection.close()
            self._started.set()
            self.done.set()

    def waiting(self) -> None:
        """Return once this thread's transaction waits for a lock another holds."""
        deadline = time.monotonic() + 30
        with connection.cursor() as cursor:
            while True:
                cursor.execute("SELECT cardinality(pg_blocking_pids(%s))", [self.pid])
                if cursor.fetchone()[0]:
                    return
                # Wait for its end (it should not come) a moment before asking again.
                assert not self.done.wait(0.01), f"it never waited: {self._outcome}"
                assert time.monotonic() < deadline, "it did not come to wait"

    def result(self):
        assert self.done.wait(60), "the thread did not finish"
        self._thread.join()
        if len(self._outcome) == 2:
            raise self._outcome[1]
        return self._outcome[0]


def player_row_held(player) -> None:
    """Lock the player's row as their own requests do (a socket's presence, a report: the
    services' players_locked), in the caller's transaction."""
    users = get_user_model().objects.select_for_update(no_key=True)
    list(users.filter(pk=player.pk).values("pk"))


def seated(arena) -> list[int]:
    matches = Match.objects.filter(arena=arena, status=MatchStatus.ACTIVE)
    return sorted(pk for pair in matches.values_list("player0_id", "player1_id") for pk in pair)


@pytest.mark.parametrize("request_made", ["pause", "join"])
def test_a_pause_or_join_racing_the_pairing_waits_and_neither_fails(moderator, request_made):
    """The pairing seats a with b while a pauses (or joins again, from another tab): the
    request waits for the match to start, then is done; every pair of the round starts."""
    four = online("abcd")
    a = four[0]
    arena = running(moderator, four)
    asked = {"pause": services.arena_pause, "join": services.arena_join}[request_made]
    with transaction.atomic():
        player_row_held(a)
        pairing = InThread(lambda: services.arena_pair(arena_id=arena.pk, due=arena.pair_due))
        pairing.waiting()  # its first pair, a and b: stopped at a's row
        request = InThread(lambda: asked(user=a, arena_id=arena.pk))
        request.waiting()
    assert pairing.result() == 2
    assert request.result().paused == (request_made == "pause")
    assert seated(arena) == sorted(u.pk for u in four)
    assert ArenaPlayer.objects.get(arena=arena, user=a).paused == (request_made == "pause")


def test_a_pairing_that_loses_a_deadlock_is_tried_again_and_its_round_is_not_lost(moderator):
    """Another transaction takes a's row, then the arena's and a's entry: the opposite of the
    pairing's order. PostgreSQL breaks the deadlock by failing the one that waited longer,
    the pairing, which tries that pair again once the other has committed."""
    four = online("abcd")
    a = four[0]
    arena = running(moderator, four)
    with transaction.atomic():
        player_row_held(a)
        pairing = InThread(lambda: services.arena_pair(arena_id=arena.pk, due=arena.pair_due))
        pairing.waiting()
        # What the pairing holds by then (the arena's row; before, a's entry): the deadlock.
        list(Arena.objects.select_for_update(no_key=True).filter(pk=arena.pk).values("pk"))
        entry = ArenaPlayer.objects.select_for_update(no_key=True).filter(arena=arena, user=a)
        list(entry.values("pk"))
    assert pairing.result() == 2
    assert seated(arena) == sorted(u.pk for u in four)
    arena.refresh_from_db()
    assert arena.pair_due is not None  # the next round is queued
