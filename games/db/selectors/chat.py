"""Who reads which lines of a match's chat.

The players' room is the two players'; the spectators' room is the spectators', and the
players' once the match is over (during it, nobody may help a player). A reader never gets a
line by a player they blocked, or muted at this match, nor a removed line; a reader with free
chat off gets the quick messages only."""

from __future__ import annotations

from django.db.models import Q

from ...models import Block, ChatLine, ChatMute, ChatRoom, PlayerSettings, is_guest

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
    lines = ChatLine.objects.filter(
        match_id=match.pk, room__in=chat_rooms_read(match, user), removed_at=None
    ).select_related("author")
    if user.is_authenticated:
        blocked = Block.objects.filter(blocker=user).values("blocked")
        muted = ChatMute.objects.filter(match_id=match.pk, player=user).values("muted")
        lines = lines.exclude(Q(author__in=blocked) | Q(author__in=muted))
    if not reads_free_chat(user):
        lines = lines.filter(text="")
    if after:
        return list(lines.filter(pk__gt=after).order_by("pk")[:CHAT_SHOWN])
    return list(reversed(lines.order_by("-pk")[:CHAT_SHOWN]))


def chat_line_visible(line: ChatLine, user) -> bool:
    """Whether ``user`` reads this line (may report it)."""
    return any(found.pk == line.pk for found in chat_lines(line.match, user, after=line.pk - 1))


def reads_free_chat(user) -> bool:
    if not user.is_authenticated or is_guest(user):
        return False
    return PlayerSettings.objects.filter(user=user, free_chat=True).exists()


def chat_muted(match, user) -> bool:
    """Whether ``user`` muted their opponent at this match."""
    return ChatMute.objects.filter(match_id=match.pk, player=user).exists()
