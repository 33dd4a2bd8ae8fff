"""Check every stored puzzle again with a full count of the opponent's hands, where they are
few enough to count (``games.bots.puzzles.recheck``): puzzles stored before the miner counted
them could have cleared the bar through the luck of a sample. Those the count does not confirm
are retired (shown nowhere again; their answers and the ratings they moved stay), those it
confirms take the count's values. Run it once after deploying; run again, it changes nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Retire the stored puzzles a full count of the opponent's hands does not confirm."

    def handle(self, *args, **options) -> None:
        done = services.puzzles_confirm()
        self.stdout.write(
            f"Counted {done.checked} puzzle(s) in full: {done.retired} retired,"
            f" {done.updated} confirmed with new values, {done.unchanged} confirmed unchanged."
        )
        self.stdout.write(f"Left {done.left} puzzle(s) as they were: too many hands to count.")
