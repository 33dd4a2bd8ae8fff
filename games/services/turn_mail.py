"""The mail that tells a player it is their turn in a correspondence match, and the one that
tells them an arena they joined has started (both sent by the task worker); and the signed
address that stops the turns' mails in one click.

The words are the templates' (``templates/mail/``), in the player's language: this module
decides whom to tell and when, and hands Django's mail the rendered message.
"""

from __future__ import annotations

from datetime import UTC

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..models import Arena, ArenaPlayer, Connection, Match, MatchStatus, Move, PlayerSettings

SALT = "games.turn-mail"


def stop_token(user_id: int) -> str:
    """The token of the link that stops a player's turn mails (no expiry: an old mail's link
    still works)."""
    return signing.dumps(user_id, salt=SALT, compress=True)


def stop_token_user(token: str):
    """The player a stop link is for, or None if the token is not one of ours."""
    try:
        user_id = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def turn_mail_send(*, match_id: int, version: int) -> bool:
    """Tell the player to act in a correspondence match, by mail, that it is their turn, if
    the match is still at ``version`` and the turn has just passed to them, they are not at
    the table (a socket of theirs on the match: the move reached them live), they have an
    address and want these mails. True if a mail went out."""
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
    found = PlayerSettings.objects.filter(user=player).values("turn_mail", "language").first()
    wanted = found is None or found["turn_mail"]
    if not player.email or not wanted or not player.is_active:
        return False
    since = timezone.now() - PRESENCE_TIMEOUT
    if Connection.objects.filter(match=match, user=player, seen_at__gte=since).exists():
        return False
    language = (found or {}).get("language") or settings.LANGUAGE_CODE
    site = settings.SITE_URL.rstrip("/")
    stop = site + reverse("turn_mail_stop", args=[stop_token(player.pk)])
    context = {
        "player": player.username,
        "opponent": opponent.username,
        "url": site + reverse("match_detail", args=[match.pk]),
        "stop_url": stop,
        "settings_url": site + reverse("settings"),
        "deadline": match.deadline,
        "days": match.days_per_move,
        "scores": match.state.scores,
        "seat": turn,
    }
    # RFC 8058: a mail program's own "unsubscribe" stops them with one POST.
    headers = {
        "List-Unsubscribe": f"<{stop}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    _send("mail/your_turn", context, player.email, language, headers)
    return True


def _send(template: str, context: dict, to: str, language: str, headers=None) -> None:
    """``template``'s subject (``_subject.txt``, on one line) and body (``.txt``), in
    ``language``, times in UTC, to ``to``."""
    with translation.override(language), timezone.override(UTC):
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = render_to_string(f"{template}.txt", context)
    EmailMultiAlternatives(subject, body, to=[to], headers=headers).send()


def arena_mail_send(*, entry_id: int) -> bool:
    """Tell a player who asked for it, by mail, that the arena they joined has started (if it
    runs, they are still in it and have an address). True if a mail went out."""
    entry = ArenaPlayer.objects.select_related("arena", "user").filter(pk=entry_id).first()
    if entry is None or not entry.notify or entry.removed or entry.paused:
        return False
    arena, player = entry.arena, entry.user
    if arena.status != Arena.Status.RUNNING or not player.email or not player.is_active:
        return False
    found = PlayerSettings.objects.filter(user=player).values_list("language", flat=True).first()
    site = settings.SITE_URL.rstrip("/")
    context = {
        "player": player.username,
        "arena": arena.name,
        "url": site + reverse("arena", args=[arena.pk]),
        "ends_at": arena.ends_at,
    }
    _send("mail/arena_start", context, player.email, found or settings.LANGUAGE_CODE)
    return True
