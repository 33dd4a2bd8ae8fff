"""The caps hold when one player's requests arrive all at once, on PostgreSQL (where they
really run side by side): open matches, computer matches, sockets, reports, rated matches a day
between two players. The counts are printed at the end of the module."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.models import Connection, Match, MatchStatus, Report
from tests.support.matches import start

pytestmark = pytest.mark.django_db(transaction=True)
THREADS = 12


def all_at_once(call, count: int = THREADS) -> list[str]:
    """``call(number)`` from ``count`` threads released together; each one's outcome."""
    barrier = threading.Barrier(count)
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(number: int) -> None:
        barrier.wait()
        try:
            call(number)
            outcome = "done"
        except services.GameError as error:
            outcome = type(error).__name__
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(outcomes) == count, "a request hung"
    return outcomes


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: this runs in the DATABASE_URL pass of CI")


def test_simultaneous_requests_never_pass_a_cap(alice, bob, carol, settings, figures):
    settings.OPEN_MATCHES_PER_PLAYER = 3
    settings.COMPUTER_MATCHES_PER_PLAYER = 2
    settings.SOCKETS_PER_PLAYER = 4
    settings.REPORTS_PER_HOUR = 5

    outcomes = all_at_once(lambda n: services.match_create(user=alice))
    past = outcomes.count("done") - 3
    assert outcomes.count("done") == 3 and outcomes.count("LimitReached") == THREADS - 3
    assert Match.objects.filter(player0=alice, status=MatchStatus.OPEN).count() == 3

    outcomes = all_at_once(lambda n: services.match_create_computer(user=bob, strength="easy"))
    past += outcomes.count("done") - 2
    assert outcomes.count("done") == 2
    assert Match.objects.filter(player0=bob).exclude(computer="").count() == 2

    match = start(bob, carol)
    outcomes = all_at_once(
        lambda n: services.connection_open(match_id=match.pk, user=carol, channel_name=f"c{n}")
    )
    past += outcomes.count("done") - 4
    assert outcomes.count("done") == 4 and outcomes.count("TooOften") == THREADS - 4
    assert Connection.objects.filter(user=carol).count() == 4

    outcomes = all_at_once(
        lambda n: services.report_create(reporter=carol, match_id=match.pk, reason="abuse")
    )
    past += outcomes.count("done") - 1
    assert outcomes.count("done") == 1 and Report.objects.filter(reporter=carol).count() == 1
    figures["simultaneous requests"] += 4 * THREADS
    figures["past a cap"] += past


def test_simultaneous_joins_rate_no_more_than_the_days_matches_between_two(
    alice, bob, settings, figures
):
    settings.RATED_MATCHES_PER_PAIR_PER_DAY = 3
    settings.OPEN_MATCHES_PER_PLAYER = THREADS
    waiting = [services.match_create(user=alice).pk for _ in range(THREADS)]
    all_at_once(lambda n: services.match_join(user=bob, match_id=waiting[n]))
    joined = Match.objects.filter(pk__in=waiting, status=MatchStatus.ACTIVE)
    rated = joined.filter(rated=True).count()
    figures["rated of 12 simultaneous joins"] += rated
    assert joined.count() == THREADS
    assert rated <= 3, rated
