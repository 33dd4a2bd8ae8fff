"""The analysis of a finished match: queued when it ends, stored once by the worker, shown on
the replay and linked from the end screen; never reachable before the match is over."""

from __future__ import annotations

import copy
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import get_resolver

from games import services
from games.bots import analysis
from games.bots.analysis import Decision, Option, flag_of
from games.engine import Rules, apply, legal_actions, new_match
from games.models import Match, MatchAnalysis, MatchStatus
from games.presentation import review
from games.presentation.review import points
from tests.support.analyses import a_pass_at_nine_all
from tests.support.matches import play_to_the_end, start
from tests.support.sockets import board, socket
from tests.support.tasks import queued, run_due_tasks

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
        ranks = ["inaccuracy", "mistake", "blunder"]  # the worst flag, the most chance lost
        worst = max(flagged, key=lambda d: (ranks.index(d["flag"]), d["chance_loss"], d["loss"]))
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


def _shown_flag(html: str) -> str | None:
    """The flag of the decision the page shows (its data-flag), None if it shows none."""
    move = re.search(r"<p data-analysis-move([^>]*)>", html)
    assert move, "the page shows the decision made at this step"
    flag = re.search(r'data-flag="(\w+)"', move.group(1))
    return flag.group(1) if flag else None


def _recomputed(d: dict) -> tuple[str | None, str]:
    """The flag and loss words a decision earns, from its stored values alone: the loss in
    points to the hundredth, or near the end the two chances to the whole hundredth."""
    chosen = next(o for o in d["options"] if o["action"] == d["chosen"])
    if d["graded"] == "chances":
        best = max(round(100 * o["known_chance"]) for o in d["options"])
        mine = round(100 * chosen["known_chance"])
        flagged = flag_of((best - mine) / 100, "chances")
        return flagged and flagged[0], f"chance to win {mine}% instead of {best}%"
    loss = round(max(o["known"] for o in d["options"]) - chosen["known"], 2)
    flagged = flag_of(loss)
    return flagged and flagged[0], f"{loss:.2f} points lost"


def _analysed(seed: int, rules: Rules) -> tuple[dict, int]:
    """A match of random moves, analysed as the worker does it (with the tests' samples)."""
    rng = random.Random(seed)
    state = new_match(seed, rules)
    moves = []
    while not state.is_over:
        act = rng.choice(legal_actions(state))
        moves.append((act.seat, str(act)))
        state = apply(state, act)
    decisions = analysis.analyse(seed, rules, moves, settings.ANALYSIS_SAMPLES)
    return analysis.as_json(decisions, analysis.hand_starts(seed, rules, moves)), len(moves)


@pytest.mark.django_db(transaction=True)
def test_every_flag_on_the_page_is_the_one_its_stored_values_earn_over_20_matches(alice, bob):
    """The replay's analysis panel at every decision of 20 matches (the panel as the page
    renders it; the whole page itself for two of them)."""
    client = client_for(alice)
    by = {"points": 0, "chances": 0}
    flags = 0
    for seed in range(20):
        target = 3 if seed % 2 else 5
        if seed % 10 == 0:  # a match played on the site and analysed by the worker
            match = play_to_the_end(start(alice, bob, target=target, rated=False), seed=seed)
            run_due_tasks()
            stored = MatchAnalysis.objects.get(match=match).result
        else:  # the same analysis, made here
            stored, steps = _analysed(seed, Rules(target=target))
        for d in stored["decisions"]:
            if seed % 10 == 0:
                html = client.get(f"/matches/{match.pk}/replay?step={d['index']}&analysis=1")
                html = html.content.decode()
            else:
                a = review.analysis_context(stored, d["index"], ["alice", "bob"], steps, 0)
                html = render_to_string("partials/analysis.html", {"a": a})
            flag, words = _recomputed(d)
            if d["graded"] == "chances":  # the score the hand began with, as the page says
                began = next(h for h in stored["hands"] if h["hand"] == d["hand"])
                mine, theirs = began["scores"][d["seat"]], began["scores"][d["seat"] ^ 1]
                assert f"At {mine}–{theirs} this hand can end the match" in html
            assert _shown_flag(html) == flag == d["flag"], (seed, d["index"])
            if flag:
                move = html[html.index("<p data-analysis-move") :]
                assert words in move[: move.index("</p>")], (seed, d["index"], words)
                flags += 1
            by[d["graded"]] += 1
    # Random play to 3 and 5: many flags, graded both ways.
    assert flags >= 100 and min(by.values()) >= 100, (flags, by)


@pytest.mark.django_db(transaction=True)
def test_a_flagged_decision_shows_its_reason_its_best_lines_and_the_chances_graph(alice, bob):
    match = play_to_the_end(start(alice, bob, target=5, rated=False), seed=4)
    run_due_tasks()
    stored = MatchAnalysis.objects.get(match=match).result
    d = next(d for d in stored["decisions"] if d["flag"] and d["graded"] == "points")
    html = client_for(alice).get(f"/matches/{match.pk}/replay?step={d['index']}&analysis=1")
    html = html.content.decode()
    reason = re.search(r"<p class=\"reason\" data-analysis-reason>(.*?)</p>", html).group(1)
    assert reason.startswith("<strong>Better: ") and reason.count(".") >= 2
    lines = re.findall(r"<figure class=\"line\" data-line>(.*?)</figure>", html, re.S)
    assert len(lines) == 2  # after the best option, after the chosen one
    for line, stored_line in zip(lines, d["lines"], strict=True):
        assert line.count("<li>") == len(stored_line["moves"])
        tricks = stored_line["tricks"]
        assert f"takes {tricks} trick{'' if tricks == 1 else 's'} (" in line
    # The graph of the viewer's chances, and the same hand by hand in words.
    assert "data-chance-graph" in html and "Chance to win for alice through the match" in html
    rows = re.search(r"<table class=\"table-list\" data-chances>.*?</table>", html, re.S).group(0)
    assert rows.count("<tr>") == len(stored["hands"]) + 1  # the header, then each hand
    assert '<th scope="row">End</th><td>' in rows


def test_a_choice_the_score_makes_wrong_is_explained_in_words():
    stored = a_pass_at_nine_all()
    a = review.analysis_context(stored, 0, ["alice", "bob"], 10, 0)
    html = render_to_string("partials/analysis.html", {"a": a})
    assert "At 9–9 this hand can end the match: this choice is graded by its chance" in html
    assert (
        "<strong>Better: Order it up.</strong> Pass is worth more points on average, but at "
        "this score Order it up gives the better chance to win the match." in html
    )
    assert "inaccuracy: chance to win 72% instead of 75%" in html
