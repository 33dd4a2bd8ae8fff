"""Write the insights' rows of every finished match that has none (matches that ended before
the insights existed): each finished hand and each choice, for each person who played it, with
the losses of its analysis if it has one. A match's rows are written in one transaction, so an
interrupted run resumes where it stopped, and running it twice does no harm."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Write the insights' rows of finished matches that have none."

    def handle(self, *args, **options) -> None:
        recorded = services.insights_backfill()
        self.stdout.write(f"Recorded the insights of {recorded} finished match(es).")
