"""The training pages: the dashboard (weak spots linking to the player's own puzzles first,
results by theme over a period), the streak (answers checked by the server, a reload or an old
page skipping nothing), a private puzzle missing for everyone else, the best on the profile."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.state import Phase
from games.models import Puzzle, PuzzleAttempt, PuzzleStreak
from tests.support.matches import play_to_the_end, start
from tests.support.training import decision, first

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _analysed(alice, bob):
    """A match with alice's flagged decisions built by hand: a private puzzle (0.35 lost), a
    public one (0.80) and a discard (1.20, no puzzle kept: its table is cleared)."""
    match = play_to_the_end(start(alice, bob, target=10, rated=False), seed=3)
    me = match.seat_of(alice)
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    built = [
        decision(*first(match, me, Phase.ROUND_ONE, 0, dealer=False), lost=0.35),
        decision(*first(match, me, Phase.ROUND_ONE, 1, dealer=False), lost=0.80),
        decision(*first(match, me, Phase.DISCARD), lost=1.20),
    ]
    Puzzle.objects.filter(match=match).delete()
    services.puzzles_mine(match=match, moves=moves, decisions=built)
    Puzzle.objects.filter(match=match, theme="discard").delete()
    services.flagged_record(match=match, moves=moves, decisions=built)
    return match


def _wrong(puzzle: Puzzle) -> str:
    return next(a for a, _v in puzzle.options if a != puzzle.answer)


def test_the_dashboard_ranks_weak_spots_and_links_to_own_puzzles_first(alice, bob, carol):
    match = _analysed(alice, bob)
    client = _client(alice)
    page = client.get("/puzzles/dashboard/").content.decode()
    discard, ordering = (
        page.index('data-weak-spot="discard"'),
        page.index('data-weak-spot="ordering_up"'),
    )
    assert discard < ordering  # 1.20 lost before 1.15
    assert "1.15" in page and "1.20" in page
    link = "/puzzles/?theme=ordering_up&amp;mine=1"
    assert link in page
    found = client.get("/puzzles/?theme=ordering_up&mine=1")
    puzzle = Puzzle.objects.get(pk=int(found["Location"].split("/")[2]))
    assert puzzle.match_id == match.pk and found["Location"].endswith("?theme=ordering_up&mine=1")
    shown = client.get(found["Location"]).content.decode()
    assert "data-puzzle-own" in shown
    # The private puzzle is missing for everyone else, bob included.
    private = Puzzle.objects.get(match=match, private=True)
    for other in (bob, carol):
        assert _client(other).get(f"/puzzles/{private.pk}/").status_code == 404
    assert _client(alice).get(f"/puzzles/{private.pk}/").status_code == 200
    # The menu and the puzzles page link here; a visitor is asked to log in.
    assert 'href="/puzzles/dashboard/"' in client.get("/puzzles/", follow=True).content.decode()
    assert Client().get("/puzzles/dashboard/").status_code == 302


def test_results_by_theme_over_a_period(alice, bob, carol):
    _analysed(alice, bob)
    client = _client(carol)
    public = Puzzle.objects.get(private=False)
    client.post(f"/puzzles/{public.pk}/", {"action": public.answer})
    page = client.get("/puzzles/dashboard/?days=30").content.decode()
    assert 'data-theme-result="ordering_up"' in page and "100%" in page
    PuzzleAttempt.objects.filter(user=carol).update(
        created_at=timezone.now() - datetime.timedelta(days=40)
    )
    assert "data-no-results" in client.get("/puzzles/dashboard/?days=30").content.decode()
    assert "100%" in client.get("/puzzles/dashboard/?days=90").content.decode()
    refused = client.get("/puzzles/dashboard/?days=7")
    assert refused.status_code == 404
    assert "There is no such period" in refused.content.decode()


def test_a_streak_on_the_page_ends_at_the_first_miss_and_skips_nothing(alice, bob, carol):
    _analysed(alice, bob)
    client = _client(alice)  # alice's streak has her private puzzle and the public one
    assert 'data-action="start-streak"' in client.get("/puzzles/streak/").content.decode()
    assert client.post("/puzzles/streak/", {"start": "1"}).status_code == 302
    page = client.get("/puzzles/streak/").content.decode()
    streak = PuzzleStreak.objects.get(user=alice)
    on_table = streak.puzzle
    assert f'data-version="{on_table.pk}"' in page and 'data-streak-count="0"' in page
    assert (
        client.get("/puzzles/streak/").content.decode().count(f'data-version="{on_table.pk}"') == 1
    )
    answered = client.post("/puzzles/streak/", {"version": on_table.pk, "action": on_table.answer})
    assert answered.status_code == 302
    page = client.get("/puzzles/streak/").content.decode()
    assert 'data-streak-count="1"' in page
    # The page from before, posted again: refused in words, nothing changed.
    again = client.post("/puzzles/streak/", {"version": on_table.pk, "action": on_table.answer})
    assert again.status_code == 409
    assert "no longer on your streak" in again.content.decode()
    streak.refresh_from_db()
    second = streak.puzzle
    assert second.rating >= on_table.rating and streak.current == 1
    bad = client.post("/puzzles/streak/", {"version": "x", "action": "pass"})
    assert bad.status_code == 404
    client.post("/puzzles/streak/", {"version": second.pk, "action": _wrong(second)})
    page = client.get("/puzzles/streak/").content.decode()
    assert "data-streak-ended" in page and 'data-streak-best="1"' in page
    assert "does not change your puzzle rating" in page
    profile = _client(carol).get("/users/alice/").content.decode()
    assert "Best puzzle streak: 1" in profile
