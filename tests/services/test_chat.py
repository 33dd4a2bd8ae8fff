"""Table talk's rules, as the services hold them: who may say what where, the limits (rate,
repetition, length), a timed-out player, a blocked or muted player's lines, the spectators'
room kept from the players until the match is over, and a moderator's removal, audited."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.db import selectors
from games.models import ChatLine, ModerationAction, PlayerSettings, Report
from games.presentation.chat import chat_items
from tests.support.chat import chat_refused, free_chat
from tests.support.matches import resign, start

pytestmark = pytest.mark.django_db


def refused(code: str, **kwargs) -> services.GameError:
    return chat_refused(services.chat_say, code, **kwargs)


def words(match, reader) -> list[str]:
    return [item["words"] for item in chat_items(selectors.chat_lines(match, reader), reader)]


def test_a_quick_message_reads_in_each_readers_language(alice, bob):
    match = start(alice, bob)
    services.chat_say(user=alice, match_id=match.pk, phrase="good_luck")
    from django.utils import translation

    with translation.override("th"):
        thai = words(match, bob)
    with translation.override("so"):
        somali = words(match, alice)
    assert thai == ["ขอให้โชคดี!"] and somali == ["Nasiib wacan!"]


def test_free_chat_is_off_until_turned_on_for_writer_and_reader(alice, bob):
    match = start(alice, bob)
    refused("chat_free_off", user=alice, match_id=match.pk, text="hello")
    free_chat(alice)
    services.chat_say(user=alice, match_id=match.pk, text="hello")
    assert words(match, bob) == []  # bob has free chat off: quick messages only
    free_chat(bob)
    assert words(match, bob) == ["hello"]
    assert not PlayerSettings.objects.get(user=alice).chat_sound


def test_the_limits_on_length_repetition_and_rate(alice, bob, settings):
    settings.CHAT_LINES_PER_MINUTE = 4
    match = start(alice, bob)
    free_chat(alice)
    error = refused("chat_too_long", user=alice, match_id=match.pk, text="x" * 141)
    assert error.params["most"] == 140
    services.chat_say(user=alice, match_id=match.pk, text="x" * 140)
    services.chat_say(user=alice, match_id=match.pk, text="nice hand")
    refused("chat_repeated", user=alice, match_id=match.pk, text="  NICE   hand ")
    services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    with pytest.raises(services.TooOften) as caught:  # the fifth in a minute
        services.chat_say(user=alice, match_id=match.pk, phrase="sorry")
    assert caught.value.params["seconds"] > 0
    refused("chat_empty", user=alice, match_id=match.pk)
    refused("chat_no_such_phrase", user=alice, match_id=match.pk, phrase="insult")
    assert ChatLine.objects.count() == 4


def test_markup_is_kept_as_the_text_typed(alice, bob):
    match = start(alice, bob)
    free_chat(alice, bob)
    typed = '<script>alert(1)</script><a href="https://x.example">win</a>'
    services.chat_say(user=alice, match_id=match.pk, text=typed)
    client = Client()
    client.force_login(bob)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;a href=&quot;https://x.example&quot;&gt;"
    assert escaped in page
    assert "<script>alert(1)" not in page and 'href="https://x.example"' not in page


def test_a_blocked_or_muted_players_lines_never_reach_the_reader(alice, bob):
    match = start(alice, bob)
    services.chat_say(user=bob, match_id=match.pk, phrase="good_luck")
    services.chat_mute(user=alice, match_id=match.pk)
    assert words(match, alice) == []
    services.chat_mute(user=alice, match_id=match.pk, muted=False)
    assert words(match, alice) == ["Good luck!"]
    services.block_create(user=alice, blocked_player=bob)
    assert words(match, alice) == []
    assert words(match, bob) == ["Good luck!"]  # the author still reads their own


def test_the_spectators_room_is_kept_from_the_players_until_the_match_is_over(alice, bob, carol):
    match = start(alice, bob, spectators_allowed=True)
    services.chat_say(user=carol, match_id=match.pk, phrase="nice_trick", room="spectators")
    refused("chat_spectators_only", user=alice, match_id=match.pk, phrase="oops", room="spectators")
    refused("chat_players_only", user=carol, match_id=match.pk, phrase="oops", room="players")
    assert words(match, carol) == ["Nice trick!"]
    assert words(match, alice) == [] and words(match, bob) == []
    services.chat_say(user=alice, match_id=match.pk, phrase="thanks")
    assert words(match, carol) == ["Nice trick!"]  # the players' room is theirs
    match = resign(bob, match)
    assert words(match, alice) == ["Nice trick!", "Thanks!"]


def test_nobody_to_talk_to_against_the_computer(alice):
    match = services.match_create_computer(user=alice, strength="easy")
    refused("chat_nobody_to_read", user=alice, match_id=match.pk, phrase="good_luck")


def test_a_timed_out_player_is_refused_with_when_it_ends(alice, bob, django_user_model):
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    match = start(alice, bob)
    timeout = services.chat_timeout(moderator=moderator, player=alice, minutes=30, reason="rude")
    error = refused("chat_timed_out", user=alice, match_id=match.pk, phrase="oops")
    assert error.params["until"] == timeout.until
    audit = ModerationAction.objects.get(kind=ModerationAction.Kind.CHAT_TIMEOUT)
    assert (audit.moderator, audit.player, audit.reason) == (moderator, alice, "rude")
    services.chat_say(user=bob, match_id=match.pk, phrase="oops")  # only alice is timed out


def test_a_removed_line_reaches_nobody_and_is_audited(alice, bob, django_user_model):
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    with pytest.raises(services.GameError):
        services.chat_remove(moderator=moderator, line_id=line.pk, reason="")
    services.chat_remove(moderator=moderator, line_id=line.pk, reason="spam")
    assert words(match, bob) == [] and words(match, alice) == []
    audit = ModerationAction.objects.get(kind=ModerationAction.Kind.REMOVE_CHAT)
    assert (audit.match_id, audit.player, audit.reason) == (match.pk, alice, "spam")
    assert ChatLine.objects.get(pk=line.pk).removed_by == moderator  # kept for the record


def test_a_line_is_reported_by_a_reader_with_its_match(alice, bob, carol):
    match = start(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, phrase="oops")
    with pytest.raises(services.NotAllowed):  # carol never read it
        services.chat_report(reporter=carol, line_id=line.pk)
    report = services.chat_report(reporter=bob, line_id=line.pk)
    assert (report.reported, report.match_id, report.chat_line) == (alice, match.pk, line)
    assert Report.objects.filter(chat_line=line).count() == 1
    with pytest.raises(services.GameError):
        services.chat_report(reporter=bob, line_id=line.pk)


def test_the_replay_keeps_the_chat_for_its_readers(alice, bob, carol):
    match = start(alice, bob, spectators_allowed=True)
    free_chat(alice, bob)
    line = services.chat_say(user=alice, match_id=match.pk, text="<i>gl</i>")
    services.chat_say(user=carol, match_id=match.pk, phrase="nice_trick", room="spectators")
    resign(bob, match)
    for reader, said in ((bob, ["&lt;i&gt;gl&lt;/i&gt;", "Nice trick!"]), (carol, ["Nice trick!"])):
        client = Client()
        client.force_login(reader)
        page = client.get(f"/matches/{match.pk}/replay").content.decode()
        chat = page.split("data-replay-chat", 1)[1].split("</ol>", 1)[0]
        assert [word for word in said if word in chat] == said
        assert "gl" not in chat or reader == bob  # the players' room is the players'
        assert "<i>" not in chat and 'href="?step=0"' in chat
        if reader == bob:  # each line a reader was shown may be reported from here too
            assert f'data-chat-report="{line.pk}"' in chat
            answer = client.post(
                f"/chat/{line.pk}/report", {"match": match.pk}, HTTP_HX_REQUEST="true"
            )
            assert answer.status_code == 200 and Report.objects.get(chat_line=line).reporter == bob
