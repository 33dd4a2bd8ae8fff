"""Replay every match from its seed, options and moves; report any whose snapshot disagrees."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from games.engine import Action, IllegalAction, replay, state_to_json
from games.models import Match


class Command(BaseCommand):
    help = "Replay every match's moves and check that its stored snapshot agrees (exit 1 if not)."

    def handle(self, *args, **options) -> None:
        checked = 0
        bad = []
        matches = Match.objects.exclude(snapshot=None).order_by("pk")
        for match in matches.iterator(chunk_size=200):
            checked += 1
            moves = match.moves.order_by("seq").values_list("seat", "action")
            try:
                state = replay(int(match.seed), match.rules, (Action.parse(s, a) for s, a in moves))
            except IllegalAction as error:
                bad.append(f"Match {match.pk}: its moves do not replay ({error})")
                continue
            if state_to_json(state) != match.snapshot:
                bad.append(f"Match {match.pk}: the snapshot disagrees with its {len(moves)} moves")
        if bad:
            for line in bad:
                self.stderr.write(line)
            self.stderr.write(f"{len(bad)} of {checked} matches disagree")
            sys.exit(1)
        noun = "match" if checked == 1 else "matches"
        self.stdout.write(f"{checked} {noun} checked, all snapshots agree")
