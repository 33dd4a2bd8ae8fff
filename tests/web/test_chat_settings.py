"""The chat's choices on the settings page (its "Chat" section, which the match page's chat
links to): free chat, off by default and never on for a guest, and a sound when a message
arrives; both read back by the match page. And the match page's chat as it opens: its lines
in the move log among the moves, the sender's own marked."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import Guest, PlayerSettings
from tests.support.matches import move, start

pytestmark = pytest.mark.django_db


def chat_section(page: str) -> str:
    return re.search(r'<section class="panel" id="chat".*?</section>', page, re.S).group(0)


def test_free_chat_and_its_sound_are_off_until_the_player_turns_them_on(alice, alice_page):
    section = chat_section(alice_page.get("/settings/").content.decode())
    assert "Free chat" in section and "A sound when a message arrives" in section
    assert "checked" not in section
    answer = alice_page.post("/settings/chat", {"free_chat": "on", "chat_sound": "on"})
    assert answer.status_code == 302 and answer["Location"] == "/settings/"
    row = PlayerSettings.objects.get(user=alice)
    assert (row.free_chat, row.chat_sound) == (True, True)
    section = chat_section(alice_page.get("/settings/").content.decode())
    assert len(re.findall(r'type="checkbox"[^>]*checked', section)) == 2
    alice_page.post("/settings/chat", {"chat_sound": "on"})  # an unticked box posts nothing
    row.refresh_from_db()
    assert (row.free_chat, row.chat_sound) == (False, True)


def test_the_match_page_offers_free_chat_and_its_sound_once_they_are_on(alice, bob, alice_page):
    match = start(alice, bob, move_seconds=None)
    page = alice_page.get(f"/matches/{match.pk}/").content.decode()
    assert "Free chat is off." in page and 'href="/settings/#chat"' in page
    assert 'id="chat-text"' not in page and "data-chat-sound" not in page
    alice_page.post("/settings/chat", {"free_chat": "on", "chat_sound": "on"})
    page = alice_page.get(f"/matches/{match.pk}/").content.decode()
    assert re.search(r'id="chat-text"[^>]*maxlength="140"', page)
    assert "data-chat-sound" in page and "Free chat is off." not in page


def test_a_guest_cannot_turn_free_chat_on_and_is_told_why():
    client = Client()
    client.post("/accounts/guest/")
    guest = Guest.objects.get().user
    section = chat_section(client.get("/settings/").content.decode())
    assert re.search(r'name="free_chat"[^>]*disabled', section)
    assert "Keep your games with an account to switch free chat on." in section
    client.post("/settings/chat", {"free_chat": "on", "chat_sound": "on"})  # a forged post
    row = PlayerSettings.objects.get(user=guest)
    assert (row.free_chat, row.chat_sound) == (False, True)


def test_a_match_page_shows_its_chat_among_the_moves_the_senders_own_marked(alice, bob, alice_page):
    match = start(alice, bob, move_seconds=None)
    services.chat_say(user=bob, match_id=match.pk, phrase="good_luck")
    match = move(match)  # the first bid
    services.chat_say(user=alice, match_id=match.pk, phrase="thanks")
    move(match)
    log = re.search(
        r'id="move-log".*?</ol>', alice_page.get(f"/matches/{match.pk}/").content.decode(), re.S
    )
    lines = re.findall(r'<li[^>]*class="log-([a-z]+)( mine)?', log.group(0))
    assert [kind for kind, _mine in lines] == ["deal", "chat", "bid", "chat", "bid"]
    assert ("chat", " mine") in lines[3:4] and lines[1] == ("chat", "")
    assert "Good luck!" in log.group(0) and "Thanks!" in log.group(0)
