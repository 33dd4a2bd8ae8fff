"""Bring every catalogue up to date with the marked strings, then compile them.

    python manage.py update_catalogues

Writes the players' suggestions that moderators accepted and that are not in their catalogue
yet (when the database has the table: a fresh clone has none), runs makemessages for every
language of settings.CATALOGUE_LANGUAGES (new strings arrive
empty in the others, for translators), fills the English catalogue (English is the source:
each string is its own translation) and compiles every catalogue (compilemessages, which
needs gettext).
"""

from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DatabaseError

from games import services
from games.i18n import catalogues

# Where no word of the site is: makemessages reads every .html, .txt and .py file it finds
# and writes a work file beside each one that is not Python (static/fonts/OFL.txt.py), which
# another process serving the static files may see come and go.
IGNORED = [
    ".venv", "staticfiles", "tests", "bench", "artifacts", "locale", "static", "clients",
    "docs", "deploy",
]  # fmt: skip


class Command(BaseCommand):
    help = "makemessages for every language, fill the English catalogue, compilemessages."

    def handle(self, *args, **options) -> None:
        codes = [code for code, _name in settings.CATALOGUE_LANGUAGES]
        try:
            accepted = services.translations_apply()
        except DatabaseError:  # no database here, or not migrated
            accepted = 0
        if accepted:
            self.stdout.write(f"accepted suggestions written: {accepted}")
        call_command(
            "makemessages", locale=codes, ignore_patterns=IGNORED, no_location=True,
            no_obsolete=True, verbosity=0,
        )  # fmt: skip
        for code in codes:
            catalogue = catalogues.read(catalogues.path_of(code))
            catalogue.metadata["Language"] = code  # makemessages leaves it blank
            if code == "en":
                for entry in catalogue:
                    if "fuzzy" in entry.flags:
                        entry.flags.remove("fuzzy")
                    if entry.msgid_plural:
                        entry.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
                    else:
                        entry.msgstr = entry.msgid
            catalogue.save()
        call_command("compilemessages", ignore_patterns=IGNORED, verbosity=0)
        for code in codes:
            left = len(catalogues.missing(catalogues.read(catalogues.path_of(code))))
            state = "complete" if not left else f"{left} strings to translate"
            self.stdout.write(f"{code}: {state}")
