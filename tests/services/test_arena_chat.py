"""An arena's chat, as the services hold it: its players and the moderators say lines, every
account on its page reads them (quick messages only for one with free chat off, never a
blocked player's lines), with a match's limits, and a moderator removes a line, audited."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from games import services
from games.db import selectors
from games.models import ChatLine, ChatRoom, ModerationAction, Report
from games.presentation.chat import chat_items
from tests.support.arenas import announced, moderator_made
from tests.support.chat import chat_refused, free_chat
from tests.support.matches import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(moderators_group):
    return moderator_made()


@pytest.fixture
def arena(moderator, alice, bob):
    """An arena announced for the hour to come, alice and bob in it."""
    return announced(moderator, (alice, bob))


def refused(code: str, **kwargs) -> services.GameError:
    return chat_refused(services.chat_say_arena, code, **kwargs)


def words(arena, reader) -> list[str]:
    lines = selectors.arena_chat_lines(arena.pk, reader)
    return [item["words"] for item in chat_items(lines, reader)]


def test_its_players_and_moderators_say_lines_that_every_account_reads(
    arena, alice, carol, moderator
):
    line = services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="good_luck")
    assert (line.arena_id, line.match_id, line.room) == (arena.pk, None, ChatRoom.ARENA)
    refused("chat_arena_players_only", user=carol, arena_id=arena.pk, phrase="have_fun")
    services.chat_say_arena(user=moderator, arena_id=arena.pk, phrase="have_fun")
    assert words(arena, carol) == ["Good luck!", "Have fun!"]  # carol did not join: she reads
    with translation.override("th"):
        assert words(arena, carol)[0] == "ขอให้โชคดี!"
    services.arena_join(user=carol, arena_id=arena.pk)
    services.chat_say_arena(user=carol, arena_id=arena.pk, phrase="thanks")


def test_a_removed_player_and_a_guest_say_nothing(arena, bob, moderator):
    services.arena_player_remove(moderator=moderator, arena_id=arena.pk, player=bob, reason="x")
    refused("chat_arena_players_only", user=bob, arena_id=arena.pk, phrase="oops")
    guest = services.guest_create()
    refused("chat_guest", user=guest, arena_id=arena.pk, phrase="oops")
    assert not selectors.may_talk_in_arena(arena.pk, guest)


def test_free_chat_is_off_until_turned_on_for_writer_and_reader(arena, alice, bob):
    refused("chat_free_off", user=alice, arena_id=arena.pk, text="hello all")
    free_chat(alice)
    services.chat_say_arena(user=alice, arena_id=arena.pk, text="hello all")
    assert words(arena, bob) == []  # bob reads the quick messages only
    free_chat(bob)
    assert words(arena, bob) == ["hello all"]


def test_the_limits_of_a_match_hold_in_an_arena(arena, alice, settings):
    settings.CHAT_LINES_PER_MINUTE = 3
    free_chat(alice)
    refused("chat_too_long", user=alice, arena_id=arena.pk, text="x" * 141)
    refused("chat_empty", user=alice, arena_id=arena.pk)
    refused("chat_no_such_phrase", user=alice, arena_id=arena.pk, phrase="insult")
    services.chat_say_arena(user=alice, arena_id=arena.pk, text="gl everyone")
    refused("chat_repeated", user=alice, arena_id=arena.pk, text="GL   everyone")
    services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="oops")
    services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="oops")
    with pytest.raises(services.TooOften):
        services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="sorry")
    assert ChatLine.objects.filter(arena=arena).count() == 3


def test_a_line_said_at_a_match_is_no_repeat_in_the_arena(arena, alice, bob):
    free_chat(alice)
    match = start(alice, bob)
    services.chat_say(user=alice, match_id=match.pk, text="well played")
    services.chat_say_arena(user=alice, arena_id=arena.pk, text="well played")
    assert selectors.chat_lines(match, bob) == []  # bob reads quick messages only
    assert [line.arena_id for line in ChatLine.objects.filter(text="well played")] == [
        None, arena.pk,
    ]  # fmt: skip


def test_a_timed_out_player_is_refused(arena, alice, moderator):
    timeout = services.chat_timeout(moderator=moderator, player=alice, minutes=10, reason="rude")
    error = refused("chat_timed_out", user=alice, arena_id=arena.pk, phrase="oops")
    assert error.params["until"] == timeout.until


def test_a_blocked_players_lines_never_reach_the_blocker(arena, alice, bob, carol):
    services.chat_say_arena(user=bob, arena_id=arena.pk, phrase="good_game")
    services.block_create(user=alice, blocked_player=bob)
    assert words(arena, alice) == []
    assert words(arena, carol) == ["Good game!"] and words(arena, bob) == ["Good game!"]


def test_no_chat_in_a_cancelled_arena(arena, alice, moderator):
    services.arena_cancel(moderator=moderator, arena_id=arena.pk, reason="rain")
    refused("chat_not_here", user=alice, arena_id=arena.pk, phrase="oops")


def test_a_line_is_at_a_match_or_an_arena_never_both_nor_neither(arena, alice, bob):
    match = start(alice, bob)
    for where in ({"match": match, "arena": arena}, {}):
        with pytest.raises(IntegrityError), transaction.atomic():
            ChatLine.objects.create(author=alice, phrase="oops", **where)


def test_a_removed_line_reaches_nobody_and_is_audited(arena, alice, bob, moderator):
    line = services.chat_say_arena(user=alice, arena_id=arena.pk, phrase="oops")
    report = services.chat_report(reporter=bob, line_id=line.pk)
    assert (report.match_id, report.chat_line, report.reported) == (None, line, alice)
    assert Report.objects.filter(chat_line=line).count() == 1
    services.chat_remove(moderator=moderator, line_id=line.pk, reason="spam")
    assert words(arena, bob) == [] and words(arena, alice) == []
    audit = ModerationAction.objects.get(kind=ModerationAction.Kind.REMOVE_CHAT)
    assert (audit.match_id, audit.player, audit.reason) == (None, alice, "spam")
