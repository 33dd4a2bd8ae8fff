"""An arena's chat on its page and at the moderators' desk: the page shows its lines (a quick
message in the reader's language, free chat as typed) in a log of its own, the quick messages
for its players, a note for the others; a line is said through the page (refused in words);
the admin lists an arena's lines, shows one among its neighbours and removes it, audited."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games import services
from games.models import ChatLine, ModerationAction
from tests.support.arenas import announced, moderator_made
from tests.support.chat import free_chat
from tests.support.matches import start
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(moderators_group):
    return moderator_made()


@pytest.fixture
def arena(moderator, alice, bob):
    return announced(moderator, (alice, bob))


def client_of(user, language: str = "en") -> Client:
    client = Client()
    log_in(client, user)
    client.cookies["django_language"] = language
    return client


def chat_log(page: str) -> str:
    return re.search(r'<div id="arena-chat-log".*?</div>', page, re.S).group(0)


def test_the_arena_page_shows_its_chat_in_a_log_of_its_own(arena, alice, bob, carol):
    free_chat(alice, bob)
    services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="good_luck")
    typed = services.chat_say_arena(user=alice, arena_id=arena.pk, text="<b>hi</b> all")
    page = client_of(bob, "th").get(f"/arenas/{arena.pk}/").content.decode()
    log = chat_log(page)
    assert 'role="log"' in log and 'aria-live="polite"' in log
    assert "ขอให้โชคดี!" in log and "&lt;b&gt;hi&lt;/b&gt; all" in log and "<b>hi" not in log
    assert f'data-chat-after="{typed.pk}"' in log and 'id="chat-news"' in page
    assert "data-quick-messages" in page and "data-chat-form" in page
    assert f'action="/arenas/{arena.pk}/chat"' in page
    # carol did not join: she reads (the quick messages: her free chat is off), says nothing.
    page = client_of(carol).get(f"/arenas/{arena.pk}/").content.decode()
    assert "Good luck!" in chat_log(page) and "hi</b>" not in html.unescape(chat_log(page))
    assert "data-chat-readonly" in page and "data-quick-messages" not in page


def test_a_line_said_through_the_page_and_refused_in_words(arena, alice, carol):
    url = f"/arenas/{arena.pk}/chat"
    answer = client_of(alice).post(url, {"phrase": "have_fun"}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert ChatLine.objects.get(arena=arena).phrase == "have_fun"
    answer = client_of(carol).post(url, {"phrase": "have_fun"}, headers={"HX-Request": "true"})
    assert answer.status_code == 403
    assert "Only the arena&#x27;s players talk here" in answer.content.decode()
    answer = client_of(alice).post(url, {"text": "hello"})  # a plain form: back, in words
    assert answer.status_code == 302 and answer["Location"] == f"/arenas/{arena.pk}/"
    nowhere = f"/arenas/{arena.pk + 99}/chat"
    answer = client_of(alice).post(nowhere, {"phrase": "oops"}, headers={"HX-Request": "true"})
    assert answer.status_code == 403 and "There is no chat here" in answer.content.decode()


def test_the_desk_lists_an_arenas_lines_shows_their_neighbours_and_removes_one(
    arena, alice, bob, moderator
):
    match = start(alice, bob)
    services.chat_say(user=alice, match_id=match.pk, phrase="thanks")  # not the arena's
    lines = [
        services.chat_say_arena(user=user, arena_id=arena.pk, phrase=code)
        for user, code in ((alice, "good_luck"), (bob, "have_fun"), (alice, "oops"))
    ]
    desk = client_of(moderator)
    listed = desk.get(f"/admin/games/chatline/?arena__id__exact={arena.pk}").content.decode()
    assert [int(n) for n in re.findall(r"/admin/games/chatline/(\d+)/change/", listed)] == [
        line.pk for line in lines
    ]
    page = html.unescape(desk.get(f"/admin/games/chatline/{lines[1].pk}/change/").content.decode())
    assert [int(n) for n in re.findall(r'data-context-line="(\d+)"', page)] == [
        line.pk for line in lines
    ]
    assert f"at arena {arena.pk}" in page and f"?arena__id__exact={arena.pk}" in page
    desk.post(
        f"/admin/games/chatline/{lines[1].pk}/change/", {"_remove": "1", "remove_reason": "spam"}
    )
    assert ChatLine.objects.get(pk=lines[1].pk).removed_by == moderator
    audit = ModerationAction.objects.get(kind=ModerationAction.Kind.REMOVE_CHAT)
    assert (audit.player, audit.reason) == (bob, "spam")
    assert "Have fun!" not in chat_log(
        client_of(alice).get(f"/arenas/{arena.pk}/").content.decode()
    )
