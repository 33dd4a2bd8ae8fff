"""An arena in four browsers (one a phone), watched from a fifth: the four join from the
arena's page, are paired once it starts and taken to their matches, play and finish them,
are paired again (not with the same opponent) as they finish, and the standings change live
on the watcher's page; the arena ends with matches in play, which still count, and the
podium is right."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import expect

from games import services
from games.db import selectors
from games.models import Arena, Match, MatchStatus
from tests.support.browser import PREFERRED, shot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return django_user_model.objects.get(pk=user.pk)


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
            page.wait_for_selector(f"#board[data-version='{version + 1}']")
            return True
    return False


def finish(match: Match, pages: dict) -> Match:
    """Both players make a first move (from then on resigning counts), then seat 1's player
    resigns from their page: seat 0's wins."""
    while not (now := Match.objects.get(pk=match.pk)).both_acted:
        # Both pages at the match's version: one of them is the player's to act.
        for player in match.players:
            pages[player.pk].wait_for_selector(f"#board[data-version='{now.version}']")
        assert any(act(pages[p.pk]) for p in match.players), "neither player may act"
    loser = pages[match.player1_id]
    loser.once("dialog", lambda dialog: dialog.accept())  # "Resign this match? ..."
    loser.click("#board [data-action=resign]")
    for player in match.players:
        pages[player.pk].wait_for_selector("#board [data-result]")
    return Match.objects.get(pk=match.pk)


def paired(arena: Arena, pages: dict, before: set[int] = frozenset()) -> list[Match]:
    """The arena's matches in play, once every page has been taken to one that is not in
    ``before`` (the pairing's push): the pairing was written before it was pushed. How long
    a pairing takes is bench/arena.py's figure (the pairing delay, the seating)."""

    def new_match(url: str) -> bool:
        at = re.search(r"/matches/(\d+)/$", url)
        return at is not None and int(at.group(1)) not in before

    for page in pages.values():
        page.wait_for_url(new_match)
    matches = active(arena)
    assert len(matches) == 2, matches
    on_their_matches(pages, matches)
    return matches


def on_their_matches(pages: dict, matches: list[Match]) -> None:
    for match in matches:
        for player in match.players:
            pages[player.pk].wait_for_url(f"**/matches/{match.pk}/")
            pages[player.pk].wait_for_selector("#board .scorebox")


def active(arena: Arena) -> list[Match]:
    return list(
        Match.objects.filter(arena=arena, status=MatchStatus.ACTIVE).select_related(
            "player0", "player1"
        )
    )


def test_four_players_in_an_arena_paired_live_to_the_podium(
    live_server_url, new_page, django_user_model, moderator
):
    players = [django_user_model.objects.create_user(n, password="x") for n in
               ("ann", "ben", "cat", "dan")]  # fmt: skip
    arena = services.arena_create(
        user=moderator, name="Test arena", starts_at=timezone.now() + timedelta(hours=1),
        minutes=30, target=1, move_seconds=60,
    )  # fmt: skip
    watcher = new_page(logged_in=moderator)
    watcher.goto(f"{live_server_url}/arenas/{arena.pk}/")
    pages = {}
    polls: list[str] = []  # a finished match's page asking what became of the arena
    loads: list[str] = []  # the players' pages' loads
    for i, user in enumerate(players):
        page = (
            new_page(width=375, height=740, logged_in=user) if i == 1 else new_page(logged_in=user)
        )
        page.goto(f"{live_server_url}/arenas/{arena.pk}/")
        # The join is a form's post, answered by the arena's page again: waited for as a load
        # (once, under `make test`'s SQLite on a busy machine, the page had not come back in
        # the 5 s an expect waits).
        with page.expect_navigation():
            page.click("[data-action=join-arena]")
        expect(page.locator("[data-action=pause-arena]")).to_be_visible()
        page.on("request", lambda r: f"/arenas/{arena.pk}/next" in r.url and polls.append(r.url))
        page.on("request", lambda r: r.is_navigation_request() and loads.append(r.url))
        pages[user.pk] = page
    expect(watcher.locator("[data-standings] tr[data-player]")).to_have_count(4)
    shot(watcher, "arena-before-start")

    # Its start time comes (brought forward now that all four have joined: its task due):
    # the worker starts it and pairs them at once; every page is taken to its match.
    starts = timezone.now()
    Arena.objects.filter(pk=arena.pk).update(starts_at=starts)
    DBTaskResult.objects.filter(task_path__endswith=".arena_start").update(run_after=starts)
    first = paired(arena, pages)
    assert all(m.started_at >= starts for m in first)  # paired by the start, not before it
    # Told twice at once (the player's own push and the arena's live part), each page went to
    # its match once: a second load would have cut the first short.
    assert sorted(u for u in loads if "/matches/" in u) == sorted(
        f"{live_server_url}/matches/{m.pk}/" for m in first for _player in m.players
    )
    shot(pages[players[1].pk], "arena-match-phone")

    # The first match ends: the watcher's standings change live (no reload).
    done = finish(first[0], pages)
    winner_row = watcher.locator(f"tr[data-player='{done.winner.username}']")
    expect(winner_row).to_have_attribute("data-score", "2")
    finish(first[1], pages)
    # Both free: paired again, not with the same opponent; the pages go there, told by
    # their sockets (the first pair's pages waited on the second match: they asked every
    # second before; now only while their socket is closed).
    second = paired(arena, pages, before={m.pk for m in first})
    assert polls == [], polls
    before = {frozenset((m.player0_id, m.player1_id)) for m in first}
    assert all(frozenset((m.player0_id, m.player1_id)) not in before for m in second)
    # The winners meet (similar scores).
    winners = {m.winner_id for m in Match.objects.filter(pk__in=[m.pk for m in first])}
    assert any({m.player0_id, m.player1_id} == winners for m in second)

    # The end comes with both matches in play (the arena's end task made due now): they
    # finish and count; no match starts after.
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    DBTaskResult.objects.filter(task_path__endswith=".arena_end").update(run_after=timezone.now())
    # The watcher's page hears the arena end (its live part, pushed).
    expect(watcher.locator("#arena-live")).to_have_attribute("data-arena-status", "finished")
    for match in second:
        finish(match, pages)
    assert Match.objects.filter(arena=arena).count() == 4
    expect(watcher.locator("[data-podium]")).to_be_visible()
    standings = selectors.arena_standings(arena=Arena.objects.get(pk=arena.pk))
    podium = watcher.locator("[data-podium] li a")
    expect(podium).to_have_text([row.player.username for row in standings[:3]])
    # Two wins in a row: 2 + 2, and on fire (a third would score 4).
    assert (standings[0].score, standings[0].fire) == (4, True)
    shot(watcher, "arena-podium")


LIVE = 'id="arena-live"'


class ArenaPage:
    """An arena's page as its player has it open: the frames of its socket that bring the
    arena's live part, and the page's own requests for that part (its polls)."""

    def __init__(self, page, url: str) -> None:
        self.page, self.url = page, url
        self.pushes: list[str] = []
        self.polls: list[str] = []
        self.sockets: list = []
        page.on("websocket", self._opened)
        page.on("request", lambda r: r.url == url and self.polls.append(r.method))

    def _opened(self, socket) -> None:
        if "/ws/me/" in socket.url:
            self.sockets.append(socket)
            socket.on("framereceived", lambda f: LIVE in f and self.pushes.append(f))

    def push(self, count: int) -> None:
        """Wait for the ``count``-th push (sync Playwright hands events over only inside its
        own calls, so none comes between the count read here and the wait)."""
        if len(self.pushes) < count:
            socket = self.sockets[-1] if self.sockets else self.page.wait_for_event("websocket")
            socket.wait_for_event("framereceived", predicate=lambda f: LIVE in f)
        assert len(self.pushes) >= count


def test_a_player_held_by_a_computer_match_is_told_why_and_the_page_hears_its_socket_only(
    live_server_url, new_page, django_user_model, moderator
):
    """Ann joined a running arena with a match against the computer in play: her page says
    that match holds her back and links to it. Its live part comes over its socket: from the
    push as it opens to the one when Ben joins (or pauses), the page's clock ticking three
    times between them, the page never asks the server for it (it asked every second)."""
    ann, ben = (django_user_model.objects.create_user(n, password="x") for n in ("ann", "ben"))
    arena = services.arena_create(
        user=moderator, name="Held arena", starts_at=timezone.now(), minutes=30, target=1,
        move_seconds=60,
    )  # fmt: skip
    services.arena_join(user=ann, arena_id=arena.pk)
    services.arena_start(arena_id=arena.pk)
    computer = services.match_create_computer(user=ann, strength="easy")
    url = f"{live_server_url}/arenas/{arena.pk}/"
    ben_page = None
    for width, height in ((1280, 800), (375, 667)):
        page = new_page(width=width, height=height, logged_in=ann)
        watched = ArenaPage(page, url)
        page.goto(url)
        held = page.locator("[data-held-match]")
        expect(held).to_be_visible()
        expect(page.locator(".arena-held")).to_contain_text("against the computer")
        assert held.get_attribute("href") == f"/matches/{computer.pk}/"
        shot(page, f"arena-held-{width}")
        watched.push(1)  # the arena as the socket opens
        watched.polls.clear()  # the page's own load
        clock = page.locator("#arena-live [data-countdown-text]")
        for _tick in range(3):
            expect(clock).not_to_have_text(clock.inner_text())
        # Ben joins from his page (then pauses, the second time): the arena's change.
        ben_page = ben_page if width != 1280 else new_page(logged_in=ben)
        ben_page.goto(url)
        ben_page.click("[data-action=join-arena]" if width == 1280 else "[data-action=pause-arena]")
        ben_row = page.locator("[data-standings] tr[data-player=ben]")
        if width == 1280:
            expect(ben_row).to_be_visible()
        else:
            expect(ben_row).to_have_class(re.compile("muted"))
        watched.push(2)
        assert watched.polls == [], f"the page asked for its live part {len(watched.polls)} times"
        expect(held).to_be_visible()  # still held: the push says so too
    page.click("[data-held-match]")
    page.wait_for_url(f"**/matches/{computer.pk}/")


def test_the_start_is_shown_and_entered_in_the_viewers_time_zone(
    live_server_url, new_page, moderator
):
    """In Yangon (UTC+06:30) the form suggests the next quarter hour in Yangon's time, says
    so, and the arena announced as suggested starts at that instant."""
    client = Client()
    client.force_login(moderator)
    # Through new_page: its end waits for the page's socket to be gone before the next test's
    # flush (a socket recorded as the flush ran broke it once, in CI).
    page = new_page(375, 667, timezone_id="Asia/Yangon")
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    page.context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"}])
    page.goto(f"{live_server_url}/arenas/")
    page.click("[data-action=new-arena]")
    start = page.locator("input[name=starts_at]")
    suggested = datetime.fromisoformat(start.get_attribute("data-utc"))
    yangon = suggested + timedelta(hours=6, minutes=30)
    expect(start).to_have_value(f"{yangon:%Y-%m-%dT%H:%M}")
    # (Chromium names the zone by its older name.)
    expect(page.locator("#id_starts_at_helptext")).to_have_text(
        re.compile(r"The time is in your time zone, Asia/(Yangon|Rangoon)\.")
    )
    shot(page, "arena-form-yangon")
    page.fill("input[name=name]", "Yangon evening")
    page.click("[data-action=create-arena]")
    page.wait_for_url("**/arenas/*/")
    assert Arena.objects.get(name="Yangon evening").starts_at == suggested
    # The arena's page gives its start in Yangon's time.
    expect(page.locator("time[data-local-time]").first).to_contain_text(f"{yangon:%-I:%M}")
