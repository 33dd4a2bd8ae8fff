"""Following and blocking from the pages: the profile's buttons, the list of the players one
follows (and its challenge), its pushes through the full ASGI app, and refusals in words."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Block, Challenge, Follow
from tests.support.sockets import frame_with, nothing_before_answer, socket


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.mark.django_db
def test_follow_from_the_profile_then_see_the_player_in_the_list(alice_client, bob):
    page = alice_client.get("/users/bob/").content.decode()
    assert 'data-action="follow"' in page and 'data-action="block"' in page
    answer = alice_client.post("/users/bob/follow", follow=True)
    text = answer.content.decode()
    assert "You follow bob." in text and 'data-action="unfollow"' in text
    listed = alice_client.get("/following/").content.decode()
    assert 'data-followed="bob"' in listed and 'data-online="no"' in listed and "Offline" in listed
    assert "24 cards · to 10 · 120 s a move · rated" in " ".join(listed.split())


@pytest.mark.django_db
def test_a_challenge_from_the_list_sends_the_new_match_forms_options(alice_client, alice, bob):
    services.follow_create(user=alice, followed=bob)
    listed = alice_client.get("/following/").content.decode()
    form = listed[listed.index('action="/users/bob/challenge"') :]
    form = form[: form.index("</form>")]
    fields = dict(
        (part.split('name="')[1].split('"')[0], part.split('value="')[1].split('"')[0])
        for part in form.split("<input")[1:]
    )
    answer = alice_client.post("/users/bob/challenge", fields, follow=True)
    assert answer.redirect_chain[-1][0] == "/following/"
    assert "Challenge sent to bob" in answer.content.decode()
    challenge = Challenge.objects.get(challenger=alice, challenged=bob)
    assert (challenge.deck, challenge.target, challenge.move_seconds, challenge.rated) == (
        24, 10, 120, True,
    )  # fmt: skip


@pytest.mark.django_db
def test_asking_to_be_told_of_a_followed_players_matches_and_stopping(alice_client, alice, bob):
    services.follow_create(user=alice, followed=bob)
    assert "Tell me when they open a match" in alice_client.get("/following/").content.decode()
    alice_client.post("/users/bob/follow", {"notify": "on", "next": "/following/"})
    assert Follow.objects.get(follower=alice).notify is True
    page = alice_client.get("/following/").content.decode()
    assert "Stop telling me when they open a match" in page
    alice_client.post("/users/bob/follow", {"notify": "off", "next": "/following/"})
    assert Follow.objects.get(follower=alice).notify is False


@pytest.mark.django_db
def test_a_blocked_player_is_refused_in_words_and_changes_nothing(client, alice, bob):
    services.block_create(user=alice, blocked_player=bob)
    client.force_login(bob)
    answer = client.post("/users/alice/follow")
    assert answer.status_code == 403
    assert "alice does not take follows from you" in answer.content.decode()
    answer = client.post("/users/alice/challenge", {"challenge-deck": 24, "challenge-target": 10})
    assert answer.status_code == 403
    assert "alice does not take challenges from you" in answer.content.decode()
    assert not Follow.objects.exists() and not Challenge.objects.exists()
    assert client.post("/users/nobody-here/follow").status_code == 404


@pytest.mark.django_db
def test_block_and_unblock_from_the_profile(alice_client, alice, bob):
    answer = alice_client.post("/users/bob/block", follow=True)
    text = answer.content.decode()
    assert "You blocked bob" in text and 'data-action="unblock"' in text
    assert 'data-action="challenge"' not in text and 'data-action="follow"' not in text
    assert "data-blocked" in alice_client.get("/following/").content.decode()
    alice_client.post("/users/bob/unblock", {"next": "/following/"})
    assert not Block.objects.exists()


@pytest.mark.django_db
def test_nobody_follows_themselves_from_the_page(alice_client):
    page = alice_client.get("/users/alice/").content.decode()
    assert 'data-action="follow"' not in page
    answer = alice_client.post("/users/alice/follow")
    assert answer.status_code == 403 and "You cannot follow yourself" in answer.content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_list_shows_a_followed_player_online_the_moment_they_open_a_page(alice, bob):
    await database_sync_to_async(services.follow_create)(user=alice, followed=bob)
    listening = await socket(alice, "/ws/me/?following=1")
    other_page = await socket(alice, "/ws/me/")  # a page without the list hears nothing of it
    for ws in (listening, other_page):
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the challenges banner
    arriving = await socket(bob, "/ws/me/")
    assert (await arriving.connect())[0]
    frame = await frame_with(listening, 'id="following"')
    assert 'data-followed="bob" data-online="yes"' in frame and "Online now" in frame
    assert "data-csrf" in frame  # its forms get the page's token (challenges.js)
    await nothing_before_answer(other_page)
    for ws in (listening, other_page, arriving):
        await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_followed_players_open_match_reaches_the_banner_and_leaves_it(alice, bob, carol):
    await database_sync_to_async(services.follow_create)(user=alice, followed=bob, notify=True)
    page = await socket(alice, "/ws/me/")
    assert (await page.connect())[0]
    await page.receive_from(timeout=5)
    opened = await database_sync_to_async(services.match_create)(user=bob)
    frame = await frame_with(page, f'data-seek="{opened.pk}"')
    assert "bob, whom you follow, opened a match" in frame and 'data-action="join-seek"' in frame
    await database_sync_to_async(services.match_join)(user=carol, match_id=opened.pk)
    while "data-seek=" in (frame := await frame_with(page, 'id="challenges"')):
        pass
    await page.disconnect()
