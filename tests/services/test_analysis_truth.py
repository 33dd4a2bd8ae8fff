"""What the worker stores of a match's analysis is what it searched: the opponent hands a
decision had on a long match, not the number it was asked for."""

from __future__ import annotations

import pytest

from games import services
from games.bots import analysis
from games.models import MatchAnalysis
from tests.support.matches import play_to_the_end, start


@pytest.mark.django_db
def test_a_match_over_the_work_budget_stores_the_fewer_hands_it_searched(alice, bob, monkeypatch):
    match = play_to_the_end(start(alice, bob, target=3, rated=False), seed=3)
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    monkeypatch.setattr(analysis, "WORK", 100)  # a match this long is over a smaller budget
    monkeypatch.setattr(analysis, "MIN_SAMPLES", 2)
    each = analysis.budget(int(match.seed), match.rules, moves, 8)
    assert 2 <= each < 8
    assert services.match_analyse(match_id=match.pk, samples=8)
    stored = MatchAnalysis.objects.get(match=match)
    assert stored.samples == stored.result["samples"] == each
    searched = [d["samples"] for d in stored.result["decisions"]]
    assert max(searched) == each and all(1 <= n <= each for n in searched)
    assert stored.result["version"] == analysis.VERSION


@pytest.mark.django_db
def test_a_short_match_stores_the_hands_it_was_asked_for(alice, bob):
    match = play_to_the_end(start(alice, bob, target=3, rated=False), seed=3)
    assert services.match_analyse(match_id=match.pk, samples=8)
    stored = MatchAnalysis.objects.get(match=match)
    assert stored.samples == stored.result["samples"] == 8
