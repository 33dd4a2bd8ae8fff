"""The mail that tells a player it is their turn in a correspondence match (at most one a
match a day, unless they asked for every turn's), and the one that tells them an arena they
joined has started; both sent by the task worker, through ``mail_addresses.mail_send`` (to a
confirmed address only, with its one-click unsubscription).

The words are the templates' (``templates/mail/``), in the player's language: this module
decides whom to tell and when.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..models import (
    Arena,
    ArenaPlayer,
    Connection,
    MailSent,
    Match,
    MatchStatus,
    Move,
    PlayerSettings,
)
from .mail_addresses import ARENA, TURN, mail_address, mail_send
from .push import push_told_turn

# A match's turn mails to one player, unless they asked for each: at most one in this while.
TURN_MAIL_EVERY = timedelta(days=1)


def turn_mail_send(*, match_id: int, version: int) -> bool:
    """Tell the player to act in a correspondence match, by mail, that it is their turn, if
    the match is still at ``version`` and the turn has just passed to them, they are not at
    the table (a socket of theirs on the match: the move reached them live), they have a
    confirmed address and want these mails, and (unless they want every turn's) this match
    mailed them none in the last day. True if a mail went out."""
    match = Match.objects.select_related("player0", "player1").filter(pk=match_id).first()
    if match is None or match.version != version or match.status != MatchStatus.ACTIVE:
        return False
    if not match.days_per_move:
        return False
    turn = match.state.turn
    last = Move.objects.filter(match=match).order_by("-seq").values_list("seat", flat=True)
    if last.first() == turn:  # the turn stayed with the player who moved: they are there
        return False
    player, opponent = match.players[turn], match.players[turn ^ 1]
    if mail_address(player, TURN) is None:
        return False
    since = timezone.now() - PRESENCE_TIMEOUT
    if Connection.objects.filter(match=match, user=player, seen_at__gte=since).exists():
        return False
    if push_told_turn(user=player, match=match):  # a device of theirs was told (push)
        return False
    each = PlayerSettings.objects.filter(user=player, turn_mail_each=True).exists()
    recent = MailSent.objects.filter(
        user=player, kind=TURN, match=match, sent_at__gte=timezone.now() - TURN_MAIL_EVERY
    )
    if not each and recent.exists():
        return False
    site = settings.SITE_URL.rstrip("/")
    context = {
        "opponent": opponent.username,
        "url": site + reverse("match_detail", args=[match.pk]),
        "settings_url": site + reverse("account") + "#mail",
        "deadline": match.deadline,
        "days": match.days_per_move,
        "scores": match.state.scores,
        "seat": turn,
    }
    return mail_send(
        user=player, kind=TURN, template="mail/your_turn", context=context, match=match
    )


def arena_mail_send(*, entry_id: int) -> bool:
    """Tell a player who asked for it, by mail, that the arena they joined has started (if it
    runs, they are still in it and have a confirmed address that wants these mails). True if
    a mail went out."""
    entry = ArenaPlayer.objects.select_related("arena", "user").filter(pk=entry_id).first()
    if entry is None or not entry.notify or entry.removed or entry.paused:
        return False
    arena, player = entry.arena, entry.user
    if arena.status != Arena.Status.RUNNING:
        return False
    site = settings.SITE_URL.rstrip("/")
    context = {
        "arena": arena.name,
        "url": site + reverse("arena", args=[arena.pk]),
        "ends_at": arena.ends_at,
    }
    return mail_send(user=player, kind=ARENA, template="mail/arena_start", context=context)
