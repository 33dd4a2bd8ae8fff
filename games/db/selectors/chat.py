"""Who reads which lines of a match's chat, and of an arena's.

The players' room is the two players'; the spectators' room is the spectators', and the
players' once the match is over (during it, nobody may help a player). An arena's chat is
read by every account on its page, and said by its players and the moderators. A reader never
gets a line by a player they blocked, or muted at this match, nor a removed line; a reader
with free chat off gets the quick messages only."""

from __future__ import annotations

from django.db.models import Q

from ...models import (
    ArenaPlayer,
    Block,
    ChatLine,
    ChatMute,
    ChatRoom,
    PlayerSettings,
    is_guest,
)

# The lines a page shows as it opens: the last of them.
CHAT_SHOWN = 100


def chat_rooms_read(match, user) -> list[str]:
    """The rooms of the match (a ``Match`` or its ``PublicMatch``) whose lines ``user`` reads."""
    if match.seat_of(user) is not None:
        return [ChatRoom.PLAYERS, ChatRoom.SPECTATORS] if match.is_over else [ChatRoom.PLAYERS]
    return [ChatRoom.SPECTATORS]


def chat_lines(match, user, *, after: int = 0) -> list[ChatLine]:
    """The lines of the match that ``user`` reads, oldest first: those after the line id
    ``after``, or (0) the last ``CHAT_SHOWN``."""
    lines = ChatLine.objects.filter(match_id=match.pk, room__in=chat_rooms_read(match, user))
    return _read(lines, user, after, muted_at=match.pk)


def arena_chat_lines(arena_id: int, user, *, after: int = 0) -> list[ChatLine]:
    """The lines of the arena's chat that ``user`` (any account on its page) reads, as
    ``chat_lines`` gives a match's."""
    if not user.is_authenticated:
        return []
    return _read(ChatLine.objects.filter(arena_id=arena_id), user, after)


def _read(lines, user, after: int, muted_at: int | None = None) -> list[ChatLine]:
    """Of ``lines``, those ``user`` reads: no removed line, none by a player they blocked (or
    muted at the match ``muted_at``), only quick messages if their free chat is off."""
    lines = lines.filter(removed_at=None).select_related("author")
    if user.is_authenticated:
        hidden = Q(author__in=Block.objects.filter(blocker=user).values("blocked"))
        if muted_at is not None:
            muted = ChatMute.objects.filter(match_id=muted_at, player=user).values("muted")
            hidden |= Q(author__in=muted)
        lines = lines.exclude(hidden)
    if not reads_free_chat(user):
        lines = lines.filter(text="")
    if after:
        return list(lines.filter(pk__gt=after).order_by("pk")[:CHAT_SHOWN])
    return list(reversed(lines.order_by("-pk")[:CHAT_SHOWN]))


def chat_line_visible(line: ChatLine, user) -> bool:
    """Whether ``user`` reads this line (may report it)."""
    if line.arena_id is not None:
        found = arena_chat_lines(line.arena_id, user, after=line.pk - 1)
    else:
        found = chat_lines(line.match, user, after=line.pk - 1)
    return any(said.pk == line.pk for said in found)


def may_talk_in_arena(arena_id: int, user) -> bool:
    """Whether ``user`` says lines in the arena's chat: a player who joined it (and was not
    removed), or a moderator (of matches or arenas); never a guest."""
    if not user.is_authenticated or is_guest(user):
        return False
    if user.has_perm("games.moderate_match") or user.has_perm("games.moderate_arena"):
        return True
    return ArenaPlayer.objects.filter(arena_id=arena_id, user=user, removed=False).exists()


def reads_free_chat(user) -> bool:
    if not user.is_authenticated or is_guest(user):
        return False
    return PlayerSettings.objects.filter(user=user, free_chat=True).exists()


def chat_muted(match, user) -> bool:
    """Whether ``user`` muted their opponent at this match."""
    return ChatMute.objects.filter(match_id=match.pk, player=user).exists()
