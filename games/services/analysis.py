"""The analysis of a finished match: worked out by the task worker once the match is over,
stored once, and announced to the match's pages."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import tasks
from ..bots import analysis
from ..models import Match, MatchAnalysis, MatchStatus
from . import events


def match_analyse(*, match_id: int, samples: int | None = None) -> bool:
    """Analyse the finished match ``match_id`` and store it; False if there is nothing to do
    (no such match, not finished, or analysed already). The search runs outside any
    transaction: it takes seconds, and the match no longer changes."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).first()
    if match is None or MatchAnalysis.objects.filter(match_id=match_id).exists():
        return False
    samples = samples or settings.ANALYSIS_SAMPLES
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    decisions = analysis.analyse(int(match.seed), match.rules, moves, samples=samples)
    with transaction.atomic():
        _, created = MatchAnalysis.objects.get_or_create(
            match_id=match_id, defaults={"samples": samples, "result": analysis.as_json(decisions)}
        )
        if created:
            Match.objects.filter(pk=match_id).update(analysed_at=timezone.now())
            # No new version: nothing in the match changed, and a rematch offer's lapse is
            # keyed by it. The pages re-render their boards, which now link to the analysis.
            events.send_event_on_commit(match_id)
    return created


def analyses_queue() -> int:
    """Queue the analysis of every finished match without one (matches that ended before it
    existed); returns how many. Each task skips a match analysed meanwhile."""
    missing = Match.objects.filter(status=MatchStatus.FINISHED, analysed_at=None)
    pks = list(missing.values_list("pk", flat=True))
    with transaction.atomic():
        for pk in pks:
            tasks.schedule_analysis(pk)
    return len(pks)
