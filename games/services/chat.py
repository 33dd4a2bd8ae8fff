"""Table talk at a match and in an arena: quick messages (a fixed set, each read in the
reader's own language) and free chat (plain text, for players who turned it on), in the
players' room or the spectators' apart, or an arena's; mutes; reports of a line; and the
moderators' removals and time outs.

Who reads what (``games.db.selectors.chat``): the players' room is the two players'; the
spectators' room is the spectators', and the players' too once the match is over. A line by a
player the reader blocked, or muted at this match, never reaches them; a removed line reaches
nobody. An arena's chat is said by its players and the moderators, read by every account on
its page. Every line is kept with its match or arena. Each new or removed line is pushed after
the commit (``events.chat_changed_on_commit``, ``events.arena_chat_on_commit``): the pages
read what is theirs to see."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..db.selectors.chat import chat_line_visible, may_talk_in_arena, reads_free_chat
from ..errors import Conflict, GameError, NotAllowed, NotFound
from ..models import (
    CHAT_LENGTH,
    Arena,
    ChatLine,
    ChatMute,
    ChatRoom,
    ChatTimeout,
    Match,
    ModerationAction,
    PlayerSettings,
    Report,
    is_bot,
    is_computer,
    is_guest,
)
from . import events, throttle
from .core import players_locked
from .moderation import audit_record, reason_checked
from .reports import reports_per_hour_checked

# The quick messages, by code (their words: games.presentation.chat).
PHRASES = (
    "good_luck", "have_fun", "well_played", "thanks", "good_game", "nice_trick", "oops",
    "sorry", "one_more", "have_to_go",
)  # fmt: skip

# A line of free chat the same as one of the author's last few in the room is refused.
REPEATS_LOOKED_AT = 3
REPEAT_WINDOW = timedelta(minutes=2)


def chat_say(
    *, user, match_id: int, phrase: str = "", text: str = "", room: str | None = None
) -> ChatLine:
    """``user`` says a quick message (``phrase``) or a line of free chat (``text``) at the
    match, in ``room`` (by default: the players' if they play it, else the spectators')."""
    phrase, text = _words_checked(phrase, text)
    match = Match.objects.filter(pk=match_id).select_related("player0", "player1").first()
    if match is None:
        raise NotFound("no_such_match")
    if room is None:
        room = ChatRoom.SPECTATORS if match.seat_of(user) is None else ChatRoom.PLAYERS
    _room_checked(match, user, room)
    if text and not reads_free_chat(user):  # off for a new account and for guests
        raise NotAllowed("chat_free_off")
    if text and is_bot(user):  # a program writes only to a person who reads free chat
        seat = match.seat_of(user)
        opponent = match.players[seat ^ 1] if seat is not None else None
        if opponent is None or not reads_free_chat(opponent):
            raise NotAllowed("chat_bot_quick_only")
    _not_timed_out(user)
    return _line_written(
        user, {"match": match, "room": room}, phrase, text, move_count=match.move_count
    )


def chat_say_arena(*, user, arena_id: int, phrase: str = "", text: str = "") -> ChatLine:
    """``user`` says a quick message or a line of free chat in the arena's chat, read by
    every account on its page: its players (who joined, not removed) and the moderators say
    them, with a match's limits (rate, repetition, length, time outs, free chat)."""
    phrase, text = _words_checked(phrase, text)
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None or arena.status == Arena.Status.CANCELLED:
        raise NotAllowed("chat_not_here")
    if is_guest(user):
        raise NotAllowed("chat_guest")
    if not may_talk_in_arena(arena.pk, user):
        raise NotAllowed("chat_arena_players_only")
    if text and not reads_free_chat(user):
        raise NotAllowed("chat_free_off")
    if text and is_bot(user):  # a whole page reads it: a program sends quick messages only
        raise NotAllowed("chat_bot_quick_only")
    _not_timed_out(user)
    return _line_written(user, {"arena": arena, "room": ChatRoom.ARENA}, phrase, text)


def _words_checked(phrase: str, text: str) -> tuple[str, str]:
    """The quick message's code or the line (its spaces made single), one of them, checked."""
    phrase, text = (phrase or "").strip(), " ".join((text or "").split())
    if bool(phrase) == bool(text):
        raise GameError("chat_empty")
    if phrase and phrase not in PHRASES:
        raise GameError("chat_no_such_phrase")
    if len(text) > CHAT_LENGTH:
        raise GameError("chat_too_long", most=CHAT_LENGTH)
    return phrase, text


def _not_timed_out(user) -> None:
    timed_out = chat_timed_out_until(user)
    if timed_out is not None:
        raise NotAllowed("chat_timed_out", until=timed_out)


def _line_written(user, where: dict, phrase: str, text: str, *, move_count: int = 0) -> ChatLine:
    """The line, written where it was said (``where``: its match or arena, and room) within
    the limits on repetition and rate, and pushed to the pages open there."""
    with transaction.atomic():
        players_locked(user)  # one line at a time: the repetition check sees the last
        if text:
            _repeat_checked(user, where, text)
        throttle.limit("chat", user, settings.CHAT_LINES_PER_MINUTE, 60)  # a refusal: not counted
        line = ChatLine.objects.create(
            author=user, phrase=phrase, text=text, move_count=move_count, **where
        )
        _pushed_on_commit(line)
    return line


def _pushed_on_commit(line: ChatLine, *, removed: bool = False) -> None:
    if line.arena_id is not None:
        events.arena_chat_on_commit(line.arena_id, line.pk, removed=removed)
    else:
        events.chat_changed_on_commit(line.match_id, line.pk, removed=removed)


def _room_checked(match: Match, user, room: str) -> None:
    seat = match.seat_of(user)
    if room == ChatRoom.PLAYERS:
        if seat is None:
            raise NotAllowed("chat_players_only")
        if match.computer or match.players[seat ^ 1] is None:
            raise NotAllowed("chat_nobody_to_read")
    elif room == ChatRoom.SPECTATORS:
        if seat is not None:
            raise NotAllowed("chat_spectators_only")
        if not match.spectators_allowed and not match.is_over:
            raise NotAllowed("chat_not_here")
    else:
        raise GameError("chat_no_such_room")
    if is_guest(user) and room == ChatRoom.SPECTATORS:
        raise NotAllowed("chat_guest")


def _repeat_checked(user, where: dict, text: str) -> None:
    since = timezone.now() - REPEAT_WINDOW
    recent = ChatLine.objects.filter(author=user, created_at__gte=since, **where)
    last = recent.exclude(text="").order_by("-pk").values_list("text", flat=True)
    if text.casefold() in (said.casefold() for said in last[:REPEATS_LOOKED_AT]):
        raise Conflict("chat_repeated")


def chat_timed_out_until(user):
    """When the player's time out of chat ends, or None if they may chat."""
    now = timezone.now()
    found = ChatTimeout.objects.filter(player=user, until__gt=now).order_by("-until").first()
    return found.until if found is not None else None


def chat_mute(*, user, match_id: int, muted: bool = True) -> None:
    """``user`` mutes (or unmutes) their opponent at this match: from now on nothing the
    opponent says there reaches them (lines already shown go too, at their next page)."""
    match = Match.objects.filter(pk=match_id).select_related("player0", "player1").first()
    seat = match.seat_of(user) if match is not None else None
    if seat is None or match.players[seat ^ 1] is None:
        raise NotAllowed("chat_players_only")
    opponent = match.players[seat ^ 1]
    if muted:
        ChatMute.objects.get_or_create(match=match, player=user, muted=opponent)
    else:
        ChatMute.objects.filter(match=match, player=user, muted=opponent).delete()


def chat_report(*, reporter, line_id: int, details: str = "") -> Report:
    """A reader reports a line they were shown: it goes to the moderators' queue with its
    match (its context: the lines around it, in the admin)."""
    line = ChatLine.objects.select_related("match", "author").filter(pk=line_id).first()
    if line is None or not chat_line_visible(line, reporter):  # the reader must have seen it
        raise NotAllowed("chat_not_here")
    if line.author_id == reporter.pk:
        raise GameError("report_self")
    if is_guest(reporter):
        raise NotAllowed("report_guest")
    with transaction.atomic():
        players_locked(reporter)
        if Report.objects.filter(reporter=reporter, chat_line=line).exists():
            raise Conflict("chat_already_reported")
        reports_per_hour_checked(reporter)
        return Report.objects.create(
            reporter=reporter, reported=line.author, match=line.match, chat_line=line,
            reason=Report.Reason.ABUSE, details=(details or "")[:2000],
        )  # fmt: skip


def chat_remove(*, moderator, line_id: int, reason: str) -> ChatLine:
    """A moderator removes a line: it disappears from every open page at once, stays in the
    database for the record, and the removal is audited."""
    reason = reason_checked(reason)
    with transaction.atomic():
        line = ChatLine.objects.select_for_update().get(pk=line_id)
        if line.removed_at is not None:
            raise Conflict("chat_already_removed")
        line.removed_at, line.removed_by = timezone.now(), moderator
        line.save(update_fields=["removed_at", "removed_by"])
        audit_record(
            moderator, ModerationAction.Kind.REMOVE_CHAT, reason,
            match=line.match, player=line.author,
        )  # fmt: skip
        _pushed_on_commit(line, removed=True)
    return line


def chat_timeout(*, moderator, player, minutes: int, reason: str) -> ChatTimeout:
    """A moderator times ``player`` out of every chat for ``minutes``, with a reason,
    audited. The player is refused in words (with when it ends) until then."""
    reason = reason_checked(reason)
    if not 1 <= minutes <= 60 * 24 * 30:
        raise GameError("chat_timeout_length")
    if is_computer(player):
        raise NotAllowed("report_computer")
    with transaction.atomic():
        timeout = ChatTimeout.objects.create(
            player=player, until=timezone.now() + timedelta(minutes=minutes),
            reason=reason, moderator=moderator,
        )  # fmt: skip
        audit_record(moderator, ModerationAction.Kind.CHAT_TIMEOUT, reason, player=player)
    return timeout


def chat_settings_set(*, user, free_chat: bool, chat_sound: bool) -> None:
    """The player's chat choices (settings page)."""
    if is_guest(user) and free_chat:
        raise NotAllowed("chat_guest")
    PlayerSettings.objects.update_or_create(
        user=user, defaults={"free_chat": free_chat, "chat_sound": chat_sound}
    )
