"""The fair-play signals on the worker's path: a rated match between two people, finished
and analysed by a real task worker, raises through ``fairplay.raise_flag`` the flag of the
person whose moves came through the API, and none for their opponent who moved on the page."""

from __future__ import annotations

import pytest

from games.models import FairPlayFlag
from tests.support.matches import start
from tests.support.servers import Worker, server_env
from tests.support.ways import play_out


@pytest.mark.django_db(transaction=True)  # the worker process reads what this test committed
def test_a_person_moving_through_the_api_is_flagged_once_the_worker_analysed_the_match(alice, bob):
    match = play_out(
        start(alice, bob, seed=5611, target=5), {alice.pk: "api_post", bob.pk: "page_socket"}
    )
    assert match.rated and not FairPlayFlag.objects.exists()  # finishing flags nobody
    worker = Worker(server_env()).start()
    try:
        worker.wait_for_line("path=games.tasks.match_analyse state=SUCCESSFUL", timeout=60)
    finally:
        worker.stop()
    flag = FairPlayFlag.objects.get()
    assert flag.player == alice and flag.status == "open"
    (api,) = [s for s in flag.signals if s["kind"] == "api_moves"]
    assert api["value"] == 1.0 and api["matches"] == [match.pk]
    assert match.pk in flag.matches
