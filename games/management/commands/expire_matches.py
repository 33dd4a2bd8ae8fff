"""End every match whose move clock ran out, and make the computer's overdue moves (for cron).

Pages and sockets already do both whenever someone opens a match; this catches the matches
nobody opens, so that a player who walked away still loses on time and the lobby lists stay
true. Safe to run as often as you like, on any number of machines at once: each match is
changed under its row lock, and a second run finds nothing left to do.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from games import computer, services
from games.models import Match, MatchStatus

# The server moves for the computer within a second or two; only a move this overdue was lost
# (its process died), so the command never races a live timer.
COMPUTER_OVERDUE = timedelta(seconds=30)


class Command(BaseCommand):
    help = "End matches whose move clock ran out; make the computer's overdue moves."

    def handle(self, *args, **options) -> None:
        now = timezone.now()
        active = Match.objects.filter(status=MatchStatus.ACTIVE)
        expired = []
        clocked = active.exclude(move_seconds=None).select_related("player0", "player1")
        for match in clocked.iterator(chunk_size=200):
            if match.deadline is not None and match.deadline <= now:
                if services.match_expire(match_id=match.pk):
                    expired.append(match.pk)
        moved = 0
        waiting = active.exclude(computer="").filter(turn_started_at__lte=now - COMPUTER_OVERDUE)
        for match_id in waiting.values_list("pk", flat=True):
            for _ in range(10):  # the computer may be to act again after its own move
                if not computer.play_turn(match_id):
                    break
                moved += 1
        self.stdout.write(
            f"Ended {len(expired)} match{'es' if len(expired) != 1 else ''} on time"
            + (f" ({', '.join(f'#{pk}' for pk in expired)})" if expired else "")
            + f"; made {moved} overdue computer move{'s' if moved != 1 else ''}."
        )
