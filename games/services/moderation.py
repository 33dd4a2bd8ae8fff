"""Moderation: every action is audited, with the moderator's reason."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..errors import Conflict, GameError, NotFound
from ..models import ApiToken, EndReason, Match, MatchStatus, ModerationAction, is_deleted
from . import events
from .api_tokens import api_token_revoke
from .arena_results import arena_result_void
from .core import match_finish, match_locked, match_save
from .insights import insights_forget
from .ratings import rating_changes_reverse


def audit_record(moderator, kind: str, reason: str, **about) -> ModerationAction:
    return ModerationAction.objects.create(moderator=moderator, kind=kind, reason=reason, **about)


def reason_checked(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError("no_reason")
    return reason


def match_void(*, moderator, match_id: int, reason: str) -> Match:
    """The match no longer counts: its rating changes are reversed exactly, and an arena's
    standings count it no more."""
    reason = reason_checked(reason)
    with transaction.atomic():
        match = match_locked(match_id)
        if match.status == MatchStatus.VOIDED:
            raise Conflict("already_void")
        arena_result_void(match)  # before the ratings it reads are reversed
        rating_changes_reverse(match=match)
        match.status = MatchStatus.VOIDED
        match.end_reason = EndReason.VOIDED
        insights_forget(match_id=match.pk)
        match.finished_at = match.finished_at or timezone.now()
        match_save(match, lobby=True)
        audit_record(moderator, ModerationAction.Kind.VOID, reason, match=match)
    return match


def match_adjudicate(*, moderator, match_id: int, winner, reason: str) -> Match:
    """End an active match and award it to ``winner``; rated as a normal finish."""
    reason = reason_checked(reason)
    with transaction.atomic():
        match = match_locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict("adjudicate_in_play")
        if match.seat_of(winner) is None:
            raise GameError("winner_not_player")
        match_finish(match, winner=winner, reason=EndReason.ADJUDICATED)
        match_save(match, lobby=True)
        audit_record(
            moderator, ModerationAction.Kind.ADJUDICATE, reason, match=match, player=winner
        )
    return match


def match_abort_moderated(*, moderator, match_id: int, reason: str) -> Match:
    """End an open or active match with no result and no rating change."""
    reason = reason_checked(reason)
    with transaction.atomic():
        match = match_locked(match_id)
        if match.is_over:
            raise Conflict("already_over")
        match.status = MatchStatus.ABORTED
        match.end_reason = EndReason.ABORTED_BY_MODERATOR
        match.finished_at = timezone.now()
        match_save(match, lobby=True)
        audit_record(moderator, ModerationAction.Kind.ABORT, reason, match=match)
    return match


def player_suspend(*, moderator, player, reason: str) -> None:
    """The player can no longer log in or play; their matches in play go to their opponents
    (open ones are called off), and their open sockets close."""
    reason = reason_checked(reason)
    with transaction.atomic():
        player.is_active = False  # Django refuses inactive users' logins and sessions
        player.save(update_fields=["is_active"])
        events.sessions_check_on_commit(player.pk)
        audit_record(moderator, ModerationAction.Kind.SUSPEND, reason, player=player)
        mine = Match.objects.filter(Q(player0=player) | Q(player1=player))
        for match in mine.filter(status=MatchStatus.ACTIVE).select_related("player0", "player1"):
            match_adjudicate(
                moderator=moderator, match_id=match.pk, winner=match.opponent_of(player),
                reason=f"Opponent suspended: {reason}",
            )  # fmt: skip
        for match_id in mine.filter(status=MatchStatus.OPEN).values_list("pk", flat=True):
            match_abort_moderated(
                moderator=moderator, match_id=match_id, reason=f"Creator suspended: {reason}"
            )


def player_reinstate(*, moderator, player, reason: str) -> None:
    reason = reason_checked(reason)
    if is_deleted(player):  # nobody is left to reinstate: the account was deleted
        raise Conflict("already_deleted")
    with transaction.atomic():
        player.is_active = True
        player.save(update_fields=["is_active"])
        audit_record(moderator, ModerationAction.Kind.REINSTATE, reason, player=player)


def api_token_revoke_moderated(*, moderator, token_id: int, reason: str) -> ApiToken:
    """A moderator stops a program (one token) without suspending its player: the token and
    its open streams stop at once, as when the player revokes it; audited. One revoked
    already stays as it is (nothing to audit)."""
    reason = reason_checked(reason)
    with transaction.atomic():
        # Locked from this read on: two moderators at once audit one revocation, not two.
        tokens = ApiToken.objects.select_for_update(of=("self",)).select_related("user")
        row = tokens.filter(pk=token_id).first()
        if row is None:
            raise NotFound("no_such_token")
        was_live = row.revoked_at is None
        row = api_token_revoke(user=row.user, token_id=row.pk)
        if was_live:
            audit_record(moderator, ModerationAction.Kind.REVOKE_TOKEN, reason, player=row.user)
    return row
