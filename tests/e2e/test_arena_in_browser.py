"""An arena in four browsers (one a phone), watched from a fifth: the four join from the
arena's page, are paired within 5 s of its start and taken to their matches within 5 s more,
play and finish them, are paired again (not with the same opponent) as they finish, and the
standings change live on the watcher's page; the arena ends with matches in play, which
still count, and the podium is right."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import expect

from games import services
from games.db import selectors
from games.models import Arena, Match, MatchStatus
from tests.e2e.conftest import shot
from tests.e2e.test_play_in_browser import PREFERRED

pytestmark = pytest.mark.django_db(transaction=True)


def act(page) -> bool:
    """One move by this page's player if it is their turn (True if one was made)."""
    board = page.locator("#board")
    if not board.count() or board.get_attribute("data-your-turn") is None:
        return False
    version = int(board.get_attribute("data-version"))
    for kind in PREFERRED:
        buttons = page.locator(f"#board button[data-action={kind}]")
        if buttons.count():
            buttons.first.click()
            page.wait_for_selector(f"#board[data-version='{version + 1}']", timeout=10_000)
            return True
    return False


def finish(match: Match, pages: dict) -> Match:
    """Both players make a first move (from then on resigning counts), then seat 1's player
    resigns from their page: seat 0's wins."""
    deadline = time.monotonic() + 60
    while not Match.objects.get(pk=match.pk).both_acted:
        assert time.monotonic() < deadline, "no first moves in a minute"
        if not any(act(pages[p.pk]) for p in match.players):
            time.sleep(0.1)
    loser = pages[match.player1_id]
    loser.once("dialog", lambda dialog: dialog.accept())  # "Resign this match? ..."
    loser.click("#board [data-action=resign]")
    for player in match.players:
        pages[player.pk].wait_for_selector("#board [data-result]", timeout=10_000)
    return Match.objects.get(pk=match.pk)


def on_their_matches(pages: dict, matches: list[Match], seconds: float) -> None:
    for match in matches:
        for player in match.players:
            pages[player.pk].wait_for_url(f"**/matches/{match.pk}/", timeout=seconds * 1000)
            pages[player.pk].wait_for_selector("#board .scorebox")


def active(arena: Arena) -> list[Match]:
    return list(
        Match.objects.filter(arena=arena, status=MatchStatus.ACTIVE).select_related(
            "player0", "player1"
        )
    )


def test_four_players_in_an_arena_paired_live_to_the_podium(
    live_server_url, new_page, django_user_model, moderators_group
):
    moderator = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    moderator = django_user_model.objects.get(pk=moderator.pk)
    players = [django_user_model.objects.create_user(n, password="x") for n in
               ("ann", "ben", "cat", "dan")]  # fmt: skip
    arena = services.arena_create(
        user=moderator, name="Test arena", starts_at=timezone.now() + timedelta(hours=1),
        minutes=30, target=1, move_seconds=60,
    )  # fmt: skip
    watcher = new_page(logged_in=moderator)
    watcher.goto(f"{live_server_url}/arenas/{arena.pk}/")
    pages = {}
    for i, user in enumerate(players):
        page = (
            new_page(width=375, height=740, logged_in=user) if i == 1 else new_page(logged_in=user)
        )
        page.goto(f"{live_server_url}/arenas/{arena.pk}/")
        page.click("[data-action=join-arena]")
        expect(page.locator("[data-action=pause-arena]")).to_be_visible()
        pages[user.pk] = page
    expect(watcher.locator("[data-standings] tr[data-player]")).to_have_count(4, timeout=5_000)
    shot(watcher, "arena-before-start")

    # Its start time comes (brought forward now that all four have joined: its task due):
    # the worker starts it and pairs them at once; every page is taken to its match.
    starts = timezone.now()
    Arena.objects.filter(pk=arena.pk).update(starts_at=starts)
    DBTaskResult.objects.filter(task_path__endswith=".arena_start").update(run_after=starts)
    deadline = time.monotonic() + 20
    while len(first := active(arena)) < 2:
        assert time.monotonic() < deadline, "the arena did not pair its players"
        time.sleep(0.1)
    paired = max(m.started_at for m in first)
    assert (paired - starts).total_seconds() < 5, f"paired {paired - starts} after the start"
    on_their_matches(pages, first, seconds=10)
    late = (timezone.now() - paired).total_seconds()
    assert late < 5, f"the four were at their matches {late:.1f} s after the pairing"
    shot(pages[players[1].pk], "arena-match-phone")

    # The first match ends: the watcher's standings change live (no reload).
    done = finish(first[0], pages)
    winner_row = watcher.locator(f"tr[data-player='{done.winner.username}']")
    expect(winner_row).to_have_attribute("data-score", "2", timeout=5_000)
    finish(first[1], pages)
    # Both free: paired again at once, not with the same opponent; the pages go there.
    deadline = time.monotonic() + 15
    while len(second := active(arena)) < 2:
        assert time.monotonic() < deadline, "the finished players were not paired again"
        time.sleep(0.1)
    before = {frozenset((m.player0_id, m.player1_id)) for m in first}
    assert all(frozenset((m.player0_id, m.player1_id)) not in before for m in second)
    on_their_matches(pages, second, seconds=10)
    # The winners meet (similar scores).
    winners = {m.winner_id for m in Match.objects.filter(pk__in=[m.pk for m in first])}
    assert any({m.player0_id, m.player1_id} == winners for m in second)

    # The end comes with both matches in play (the arena's end task made due now): they
    # finish and count; no match starts after.
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    DBTaskResult.objects.filter(task_path__endswith=".arena_end").update(run_after=timezone.now())
    deadline = time.monotonic() + 15
    while Arena.objects.get(pk=arena.pk).status != Arena.Status.FINISHED:
        assert time.monotonic() < deadline, "the worker did not end the arena"
        time.sleep(0.1)
    for match in second:
        finish(match, pages)
    assert Match.objects.filter(arena=arena).count() == 4
    expect(watcher.locator("[data-podium]")).to_be_visible(timeout=5_000)
    standings = selectors.arena_standings(arena=Arena.objects.get(pk=arena.pk))
    podium = watcher.locator("[data-podium] li a")
    expect(podium).to_have_text([row.player.username for row in standings[:3]])
    # Two wins in a row: 2 + 2, and on fire (a third would score 4).
    assert (standings[0].score, standings[0].fire) == (4, True)
    shot(watcher, "arena-podium")
