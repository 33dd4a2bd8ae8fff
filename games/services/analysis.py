"""The analysis of a finished match: worked out by the task worker once the match is over,
stored once with the puzzles found in it, and announced to the match's pages."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import tasks
from ..bots import analysis
from ..models import Match, MatchAnalysis, MatchStatus
from . import events, fairplay_signals, puzzles, training
from .insights import insights_losses


def current(result: dict) -> bool:
    """Whether a stored analysis was made by this version of it (before versions: 1)."""
    return result.get("version", 1) >= analysis.VERSION


def match_analyse(*, match_id: int, samples: int | None = None, signals: bool = True) -> bool:
    """Analyse the finished match ``match_id`` and store it; False if there is nothing to do
    (no such match, not finished, or analysed already by this version of the analysis: an
    older one is replaced). The search runs outside any transaction: it takes seconds, and
    the match no longer changes. Then, for a rated match between people, their fair-play
    signals (``signals``: False for a caller that checks them itself, bench/fairplay.py)."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).first()
    stored = MatchAnalysis.objects.filter(match_id=match_id)
    versions = stored.values_list("result__version", flat=True)  # not the whole analysis
    if match is None or any((version or 1) >= analysis.VERSION for version in versions):
        return False
    samples = samples or settings.ANALYSIS_SAMPLES
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    seed, rules = int(match.seed), match.rules
    decisions = analysis.analyse(seed, rules, moves, samples)
    # What was searched, not what was asked: a long match has fewer hands a decision.
    each = analysis.budget(seed, rules, moves, samples)
    result = analysis.as_json(decisions, analysis.hand_starts(seed, rules, moves), each)
    # The puzzles too (their confirming counts take up to a second): not with the rows locked.
    found = puzzles.puzzles_found(match=match, moves=moves, decisions=decisions)
    with transaction.atomic():
        row, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match_id=match_id, defaults={"samples": each, "result": result}
        )
        if not created:
            if current(row.result):
                return False  # another worker made it meanwhile
            row.samples, row.result = each, result
            row.save(update_fields=["samples", "result"])
        Match.objects.filter(pk=match_id).update(analysed_at=timezone.now())
        puzzles.puzzles_mine(match=match, moves=moves, decisions=decisions, found=found)
        training.flagged_record(match=match, moves=moves, decisions=decisions)
        insights_losses(match_id=match_id, losses={d.index: d.accuracy_loss for d in decisions})
        # No new version: nothing in the match changed, and a rematch offer's lapse is
        # keyed by it. The pages re-render their boards, which now link to the analysis.
        events.send_event_on_commit(match_id)
    if signals and match.rated and not match.computer:
        fairplay_signals.signals_check(match_id=match_id)  # reads the rows just committed
    return True


def analyses_queue() -> int:
    """Queue the analysis of every finished match without one (matches that ended before it
    existed) or with one an older version of it made; returns how many. Each task skips a
    match analysed meanwhile. A match keeps its old analysis until the new one is stored."""
    finished = Match.objects.filter(status=MatchStatus.FINISHED)
    missing = finished.filter(analysed_at=None).values_list("pk", flat=True)
    made = MatchAnalysis.objects.filter(match__status=MatchStatus.FINISHED)
    versions = made.values_list("match_id", "result__version")
    old = [pk for pk, version in versions if (version or 1) < analysis.VERSION]
    pks = sorted({*missing, *old})
    with transaction.atomic():
        for pk in pks:
            tasks.schedule_analysis(pk)
    return len(pks)
