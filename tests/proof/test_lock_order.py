"""Row locks that cannot deadlock, on PostgreSQL: a socket opening on a match (its player
locked, then its presence row, which refers to the match) while a rematch of that match is under
way (the match locked, then the player). A clean-clone CI run once saw PostgreSQL end this race
with "deadlock detected", and the player's click on "Play again" with a server error."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import services
from games.models import Connection, Match
from games.services.core import match_locked, players_locked
from tests.support.matches import both_acted

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: this runs in the DATABASE_URL pass of CI")


def in_thread(call) -> tuple[threading.Thread, list]:
    """``call()`` in a thread of its own (a connection of its own); its outcome lands in the
    list: "done", or the error it raised."""
    outcome: list = []

    def run() -> None:
        try:
            call()
            outcome.append("done")
        except Exception as error:  # noqa: BLE001 - the test reports it
            outcome.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def finished_match(alice) -> Match:
    first = services.match_create_computer(user=alice, strength="easy", target=5)
    return services.match_resign(user=alice, match_id=both_acted(first).pk)


def test_a_socket_opens_while_its_match_is_locked(alice):
    match = finished_match(alice)
    locked, release = threading.Event(), threading.Event()

    def hold_the_match() -> None:
        with transaction.atomic():
            match_locked(match.pk)  # as every service changing a match does
            locked.set()
            release.wait(30)

    holder, _ = in_thread(hold_the_match)
    assert locked.wait(10)
    opening, outcome = in_thread(
        lambda: services.connection_open(match_id=match.pk, user=alice, channel_name="one")
    )
    opening.join(timeout=10)
    still_waiting = opening.is_alive()
    release.set()
    holder.join(timeout=30)
    opening.join(timeout=30)
    assert not still_waiting, "the socket waited for the lock on its match"
    assert outcome == ["done"]
    assert Connection.objects.filter(channel_name="one", match=match).exists()


def test_a_rematch_and_a_socket_opening_on_its_match_both_go_through(alice):
    """The two in the order that deadlocked: each takes its first lock, then its second."""
    match = finished_match(alice)
    rematch_first, socket_first = threading.Event(), threading.Event()

    def rematch() -> None:  # rematch_offer: the match, then (a new match) its player
        with transaction.atomic():
            match_locked(match.pk)
            rematch_first.set()
            socket_first.wait(10)
            players_locked(alice)
            services.match_create_computer(user=alice, strength="easy", target=5)

    def socket_opens() -> None:  # connection_open: the player, then a row referring to the match
        with transaction.atomic():
            players_locked(alice)
            socket_first.set()
            rematch_first.wait(10)
            Connection.objects.create(
                match_id=match.pk, user=alice, channel_name="two", seen_at=timezone.now()
            )

    threads = [in_thread(rematch), in_thread(socket_opens)]
    for thread, _ in threads:
        thread.join(timeout=30)
    assert [outcome for _, outcome in threads] == [["done"], ["done"]]
    assert Connection.objects.filter(channel_name="two").exists()
    assert Match.objects.filter(player0=alice).count() == 2
