"""Write the card faces' sprite, static/img/cards.svg, from games/card_faces.py."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from games.presentation.card_faces import sprite


class Command(BaseCommand):
    help = "Draw the card faces into static/img/cards.svg."

    def handle(self, *args, **options) -> None:
        path = settings.BASE_DIR / "static" / "img" / "cards.svg"
        path.write_text(sprite(), encoding="utf-8")
        self.stdout.write(f"Wrote {path} ({path.stat().st_size} bytes)")
