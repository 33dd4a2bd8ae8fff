"""Insights' rows for tests: finished matches played through the services, and rows built
directly with known facts where a figure's count must be exact (a bid with three trumps
euchred twice...)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import InsightDecision, InsightHand, Match, MatchStatus
from tests.support import matches


def played(alice, bob, count: int, **options) -> list[Match]:
    """``count`` matches between alice (seat 0... as the deal gives it) and bob, each played
    to the end with random legal moves through the services."""
    return [
        matches.play_to_the_end(matches.start(alice, bob, **options), seed=n) for n in range(count)
    ]


def finished_match(alice, bob, days_ago: int = 0, **options) -> Match:
    """A finished match row (no moves: its insights' rows are built by hand with ``hands``)."""
    when = timezone.now() - timedelta(days=days_ago)
    fields = {"deck": 24, "target": 10, "rated": True, **options}
    return Match.objects.create(
        player0=alice, player1=bob, created_by=alice, seed="1", status=MatchStatus.FINISHED,
        finished_at=when, **fields,
    )  # fmt: skip


def hands(player, match: Match, facts: list[dict]) -> list[InsightHand]:
    """Hand rows of ``player`` in ``match``, one for each dict of facts (defaults: a hand
    defended and lost by a point)."""
    common = {
        "finished_at": match.finished_at, "rated": match.rated, "computer": bool(match.computer),
        "deck": match.deck, "target": match.target,
    }  # fmt: skip
    base = {"dealer": False, "maker": False, "bid": "", "scored": 0, "conceded": 1,
            "outcome": "made"}  # fmt: skip
    return InsightHand.objects.bulk_create(
        InsightHand(player=player, match=match, hand=n, **common, **{**base, **f})
        for n, f in enumerate(facts)
    )


def decisions(player, match: Match, losses: list[float | None], seconds: float = 2.0) -> None:
    common = {
        "finished_at": match.finished_at, "rated": match.rated, "computer": bool(match.computer),
        "deck": match.deck, "target": match.target,
    }  # fmt: skip
    InsightDecision.objects.bulk_create(
        # A move is one seat's: the two players' moves take turns, as in a match.
        InsightDecision(
            player=player,
            match=match,
            index=2 * n + (player.pk != match.player0_id),
            kind="play",
            seconds=seconds,
            loss=loss,
            **common,
        )  # fmt: skip
        for n, loss in enumerate(losses)
    )
