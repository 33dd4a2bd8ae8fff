"""The insights' rows of a finished match (``InsightHand``, ``InsightDecision``): written when
the match ends, given their losses when its analysis is stored, removed when it is voided.
A player's insights page sums these rows (``games.db.selectors.insights``) and never replays
a match. Every write here rewrites a match's rows whole, so running it twice changes nothing.
"""

from __future__ import annotations

from django.db import transaction

from ..bots import hand_facts
from ..models import (
    InsightDecision,
    InsightHand,
    Match,
    MatchAnalysis,
    MatchStatus,
    Move,
    PlayerSettings,
)


def _people(match: Match) -> dict[int, int]:
    """The seats a person (or a bot account) sat in, and their user ids: not the computer's."""
    seats = {0: match.player0_id, 1: match.player1_id}
    if match.computer:
        del seats[1]  # the computer plays seat 1
    return {seat: pk for seat, pk in seats.items() if pk is not None}


def insights_record(*, match: Match, losses: dict[int, float] | None = None) -> int:
    """Write the rows of the finished match ``match``: each finished hand and each choice, for
    each seat a person sat in, with each choice's loss from the analysis (``losses``: by the
    move's place in the match; else read from a stored analysis, if any). Returns how many
    rows it wrote (none for a match that is not finished)."""
    if match.status != MatchStatus.FINISHED:
        return 0
    moves = list(Move.objects.filter(match=match).values_list("seat", "action", "created_at"))
    if losses is None:
        losses = _stored_losses(match.pk)
    hands, choices = hand_facts.facts(int(match.seed), match.rules, [m[:2] for m in moves])
    people = _people(match)
    common = {
        "match_id": match.pk,
        "finished_at": match.finished_at,
        "rated": match.rated,
        "computer": bool(match.computer),
        "deck": match.deck,
        "target": match.target,
    }
    hand_rows = [
        InsightHand(
            player_id=people[h.seat],
            hand=h.hand,
            dealer=h.dealer,
            maker=h.maker,
            bid=h.bid,
            trumps=h.trumps,
            bowers=h.bowers,
            scored=h.scored,
            conceded=h.conceded,
            outcome=h.outcome,
            **common,
        )
        for h in hands
        if h.seat in people
    ]
    timed = not match.days_per_move  # days a move are not a time to think
    choice_rows = [
        InsightDecision(
            player_id=people[c.seat],
            index=c.index,
            kind=c.kind,
            seconds=_seconds(moves, c) if timed else None,
            loss=losses.get(c.index),
            **common,
        )
        for c in choices
        if c.seat in people
    ]
    with transaction.atomic():
        insights_forget(match_id=match.pk)
        InsightHand.objects.bulk_create(hand_rows)
        InsightDecision.objects.bulk_create(choice_rows)
    return len(hand_rows) + len(choice_rows)


def _seconds(moves: list, choice: hand_facts.Choice) -> float | None:
    """The time from the move before to this one; None for a hand's first move (its time
    includes the deal played on the table) and the match's first."""
    if choice.first_of_hand or choice.index == 0:
        return None
    return (moves[choice.index][2] - moves[choice.index - 1][2]).total_seconds()


def _stored_losses(match_id: int) -> dict[int, float]:
    """Each analysed decision's loss in points, by the move's place in the match."""
    found = MatchAnalysis.objects.filter(match_id=match_id).values_list("result", flat=True)
    result = next(iter(found), None) or {}
    # Accuracy's one scale (analysis.Decision.accuracy_loss); before version 4, the points.
    return {d["index"]: d.get("accuracy_loss", d["loss"]) for d in result.get("decisions", ())}


def insights_losses(*, match_id: int, losses: dict[int, float]) -> int:
    """Give the match's choices their losses from its analysis, just stored (in points, by
    the move's place); returns how many rows changed. A match whose rows were never written
    (it ended before the insights existed) gets them all now."""
    rows = list(InsightDecision.objects.filter(match_id=match_id))
    if not rows:
        match = Match.objects.filter(pk=match_id).first()
        return insights_record(match=match, losses=losses) if match else 0
    for row in rows:
        row.loss = losses.get(row.index)
    return InsightDecision.objects.bulk_update(rows, ["loss"], batch_size=500)


def insights_forget(*, match_id: int) -> None:
    """Remove a match's rows (it was voided: it counts no more)."""
    InsightHand.objects.filter(match_id=match_id).delete()
    InsightDecision.objects.filter(match_id=match_id).delete()


def insights_backfill(*, batch: int = 200) -> int:
    """Write the rows of every finished match that has none (matches that ended before the
    insights existed); returns how many matches. A match's rows are written in one
    transaction, so an interrupted run resumes where it stopped."""
    done = InsightHand.objects.values("match_id")
    missing = Match.objects.filter(status=MatchStatus.FINISHED).exclude(pk__in=done)
    count = 0
    for match in missing.order_by("pk").iterator(chunk_size=batch):
        insights_record(match=match)
        count += 1
    return count


def insights_public_set(*, user, allowed: bool) -> None:
    """Whether players other than ``user`` may see ``user``'s insights."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(
            user=user, defaults={"insights_public": bool(allowed)}
        )
