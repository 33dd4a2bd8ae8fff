"""Moderating table talk through the admin, as a moderator does it: a match's chat read with
each line's context, a line removed with a reason (gone at once from every open page of the
match), a player timed out of chat from a line, a report or their row, all of it audited;
and nobody but a moderator gets there."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games import services
from games.db import selectors
from games.models import ChatLine, ChatTimeout, ModerationAction, Report
from tests.support.chat import free_chat
from tests.support.matches import start
from tests.support.moderation import run_action
from tests.support.second_factors import log_in
from tests.support.sockets import board, frame_with, socket

pytestmark = pytest.mark.django_db

LINES = "/admin/games/chatline/"


def page_of(line: ChatLine) -> str:
    return f"{LINES}{line.pk}/change/"


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def context_shown(page: str) -> list[int]:
    """The lines a line's page shows around it, in order."""
    return [int(n) for n in re.findall(r'data-context-line="(\d+)"', page)]


def client_of(user) -> Client:
    client = Client()
    log_in(client, user)
    return client


@database_sync_to_async
def match_page(player, match) -> str:
    return client_of(player).get(f"/matches/{match.pk}/").content.decode()


def said_through_the_page(player, match, **line) -> None:
    response = client_of(player).post(
        f"/matches/{match.pk}/chat", {"room": "players", **line}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200, response.content


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_removed_line_goes_at_once_from_both_open_pages_and_is_audited(
    moderator, alice, bob
):
    match = await database_sync_to_async(start)(alice, bob)
    pages = []
    for player in (alice, bob):
        ws = await socket(player, f"/ws/matches/{match.pk}/?chat=0")
        assert (await ws.connect())[0]
        await board(ws)  # the page is open and in the match's room
        pages.append(ws)
    await database_sync_to_async(said_through_the_page)(alice, match, phrase="good_luck")
    line = await ChatLine.objects.aget()
    for ws in pages:
        await frame_with(ws, f'id="chat-{line.pk}"')  # both pages show it
    assert f'id="chat-{line.pk}"' in await match_page(bob, match)

    response = await database_sync_to_async(moderator.client.post)(
        page_of(line), {"_remove": "Remove", "remove_reason": "Taunting"}, follow=True
    )
    assert "The line by alice is removed from every page." in text_of(response)
    for ws in pages:
        frame = await frame_with(ws, "data-removed")
        assert f'data-removed="{line.pk}"' in frame and "Good luck" not in frame
    for player in (alice, bob):  # nor on the page opened again
        assert f'id="chat-{line.pk}"' not in await match_page(player, match)
    audit = await ModerationAction.objects.select_related("moderator", "player").aget()
    assert (audit.kind, audit.reason, audit.moderator, audit.player, audit.match_id) == (
        "remove_chat", "Taunting", moderator, alice, match.pk,
    )  # fmt: skip
    # Kept for the record, marked, where moderators read the match's chat.
    listing = await database_sync_to_async(moderator.client.get)(
        f"{LINES}?match__id__exact={match.pk}"
    )
    assert "Removed by mod, " in text_of(listing) and page_of(line) in text_of(listing)
    for ws in pages:
        await ws.disconnect()


def test_a_removal_without_a_reason_is_refused_in_words_and_changes_nothing(moderator, alice, bob):
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    refused = moderator.client.post(
        page_of(line), {"_remove": "Remove", "remove_reason": "   "}, follow=True
    )
    assert "Give a reason: it is kept in the audit log" in text_of(refused)
    refused = run_action(moderator, "games/chatline", "remove_chat_lines", [line.pk], reason="")
    assert "Give a reason: it is kept in the audit log" in text_of(refused)
    line.refresh_from_db()
    assert line.removed_at is None and not ModerationAction.objects.exists()
    services.chat_say(user=bob, match_id=match.pk, phrase="oops")
    assert len(selectors.chat_lines(match, bob)) == 2  # still read by the players


def test_the_list_action_asks_for_a_reason_then_removes_each_line(moderator, alice, bob):
    match = start(alice, bob)
    lines = [services.chat_say(user=alice, match_id=match.pk, phrase=p) for p in ("oops", "sorry")]
    asked = moderator.client.post(
        LINES, {"action": "remove_chat_lines", "_selected_action": [lines[0].pk, lines[1].pk]}
    )
    assert "Reason (kept in the audit log)" in text_of(asked)
    done = run_action(moderator, "games/chatline", "remove_chat_lines", [x.pk for x in lines])
    assert "Remove chat lines: 2 done." in text_of(done)
    assert ChatLine.objects.filter(removed_at__isnull=False).count() == 2
    assert ModerationAction.objects.filter(kind="remove_chat").count() == 2
    again = run_action(moderator, "games/chatline", "remove_chat_lines", [lines[0].pk])
    assert "This message was removed already" in text_of(again)


def test_a_player_timed_out_from_a_line_is_refused_in_words_and_it_is_audited(
    moderator, alice, bob
):
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    page = text_of(moderator.client.get(page_of(line)))
    assert "Time alice out of chat" in page and '<option value="60">1 hour</option>' in page
    done = moderator.client.post(
        page_of(line),
        {"_timeout": "Time out of chat", "duration": "60", "timeout_reason": "Spam"},
        follow=True,
    )
    assert "Timed out of chat: alice, until" in text_of(done)
    timeout = ChatTimeout.objects.get()
    assert (timeout.player, timeout.moderator, timeout.reason) == (alice, moderator, "Spam")
    assert timedelta(minutes=59) < timeout.until - timezone.now() <= timedelta(minutes=60)
    refused = client_of(alice).post(
        f"/matches/{match.pk}/chat", {"phrase": "sorry"}, headers={"HX-Request": "true"}
    )
    assert refused.status_code == 403
    assert "A moderator has stopped you from chatting for 1 hour" in text_of(refused)
    assert ChatLine.objects.count() == 1
    said_through_the_page(bob, match, phrase="sorry")  # bob was not timed out
    audit = ModerationAction.objects.get()
    assert (audit.kind, audit.player, audit.reason) == ("chat_timeout", alice, "Spam")
    listing = text_of(moderator.client.get("/admin/games/chattimeout/"))
    assert "alice" in listing and "Spam" in listing


def test_a_time_out_needs_a_length_and_a_reason(moderator, alice, bob):
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    no_length = moderator.client.post(
        page_of(line), {"_timeout": "1", "duration": "", "timeout_reason": "Spam"}, follow=True
    )
    assert "A time out lasts from one minute to thirty days" in text_of(no_length)
    too_long = run_action(
        moderator, "games/chatline", "timeout_chat_authors", [line.pk], minutes="50000"
    )
    assert "A time out lasts from one minute to thirty days" in text_of(too_long)
    no_reason = moderator.client.post(
        page_of(line), {"_timeout": "1", "duration": "10", "timeout_reason": ""}, follow=True
    )
    assert "Give a reason: it is kept in the audit log" in text_of(no_reason)
    assert not ChatTimeout.objects.exists() and not ModerationAction.objects.exists()


def test_time_outs_from_a_players_row_and_from_the_reports_queue(moderator, alice, bob, carol):
    match = start(alice, bob)
    asked = moderator.client.post(
        "/admin/auth/user/", {"action": "timeout_players_from_chat", "_selected_action": [bob.pk]}
    )
    assert "Or this many minutes" in text_of(asked) and "7 days" in text_of(asked)
    run_action(moderator, "auth/user", "timeout_players_from_chat", [bob.pk], minutes="90")
    bobs = ChatTimeout.objects.get(player=bob)
    assert timedelta(minutes=89) < bobs.until - timezone.now() <= timedelta(minutes=90)
    with pytest.raises(services.GameError) as caught:
        services.chat_say(user=bob, match_id=match.pk, phrase="oops")
    assert caught.value.code == "chat_timed_out"

    line = services.chat_say(user=alice, match_id=match.pk, phrase="good_game")
    first = services.chat_report(reporter=bob, line_id=line.pk)
    second = services.report_player(reporter=carol, reported=alice, reason="abuse")
    run_action(
        moderator, "games/report", "timeout_reported_from_chat", [first.pk, second.pk],
        duration=str(60 * 24 * 7),
    )  # fmt: skip
    alices = ChatTimeout.objects.get(player=alice)  # once, though reported twice
    assert timedelta(days=6, hours=23) < alices.until - timezone.now() <= timedelta(days=7)
    assert ModerationAction.objects.filter(kind="chat_timeout").count() == 2


def test_the_reports_queue_shows_a_reported_lines_words_and_links_to_it_and_its_chat(
    moderator, alice, bob
):
    match = start(alice, bob)
    free_chat(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, text="you play like a <b>bot</b>")
    report = services.chat_report(reporter=bob, line_id=line.pk)
    for url in ("/admin/games/report/", f"/admin/games/report/{report.pk}/change/"):
        page = moderator.client.get(url).content.decode()
        assert "you play like a &lt;b&gt;bot&lt;/b&gt;" in page  # the words, as typed
        assert f'href="{page_of(line)}"' in page
        assert f'href="{LINES}?match__id__exact={match.pk}"' in page
    match_page = moderator.client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert f'href="{LINES}?match__id__exact={match.pk}"' in match_page


def test_a_lines_page_shows_it_among_the_lines_around_it_at_its_match(moderator, alice, bob, carol):
    match = start(alice, bob)
    other = start(carol, bob)
    phrases = ["good_luck", "have_fun", "oops", "sorry", "thanks", "nice_trick", "one_more"]
    said = []
    for number, phrase in enumerate(phrases):
        said.append(
            services.chat_say(user=(alice, bob)[number % 2], match_id=match.pk, phrase=phrase)
        )
        services.chat_say(user=carol, match_id=other.pk, phrase="have_to_go")
    services.chat_remove(moderator=moderator, line_id=said[2].pk, reason="Rude")
    moderator.client.cookies["django_language"] = "th"  # quick messages stay in English here
    page = text_of(moderator.client.get(page_of(said[6])))
    # Five before it, none after it (it is the last), none of the other match's.
    assert context_shown(page) == [line.pk for line in said[1:]]
    assert page.count("(this line)") == 1
    assert "Oops!" in page and "Removed by mod" in page  # a removed line stays, marked
    assert "I have to go." not in page  # another match's line
    first = text_of(moderator.client.get(page_of(said[0])))
    assert context_shown(first) == [line.pk for line in said[:6]]


def test_lines_are_found_by_match_author_room_and_words(moderator, alice, bob, carol):
    match = start(alice, bob, spectators_allowed=True)
    free_chat(alice, bob)
    services.chat_say(user=alice, match_id=match.pk, text="nice lead")
    services.chat_say(user=bob, match_id=match.pk, phrase="well_played")
    services.chat_say(user=carol, match_id=match.pk, phrase="good_luck", room="spectators")

    def found(query: str) -> set[str]:
        page = text_of(moderator.client.get(f"{LINES}?{query}"))
        return {words for words in ("nice lead", "Well played!", "Good luck!") if words in page}

    assert found(f"match__id__exact={match.pk}") == {"nice lead", "Well played!", "Good luck!"}
    assert found("q=alice") == {"nice lead"}
    assert found("q=lead") == {"nice lead"}
    assert found("q=played") == {"Well played!"}  # a quick message by its English words
    assert found(f"author__id__exact={carol.pk}") == {"Good luck!"}
    assert found("room__exact=spectators") == {"Good luck!"}


def test_a_moderator_playing_a_match_does_not_read_its_spectators_room_during_it(
    moderator, alice, carol
):
    match = start(moderator, alice, spectators_allowed=True)
    line = services.chat_say(user=carol, match_id=match.pk, phrase="nice_trick", room="spectators")
    assert moderator.client.get(page_of(line), follow=True).redirect_chain  # "does not exist"
    assert "Nice trick!" not in text_of(moderator.client.get(LINES))
    services.match_resign(user=alice, match_id=match.pk)
    assert "Nice trick!" in text_of(moderator.client.get(page_of(line)))


def test_lines_are_never_added_edited_or_deleted_in_the_admin(moderator, alice, bob):
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    assert moderator.client.get(f"{LINES}add/").status_code == 403
    assert moderator.client.get(f"{LINES}{line.pk}/delete/").status_code == 403
    page = moderator.client.get(page_of(line)).content.decode()
    assert 'name="_save"' not in page and 'name="phrase"' not in page
    assert "delete_selected" not in moderator.client.get(LINES).content.decode()
    assert moderator.client.get("/admin/games/chattimeout/add/").status_code == 403


def test_nobody_but_a_moderator_reaches_the_chat_or_its_actions(
    moderator, alice, bob, django_user_model
):
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    staff = django_user_model.objects.create_user("helper", is_staff=True)  # not a moderator
    for user in (staff, bob):
        client = client_of(user)
        for url in (LINES, page_of(line), "/admin/games/chattimeout/"):
            response = client.get(url)
            if user.is_staff:
                assert response.status_code == 403, url
            else:
                assert response.status_code == 302 and "/admin/login/" in response["Location"]
        client.post(page_of(line), {"_remove": "Remove", "remove_reason": "mine now"})
        client.post(page_of(line), {"_timeout": "1", "duration": "10", "timeout_reason": "x"})
        client.post(
            LINES, {"action": "remove_chat_lines", "_selected_action": [line.pk], "apply": "1",
                    "reason": "mine now"},
        )  # fmt: skip
    line.refresh_from_db()
    assert line.removed_at is None
    assert not ChatTimeout.objects.exists() and not ModerationAction.objects.exists()
    assert Report.objects.count() == 0
