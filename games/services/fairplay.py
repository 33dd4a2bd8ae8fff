"""Fair play: the automatic flags (``raise_flag``, called by the task worker with the signals
``fairplay_signals`` computed) and the moderators' actions on them, each with a reason and a
row of the audit log: dismiss, warn, mark (computer-assisted or rating-trader: rated play
closed, off the leaderboard and the podiums, the victims refunded), close the account; and
the marked player's one appeal and its answer.

A flag by itself changes nothing for the player. A player keeps at most one open flag; after
a flag is resolved (dismissed, warned, marked), a new one is raised only when a signal is
new (a kind the resolved flag did not have) or worse than it was then (further beyond its
threshold), so the same evidence a moderator has looked at does not come back every match.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from ..db.selectors.fairplay import fair_play_marked
from ..errors import Conflict, GameError, NotAllowed, NotFound
from ..models import (
    FairPlayAppeal,
    FairPlayFlag,
    FairPlayMark,
    FairPlayWarning,
    Match,
    MatchStatus,
    ModerationAction,
    PlayerRating,
    RatingChange,
)
from .moderation import audit_record, player_suspend, reason_checked

# The signals that flag when low (the others: when high).
LOW_IS_WORSE = {"loss", "evenness"}
APPEAL_LENGTH = 2000


def signal_strength(signal: dict) -> float:
    """How far the signal is beyond its threshold: 1.0 at it, more beyond (0 when unknown)."""
    try:
        value, threshold = float(signal["value"]), float(signal["threshold"])
    except (KeyError, TypeError, ValueError):
        return 0.0
    if signal.get("kind") in LOW_IS_WORSE:
        return threshold / value if value > 0 else (threshold + 1.0) * 100.0
    return value / threshold if threshold > 0 else value * 100.0


def flag_strength(signals: list[dict]) -> float:
    return max((signal_strength(s) for s in signals), default=0.0)


def _merged(old: list[dict], new: list[dict]) -> list[dict]:
    """``old`` with each kind of ``new`` replaced by its latest computation."""
    by_kind = {s.get("kind"): s for s in old}
    by_kind.update({s.get("kind"): s for s in new})
    return list(by_kind.values())


def _fresh(signals: list[dict], resolved: FairPlayFlag) -> bool:
    """Whether ``signals`` say something the moderator who resolved ``resolved`` did not see:
    a kind it did not have, or one further beyond its threshold than then."""
    before = {s.get("kind"): signal_strength(s) for s in resolved.signals}
    for signal in signals:
        strength = signal_strength(signal)
        if strength < 1.0:
            continue  # not flagging by itself
        if signal.get("kind") not in before or strength > before[signal.get("kind")]:
            return True
    return False


def raise_flag(player, signals: list[dict], match_ids: list[int]) -> FairPlayFlag | None:
    """Flag ``player`` with ``signals`` computed over the rated matches ``match_ids``: the
    player's open flag is updated (each kind replaced by its latest computation), or one is
    opened. After a resolved flag, only new or worse signals open one (None: nothing new)."""
    now = timezone.now()
    with transaction.atomic():
        flag = (
            FairPlayFlag.objects.select_for_update()
            .filter(player=player, status=FairPlayFlag.Status.OPEN)
            .first()
        )
        if flag is None:
            last = FairPlayFlag.objects.filter(player=player).order_by("-created_at", "-pk")
            resolved = last.first()
            if resolved is not None and not _fresh(signals, resolved):
                return None
            try:
                with transaction.atomic():
                    return FairPlayFlag.objects.create(
                        player=player, signals=list(signals), matches=list(match_ids),
                        strength=flag_strength(signals), created_at=now, updated_at=now,
                    )  # fmt: skip
            except IntegrityError:  # another worker opened it a moment ago: update that one
                flag = FairPlayFlag.objects.select_for_update().get(
                    player=player, status=FairPlayFlag.Status.OPEN
                )
        flag.signals = _merged(flag.signals, signals)
        flag.matches = list(match_ids)
        flag.strength = flag_strength(flag.signals)
        flag.updated_at = now
        flag.save(update_fields=["signals", "matches", "strength", "updated_at"])
    return flag


def _open_flag_locked(flag_id: int) -> FairPlayFlag:
    flag = FairPlayFlag.objects.select_for_update().filter(pk=flag_id).first()
    if flag is None:
        raise NotFound("no_such_flag")
    if flag.status != FairPlayFlag.Status.OPEN:
        raise Conflict("flag_resolved")
    return flag


def _resolve(flag: FairPlayFlag, status: str, moderator, reason: str) -> None:
    flag.status = status
    flag.resolved_by = moderator
    flag.resolved_at = timezone.now()
    flag.reason = reason
    flag.save(update_fields=["status", "resolved_by", "resolved_at", "reason"])


def flag_dismiss(*, moderator, flag_id: int, reason: str) -> FairPlayFlag:
    """The evidence is not enough: the flag closes, nothing happens to the player."""
    reason = reason_checked(reason)
    with transaction.atomic():
        flag = _open_flag_locked(flag_id)
        _resolve(flag, FairPlayFlag.Status.DISMISSED, moderator, reason)
        audit_record(moderator, ModerationAction.Kind.FAIR_PLAY_DISMISS, reason, player=flag.player)
    return flag


def player_warn(*, moderator, player, reason: str, flag_id: int | None = None) -> FairPlayWarning:
    """A warning the player reads once, on their next page (``warning_take``)."""
    reason = reason_checked(reason)
    with transaction.atomic():
        flag = _open_flag_locked(flag_id) if flag_id is not None else None
        if flag is not None:
            player = flag.player
            _resolve(flag, FairPlayFlag.Status.WARNED, moderator, reason)
        warning = FairPlayWarning.objects.create(
            player=player, flag=flag, moderator=moderator, reason=reason
        )
        audit_record(moderator, ModerationAction.Kind.FAIR_PLAY_WARN, reason, player=player)
    return warning


def warning_take(*, user) -> FairPlayWarning | None:
    """The player's oldest unread warning, marked read: each is shown once."""
    with transaction.atomic():
        warning = (
            FairPlayWarning.objects.select_for_update()
            .filter(player=user, read_at__isnull=True)
            .order_by("created_at", "pk")
            .first()
        )
        if warning is not None:
            warning.read_at = timezone.now()
            warning.save(update_fields=["read_at"])
    return warning


def player_mark(
    *, moderator, player, kind: str, reason: str, flag_id: int | None = None,
    match_ids: list[int] | None = None,
) -> FairPlayMark:  # fmt: skip
    """Mark the player: rated play closes, the leaderboard and the arenas' podiums leave them
    out, and each opponent's rating loss in the affected matches is refunded. The affected
    matches: ``match_ids`` (the moderator's choice), else those the flag's signals rest on.
    """
    reason = reason_checked(reason)
    if kind not in FairPlayMark.Kind.values:
        raise GameError("bad_mark_kind")
    with transaction.atomic():
        flag = _open_flag_locked(flag_id) if flag_id is not None else None
        if flag is not None:
            player = flag.player
        if fair_play_marked(player):
            raise Conflict("already_marked")
        if match_ids is None:
            match_ids = flag_match_ids(flag) if flag is not None else []
        mark = FairPlayMark.objects.create(
            player=player, kind=kind, flag=flag, moderator=moderator, reason=reason
        )
        if flag is not None:
            _resolve(flag, FairPlayFlag.Status.MARKED, moderator, reason)
        audit_record(moderator, ModerationAction.Kind.FAIR_PLAY_MARK, reason, player=player)
        mark.refunded = victims_refund(moderator=moderator, player=player, match_ids=match_ids,
                                       reason=reason)  # fmt: skip
        mark.save(update_fields=["refunded"])
    return mark


def flag_match_ids(flag: FairPlayFlag) -> list[int]:
    """The matches the flag's signals rest on (else the window's), oldest first."""
    ids = {int(m) for s in flag.signals for m in s.get("matches") or []}
    return sorted(ids or {int(m) for m in flag.matches})


def victims_refund(*, moderator, player, match_ids: list[int], reason: str) -> list[int]:
    """Each opponent who lost a rated match in ``match_ids`` to ``player`` gets back the
    points that match took: a refund row of their own in their rating history (starting at
    their rating now, so the history stays one chain), never twice for one match. Returns
    the matches refunded now; each is audited."""
    refunded = []
    matches = Match.objects.filter(
        pk__in=match_ids, status=MatchStatus.FINISHED, rated=True, winner=player
    ).filter(Q(player0=player) | Q(player1=player))
    for match in matches.select_related("player0", "player1").order_by("pk"):
        victim = match.opponent_of(player)
        loss = RatingChange.objects.filter(match=match, player=victim, refund=False).first()
        if loss is None or loss.delta >= 0:
            continue
        if RatingChange.objects.filter(match=match, player=victim, refund=True).exists():
            continue  # refunded already (an earlier mark)
        row = PlayerRating.objects.select_for_update().get(user=victim)
        value_field, played_field = PlayerRating.FIELDS[loss.ladder]
        value, played = row.on(loss.ladder)
        try:
            with transaction.atomic():
                RatingChange.objects.create(
                    player=victim, match=match, before=value, after=value - loss.delta,
                    delta=-loss.delta, played=max(played - 1, 0), ladder=loss.ladder,
                    refund=True,
                )  # fmt: skip
        except IntegrityError:
            continue  # refunded a moment ago
        PlayerRating.objects.filter(pk=row.pk).update(**{value_field: F(value_field) - loss.delta})
        audit_record(
            moderator, ModerationAction.Kind.FAIR_PLAY_REFUND,
            f"{-loss.delta:+d} to {victim.username}: {reason}", match=match, player=victim,
        )  # fmt: skip
        refunded.append(match.pk)
    return refunded


def player_close(*, moderator, player, reason: str, flag_id: int | None = None) -> None:
    """Close the account (the moderators' suspension), resolving the flag as a mark would."""
    reason = reason_checked(reason)
    with transaction.atomic():
        flag = _open_flag_locked(flag_id) if flag_id is not None else None
        if flag is not None:
            player = flag.player
            _resolve(flag, FairPlayFlag.Status.MARKED, moderator, reason)
        player_suspend(moderator=moderator, player=player, reason=reason)


def appeal_make(*, user, text: str) -> FairPlayAppeal:
    """The marked player's appeal against their mark: once per mark."""
    text = (text or "").strip()
    if not text:
        raise GameError("appeal_empty")
    if len(text) > APPEAL_LENGTH:
        raise GameError("appeal_too_long", most=APPEAL_LENGTH)
    with transaction.atomic():
        mark = (
            FairPlayMark.objects.select_for_update()
            .filter(player=user, lifted_at__isnull=True)
            .first()
        )
        if mark is None:
            raise NotAllowed("appeal_not_marked")
        if FairPlayAppeal.objects.filter(mark=mark).exists():
            raise Conflict("appeal_made")
        return FairPlayAppeal.objects.create(mark=mark, player=user, text=text)


def appeal_answer(*, moderator, appeal_id: int, outcome: str, answer: str) -> FairPlayAppeal:
    """The moderator's answer, which the player reads on their settings page. Upheld: the
    mark stays. Granted: the mark is lifted (rated play opens, the leaderboard and podiums
    list the player again); the victims' refunds stay, as the matches' own changes do."""
    answer = reason_checked(answer)
    if outcome not in FairPlayAppeal.Outcome.values:
        raise GameError("bad_outcome")
    with transaction.atomic():
        appeal = (
            FairPlayAppeal.objects.select_for_update().select_related("mark").filter(
                pk=appeal_id).first()
        )  # fmt: skip
        if appeal is None:
            raise NotFound("no_such_appeal")
        if appeal.outcome:
            raise Conflict("appeal_answered")
        now = timezone.now()
        appeal.outcome, appeal.answer = outcome, answer
        appeal.answered_by, appeal.answered_at = moderator, now
        appeal.save(update_fields=["outcome", "answer", "answered_by", "answered_at"])
        kind = ModerationAction.Kind.APPEAL_UPHOLD
        if outcome == FairPlayAppeal.Outcome.GRANTED:
            kind = ModerationAction.Kind.APPEAL_GRANT
            FairPlayMark.objects.filter(pk=appeal.mark_id).update(
                lifted_at=now, lifted_by=moderator
            )
        audit_record(moderator, kind, answer, player=appeal.player)
    return appeal


def appeal_answer_read(*, user) -> int:
    """The player has seen the answers to their appeals (their settings page showed them)."""
    return FairPlayAppeal.objects.filter(
        player=user, answered_at__isnull=False, answer_read_at__isnull=True
    ).update(answer_read_at=timezone.now())
