"""The quick pairing ("Find an opponent"): join the oldest open match that suits, or open one."""

from __future__ import annotations

from django.db.models import Q

from ..db.selectors.fairplay import fair_play_marked
from ..errors import Conflict
from ..models import Block, Match, MatchStatus, is_bot, is_guest
from .matches import match_create, match_join


# The quick pairing asks for the usual rules and a move clock (a newcomer is not left waiting
# at a table without one).
def match_find(*, user, deck: int = 24, target: int = 10) -> Match:
    """The quick pairing ("Find an opponent"): join the oldest open match of another player
    with this deck and target and a move clock, or (nobody waiting) open one, or go back to
    one's own open match. A guest plays casual matches only: it joins and opens those."""
    guest = is_guest(user) or fair_play_marked(user)  # casual only, as a guest is
    candidates = (
        Match.objects.filter(
            status=MatchStatus.OPEN,
            deck=deck,
            target=target,
            move_seconds__isnull=False,
            player0__is_active=True,
        )  # fmt: skip
        .exclude(player0=user)
        .exclude(player0__in=Block.objects.filter(blocked=user).values("blocker"))
        .filter(_bots_welcome() if is_bot(user) else Q())
        .filter(Q(rated=False) if guest else Q())
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
    )
    for match_id in candidates[:5]:
        try:
            return match_join(user=user, match_id=match_id)
        except Conflict:  # someone else took the seat a moment ago: the next one
            continue
    mine = Match.objects.filter(status=MatchStatus.OPEN, player0=user, deck=deck, target=target)
    return mine.order_by("created_at").first() or match_create(
        user=user, deck=deck, target=target, rated=not guest
    )


def _bots_welcome() -> Q:
    """Open matches a bot may join: another bot's, or a person's who lets bots play them."""
    return Q(player0__settings__bot=True) | Q(player0__settings__bot_challenges=True)
