"""The analysis of a finished match: queued when it ends, stored once by the worker, shown on
the replay and linked from the end screen; never reachable before the match is over."""

from __future__ import annotations

import copy
import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import get_resolver

from games import services
from games.bots.analysis import Decision, Option, flag_of
from games.models import Match, MatchAnalysis, MatchStatus
from games.presentation.review import points
from tests.matches import play_to_the_end, start
from tests.tasks import queued, run_due_tasks
from tests.web.test_consumers import board, socket

# What only an analysis shows: its option table, key moments, figures, and the end screen's link.
MARKERS = ("data-analysis-options", "data-key-moments", "data-accuracy", "data-analysis-ready")


def finished(alice, bob, seed: int = 3) -> Match:
    return play_to_the_end(start(alice, bob, target=3, rated=False), seed=seed)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_queues_its_analysis_and_the_worker_stores_it_once(alice, bob):
    match = finished(alice, bob)
    assert match.status == MatchStatus.FINISHED
    assert queued("match_analyse") == [(match.pk,)]
    run_due_tasks()
    stored = MatchAnalysis.objects.get(match=match)
    decisions = stored.result["decisions"]
    assert decisions and {d["seat"] for d in decisions} == {0, 1}
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    for d in decisions:
        assert (d["seat"], d["chosen"]) == moves[d["index"]]
    assert services.match_analyse(match_id=match.pk) is False  # stored once
    assert MatchAnalysis.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_replay_shows_the_analysis_beside_each_step_with_key_moments(alice, bob, carol):
    match = finished(alice, bob)
    replay = f"/matches/{match.pk}/replay"
    page = client_for(alice).get(replay + "?analysis=1").content.decode()
    assert "data-analysis-pending" in page  # the worker has not run yet
    run_due_tasks()
    stored = MatchAnalysis.objects.get(match=match).result
    first = stored["decisions"][0]
    for viewer in (alice, carol):  # a player, and a spectator
        # The decision at its own position: the step before its move.
        page = client_for(viewer).get(f"{replay}?step={first['index']}&analysis=1")
        html = page.content.decode()
        assert page.status_code == 200
        assert "data-analysis-options" in html and "data-accuracy" in html
        assert "grade a choice by what the player knew then" in html  # what flags rest on
        assert html.count("<tr data-chosen>") == 1
        assert 'data-analysis-toggle href="?step=' in html
    plain = client_for(alice).get(replay).content.decode()
    assert "data-analysis-options" not in plain and "data-analysis-toggle" in plain
    flagged = [d for d in stored["decisions"] if d["flag"]]
    if flagged:
        worst = max(flagged, key=lambda d: d["loss"])
        assert f"?step={worst['index']}&amp;analysis=1" in html


@pytest.mark.django_db(transaction=True)
def test_the_end_screen_links_to_the_analysis_once_it_is_ready(alice, bob):
    match = finished(alice, bob)
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "data-analysis-pending" in page and "data-analysis-ready" not in page
    run_due_tasks()
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/replay?analysis=1" data-analysis-ready' in page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_analysis_ready_is_pushed_to_the_match_page(alice, bob):
    match = await database_sync_to_async(finished)(alice, bob)
    communicator = await socket(alice, f"/ws/matches/{match.pk}/")
    connected, _ = await communicator.connect()
    assert connected
    assert "data-analysis-ready" not in await board(communicator)
    await database_sync_to_async(run_due_tasks)()
    while "data-analysis-ready" not in (frame := await board(communicator)):
        pass
    assert "Analysis ready" in frame
    await communicator.disconnect()


def match_urls(match_id: int) -> list[str]:
    """Every URL of the site that takes a match id, with this match's."""

    def walk(patterns, prefix: str):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if hasattr(pattern, "url_patterns"):
                yield from walk(pattern.url_patterns, route)
            elif "<match:match_id>" in route:
                yield "/" + route.replace("<match:match_id>", str(match_id))

    return list(walk(get_resolver().url_patterns, ""))


@pytest.mark.django_db(transaction=True)
def test_no_analysis_of_a_match_in_play_is_reachable_from_any_url_or_the_socket(alice, bob, carol):
    match = start(alice, bob, target=3, rated=False)
    assert services.match_analyse(match_id=match.pk) is False  # the worker refuses it
    # Even a stored analysis (as if written by mistake) stays hidden while the match runs.
    MatchAnalysis.objects.create(match=match, samples=1, result={"decisions": [], "accuracy": []})
    urls = match_urls(match.pk)
    assert len(urls) >= 5
    for viewer in (alice, bob, carol):
        client = client_for(viewer)
        for url in urls:
            for query in ("", "?analysis=1", "?step=1&analysis=1"):
                html = client.get(url + query).content.decode()
                assert not any(m in html for m in (*MARKERS, "data-analysis-pending")), url
        # A move refused or made answers with the board: no analysis in it either.
        html = client.post(f"/matches/{match.pk}/act?analysis=1", {"action": "x"}).content
        assert not any(m.encode() in html for m in MARKERS)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_never_pushes_an_analysis_before_the_end(alice, bob):
    match = await database_sync_to_async(start)(alice, bob, target=3, rated=False)
    await database_sync_to_async(MatchAnalysis.objects.create)(
        match=match, samples=1, result={"decisions": [], "accuracy": []}
    )
    communicator = await socket(alice, f"/ws/matches/{match.pk}/")
    connected, _ = await communicator.connect()
    assert connected
    frame = await board(communicator)
    assert not any(m in frame for m in MARKERS) and "data-analysis-pending" not in frame
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_voided_match_shows_no_analysis(alice, bob, admin_user):
    match = finished(alice, bob)
    run_due_tasks()
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.VOIDED)
    for url in match_urls(match.pk):
        html = client_for(alice).get(url + "?analysis=1").content.decode()
        assert not any(m in html for m in MARKERS), url


@pytest.mark.django_db(transaction=True)
def test_matches_finished_before_the_analysis_existed_can_be_queued(alice, bob):
    from django.core.management import call_command
    from django_tasks_db.models import DBTaskResult

    match = finished(alice, bob)
    DBTaskResult.objects.all().delete()  # as if it had ended before the analysis existed
    call_command("analyse_matches", verbosity=0)
    assert queued("match_analyse") == [(match.pk,)]
    run_due_tasks()
    assert Match.objects.get(pk=match.pk).analysed_at is not None
    call_command("analyse_matches", verbosity=0)
    assert queued("match_analyse") == []


@pytest.mark.django_db(transaction=True)
def test_an_analysis_an_older_version_made_is_made_again(alice, bob):
    from django.core.management import call_command

    from games.bots import analysis

    match = finished(alice, bob)
    run_due_tasks()
    row = MatchAnalysis.objects.get(match=match)
    assert row.result["version"] == analysis.VERSION
    call_command("analyse_matches", verbosity=0)
    assert queued("match_analyse") == []  # up to date: nothing to do
    old = copy.deepcopy(row.result)
    del old["version"]  # as stored before versions
    old["decisions"][0]["flag"] = "stale"
    MatchAnalysis.objects.filter(pk=row.pk).update(result=old)
    call_command("analyse_matches", verbosity=0)
    assert queued("match_analyse") == [(match.pk,)]
    run_due_tasks()
    again = MatchAnalysis.objects.get(match=match)
    assert again.pk == row.pk and again.result == row.result  # made afresh, the same again
    assert services.match_analyse(match_id=match.pk) is False


def test_a_loss_is_graded_as_the_page_shows_it():
    rng = random.Random(38)
    for _ in range(2000):
        best, chosen = rng.uniform(-2, 2), rng.uniform(-2, 2)
        options = (Option("order_up", max(best, chosen), 0), Option("pass", min(best, chosen), 0))
        decision = Decision(0, 0, 0, "pass", options)
        shown = float(points(decision.loss).lstrip("+").replace("−", "-"))
        flagged = flag_of(shown)
        assert decision.flag == (flagged[0] if flagged else None), (decision.loss, shown)
    near = Decision(0, 0, 0, "pass", (Option("order_up", 1.0, 0), Option("pass", 0.403, 0)))
    assert points(near.loss) == "+0.60" and near.flag == "mistake"
