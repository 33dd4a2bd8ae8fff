"""End every match whose move clock ran out: a manual sweep.

The worker ends each clocked turn at its deadline (``tasks.clock_expire``); this is for an
operator who wants to be sure, say after the workers were down for a while. Safe to run as
often as you like, on any number of machines at once: each match is changed under its row
lock, and a second run finds nothing left to do.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db.models import Q
from django.utils import timezone

from games import services
from games.models import Match, MatchStatus


class Command(BaseCommand):
    help = "End matches whose move clock ran out."

    def handle(self, *args, **options) -> None:
        now = timezone.now()
        clocked = Match.objects.filter(status=MatchStatus.ACTIVE).filter(
            Q(move_seconds__isnull=False) | Q(days_per_move__isnull=False)
        )
        expired = []
        for match in clocked.select_related("player0", "player1").iterator(chunk_size=200):
            if match.deadline is not None and match.deadline <= now:
                if services.match_expire(match_id=match.pk):
                    expired.append(match.pk)
        self.stdout.write(
            f"Ended {len(expired)} match{'es' if len(expired) != 1 else ''} on time"
            + (f" ({', '.join(f'#{pk}' for pk in expired)})" if expired else "")
            + "."
        )
