"""Arenas from the pages and the API: the list and the form to announce one, the arena's page
(join, pause, the standings with the flame, the podium), the page going to the player's next
match, its pushes through the full ASGI app, the lobby's and home page's news, a profile's
arenas, and refusals in words."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from games import services
from games.arena import default_start
from games.models import Arena, ArenaPlayer, Match, MatchStatus
from tests.support.api import program, token_for
from tests.support.matches import resign, start
from tests.support.sockets import frame_with, socket


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return django_user_model.objects.get(pk=user.pk)


def page_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def started(moderator, players, **options) -> Arena:
    arena = services.arena_create(
        user=moderator, name="Evening arena", starts_at=timezone.now(), minutes=30, **options
    )
    for i, user in enumerate(players):
        services.connection_open(user=user, channel_name=f"on-{user.pk}-{i}", kind="page")
        services.arena_join(user=user, arena_id=arena.pk)
    services.arena_start(arena_id=arena.pk)
    arena.refresh_from_db()
    return arena


@pytest.mark.django_db
def test_a_moderator_announces_an_arena_from_the_page(moderator, alice):
    page = page_of(moderator).get("/arenas/").content.decode()
    assert 'data-action="new-arena"' in page
    soon = (timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    answer = page_of(moderator).post(
        "/arenas/create",
        {"name": "Sunday blitz", "starts_at": soon, "minutes": 30, "deck": 24, "target": 5,
         "move_seconds": 30, "rated": "on"},
        follow=True,
    )  # fmt: skip
    text = answer.content.decode()
    assert "Your arena is announced." in text and "Sunday blitz" in text
    assert (
        'data-action="join-arena"'
        in page_of(alice).get(answer.redirect_chain[-1][0]).content.decode()
    )
    lobby = page_of(alice).get("/play/").content.decode()
    assert "data-arenas-soon" in lobby and "Sunday blitz" in lobby
    home = Client().get("/").content.decode()
    assert "Sunday blitz" in home


@pytest.mark.django_db
def test_a_player_without_enough_rated_matches_is_told_why(alice):
    page = page_of(alice).get("/arenas/").content.decode()
    assert 'data-action="new-arena"' not in page
    answer = page_of(alice).post(
        "/arenas/create",
        {"name": "Mine", "starts_at": timezone.now().strftime("%Y-%m-%dT%H:%M"),
         "minutes": 30, "deck": 24, "target": 5, "move_seconds": 30},
    )  # fmt: skip
    assert answer.status_code == 403
    assert "Arenas are created by moderators, and by players with at least 20" in (
        answer.content.decode()
    )
    assert not Arena.objects.exists()


@pytest.mark.django_db
def test_join_pause_and_come_back_from_the_arena_page(moderator, alice):
    arena = services.arena_create(
        user=moderator, name="Later", starts_at=timezone.now() + timedelta(hours=2), minutes=60
    )
    client = page_of(alice)
    text = client.post(f"/arenas/{arena.pk}/join", {"notify": "on"}, follow=True).content.decode()
    assert 'data-action="pause-arena"' in text and 'data-player="alice"' in text
    assert ArenaPlayer.objects.get(user=alice).notify is True
    text = client.post(f"/arenas/{arena.pk}/pause", follow=True).content.decode()
    assert 'data-action="resume-arena"' in text
    assert "Starts in" in text
    answer = client.post("/arenas/99999/join", follow=True)
    assert "There is no such arena" in answer.content.decode()
    invited = services.arena_create(
        user=moderator, name="Friends", starts_at=timezone.now() + timedelta(hours=1),
        minutes=30, invited_only=True,
    )  # fmt: skip
    refused = client.post(f"/arenas/{invited.pk}/join")
    assert refused.status_code == 403
    assert "This arena is by invitation only" in refused.content.decode()
    assert not ArenaPlayer.objects.filter(arena=invited).exists()


@pytest.mark.django_db
def test_the_standings_show_the_flame_and_the_finished_arena_its_podium(moderator, alice, bob):
    arena = started(moderator, [alice, bob])
    for _round in range(2):
        arena.refresh_from_db()
        # Alone free, they meet again once they have waited (nobody else came free).
        ArenaPlayer.objects.update(free_since=timezone.now() - timedelta(seconds=11))
        services.arena_pair(arena_id=arena.pk, due=arena.pair_due)
        match = Match.objects.get(arena=arena, status=MatchStatus.ACTIVE)
        resign(bob, match)  # alice wins twice in a row
    text = page_of(bob).get(f"/arenas/{arena.pk}/").content.decode()
    alice_row = text[text.index('data-player="alice"') :].split("</tr>")[0]
    assert 'data-score="4"' in alice_row and "data-fire" in alice_row
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    services.arena_end(arena_id=arena.pk)
    text = page_of(bob).get(f"/arenas/{arena.pk}/").content.decode()
    podium = text[text.index("data-podium") :].split("</ol>")[0]
    assert podium.index("alice") < podium.index("bob")
    profile = page_of(bob).get("/users/alice/").content.decode()
    assert "data-profile-arenas" in profile and "Evening arena" in profile


@pytest.mark.django_db
def test_the_end_of_an_arena_match_goes_to_the_next_one(moderator, alice, bob):
    arena = started(moderator, [alice, bob])
    services.arena_pair(arena_id=arena.pk, due=arena.pair_due)
    first = Match.objects.get(arena=arena)
    resign(bob, first)
    board = page_of(alice).get(f"/matches/{first.pk}/").content.decode()
    assert "data-arena-next" in board and 'data-action="rematch"' not in board
    waiting = page_of(alice).get(f"/arenas/{arena.pk}/next?after={first.pk}").content.decode()
    assert "Waiting for your next opponent" in waiting and "data-goto" not in waiting
    arena.refresh_from_db()
    assert services.arena_pair(arena_id=arena.pk, due=arena.pair_due) == 0  # just met: a wait
    ArenaPlayer.objects.update(free_since=timezone.now() - timedelta(seconds=11))
    arena.refresh_from_db()
    services.arena_pair(arena_id=arena.pk, due=arena.pair_due)
    second = Match.objects.get(arena=arena, status=MatchStatus.ACTIVE)
    ready = page_of(alice).get(f"/arenas/{arena.pk}/next?after={first.pk}").content.decode()
    assert f'data-goto="/matches/{second.pk}/"' in ready


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_end_of_an_arena_match_hears_the_pairing_on_its_socket(moderator, alice, bob):
    """The box at the end of an arena match asks nothing every second: the page's socket
    (``?arena=&after=``) brings the wait as it opens, then the next match, or the arena's end."""
    arena = await database_sync_to_async(started)(moderator, [alice, bob])
    await database_sync_to_async(services.arena_pair)(arena_id=arena.pk, due=arena.pair_due)
    first = await database_sync_to_async(Match.objects.get)(arena=arena)
    await database_sync_to_async(resign)(bob, first)
    board = await database_sync_to_async(
        lambda: page_of(alice).get(f"/matches/{first.pk}/").content.decode()
    )()
    box = board.split('id="arena-live"')[1].split(">")[0]
    assert "hx-trigger" not in box and f'data-after="{first.pk}"' in box
    page = await socket(alice, f"/ws/me/?arena={arena.pk}&after={first.pk}")
    assert (await page.connect())[0]
    waiting = await frame_with(page, 'id="arena-live"')
    assert "Waiting for your next opponent" in waiting and "data-goto" not in waiting
    assert "data-standings" not in waiting  # the end of a match shows the wait, not the table
    await database_sync_to_async(services.arena_cancel)(
        moderator=moderator, arena_id=arena.pk, reason="test"
    )
    ended = await frame_with(page, 'id="arena-live"')
    assert "No more pairing for you in this arena." in ended
    await page.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_arena_page_hears_its_changes_at_once(moderator, alice, bob):
    arena = await database_sync_to_async(started)(moderator, [alice, bob])
    page = await socket(alice, f"/ws/me/?arena={arena.pk}")
    assert (await page.connect())[0]
    await page.receive_from(timeout=5)  # the banner
    await database_sync_to_async(services.arena_pair)(arena_id=arena.pk, due=arena.pair_due)
    frame = await frame_with(page, 'id="arena-live"')
    match = await database_sync_to_async(Match.objects.get)(arena=arena)
    assert f'data-goto="/matches/{match.pk}/"' in frame  # the page goes to the match
    await page.disconnect()


@pytest.mark.django_db
def test_the_api_lists_joins_and_pauses_arenas(moderator, alice, bob):
    arena = services.arena_create(
        user=moderator, name="Bots welcome", starts_at=timezone.now() + timedelta(hours=1),
        minutes=90, bots_allowed=True,
    )  # fmt: skip
    api = program(token_for(alice))
    listed = api.get("/api/v1/arenas").json()["arenas"]
    assert [(a["name"], a["joined"], a["minutes"]) for a in listed] == [("Bots welcome", False, 90)]
    joined = api.post(f"/api/v1/arenas/{arena.pk}/join").json()
    assert joined["joined"] and joined["standings"][0]["player"]["username"] == "alice"
    assert api.post(f"/api/v1/arenas/{arena.pk}/pause").json()["paused"] is True
    assert api.post("/api/v1/arenas/424242/join").status_code == 404
    services.arena_cancel(moderator=moderator, arena_id=arena.pk, reason="test")
    refused = program(token_for(bob)).post(f"/api/v1/arenas/{arena.pk}/join")
    assert refused.status_code == 409 and refused.json()["code"] == "arena_over"


@pytest.mark.django_db
def test_a_player_held_by_a_computer_match_is_told_why_with_a_link_to_it(moderator, alice, bob):
    arena = started(moderator, [alice, bob])
    computer = services.match_create_computer(user=alice, strength="easy")
    page = page_of(alice).get(f"/arenas/{arena.pk}/").content.decode()
    assert "your match against the computer is still in play" in page
    assert f'href="/matches/{computer.pk}/" data-held-match' in page
    assert "you are paired as soon as you are free" not in page
    # The pairing's own rule: she is not paired while it is in play (bob waits).
    assert services.arena_pair(arena_id=arena.pk, due=arena.pair_due) == 0
    # Bob, free, is told he waits for an opponent, with no match named.
    theirs = page_of(bob).get(f"/arenas/{arena.pk}/").content.decode()
    assert "data-held-match" not in theirs and "you are paired as soon as you are free" in theirs
    services.match_resign(user=alice, match_id=computer.pk)
    page = page_of(alice).get(f"/arenas/{arena.pk}/").content.decode()
    assert "data-held-match" not in page and "you are paired as soon as you are free" in page


@pytest.mark.django_db
def test_a_match_in_play_against_a_player_holds_one_back_too(moderator, alice, bob, carol):
    arena = started(moderator, [alice])
    held = start(bob, alice, move_seconds=60)
    page = page_of(alice).get(f"/arenas/{arena.pk}/").content.decode()
    assert "another match of yours is still in play" in page
    assert f'href="/matches/{held.pk}/" data-held-match' in page
    assert f"Match {held.pk}: bob v alice" in page
    # A correspondence match does not hold a player back (the pairing does not wait for it).
    services.match_resign(user=alice, match_id=held.pk)
    start(carol, alice, days_per_move=3)
    page = page_of(alice).get(f"/arenas/{arena.pk}/").content.decode()
    assert "data-held-match" not in page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_arena_page_hears_when_the_match_holding_its_player_ends(moderator, alice):
    arena = await database_sync_to_async(started)(moderator, [alice])
    computer = await database_sync_to_async(services.match_create_computer)(
        user=alice, strength="easy"
    )
    page = await socket(alice, f"/ws/me/?arena={arena.pk}")
    assert (await page.connect())[0]
    first = await frame_with(page, 'id="arena-live"')  # the arena's state as it opens
    assert "data-held-match" in first
    await database_sync_to_async(services.match_resign)(user=alice, match_id=computer.pk)
    frame = await frame_with(page, 'id="arena-live"')
    assert "data-held-match" not in frame and "as soon as you are free" in frame
    await page.disconnect()


@pytest.mark.django_db
def test_the_arena_page_does_not_poll_its_socket_pushes(moderator, alice):
    arena = started(moderator, [alice])
    page = page_of(alice).get(f"/arenas/{arena.pk}/").content.decode()
    assert "hx-trigger" not in page.split('id="arena-live"')[1].split(">")[0]
    assert f'data-arena-live="/arenas/{arena.pk}/"' in page


@pytest.mark.django_db
def test_the_form_suggests_the_next_quarter_hour_in_utc_said_so(moderator):
    page = page_of(moderator).get("/arenas/").content.decode()
    suggested = default_start(timezone.now().astimezone(UTC))
    assert f'value="{suggested:%Y-%m-%dT%H:%M}"' in page
    assert f'data-utc="{suggested.isoformat()}"' in page
    assert "The time is in UTC." in page and 'name="utc_offset"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("offset", [330, -300, 0, None])
def test_a_start_typed_in_the_viewers_time_zone_lands_at_its_utc_instant(moderator, offset):
    instant = (timezone.now() + timedelta(hours=3)).astimezone(UTC).replace(second=0, microsecond=0)
    typed = instant + timedelta(minutes=offset or 0)  # the wall time where the viewer is
    form = {"name": "Local", "starts_at": f"{typed:%Y-%m-%dT%H:%M}", "minutes": 30, "deck": 24,
            "target": 5, "move_seconds": 30, "rated": "on"}  # fmt: skip
    if offset is not None:
        form["utc_offset"] = str(offset)
    answer = page_of(moderator).post("/arenas/create", form)
    assert answer.status_code == 302
    assert Arena.objects.get(name="Local").starts_at == instant


@pytest.mark.django_db
def test_a_time_zone_that_is_none_is_refused_in_words(moderator):
    soon = (timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    for bad in ("abc", "900", "-841"):
        answer = page_of(moderator).post(
            "/arenas/create",
            {"name": "Nowhere", "starts_at": soon, "utc_offset": bad, "minutes": 30, "deck": 24,
             "target": 5, "move_seconds": 30},
        )  # fmt: skip
        assert answer.status_code == 400
        assert "The time zone sent with the start time is unknown." in answer.content.decode()
    assert not Arena.objects.filter(name="Nowhere").exists()
