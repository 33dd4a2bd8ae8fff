"""Queue the analysis of every finished match that has none (matches that ended before the
analysis existed) or has one an older version of the analysis made (``analysis.VERSION``:
raised when a fix changes its values). The task workers do the work (seconds a match); a
match analysed meanwhile is skipped by its task, so running this twice does no harm."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Queue the analysis of finished matches that have none, or an outdated one."

    def handle(self, *args, **options) -> None:
        queued = services.analyses_queue()
        self.stdout.write(f"Queued the analysis of {queued} finished match(es).")
        # Analyses stored before the weak spots and private puzzles existed: read, not redone.
        read = services.training_backfill()
        self.stdout.write(f"Read {read} stored analysis(es) for weak spots and own puzzles.")
