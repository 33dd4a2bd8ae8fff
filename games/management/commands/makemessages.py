"""Django's makemessages, reading the board's Jinja2 template (``templates/jinja2/*.jinja``) too.

Django's own command reads Python files and Django templates. The board is a Jinja2 template
(games/presentation/jinja.py) whose words are the same gettext messages; for each ``.jinja``
file this hands xgettext one Python gettext call per message that Jinja2's own extractor finds
there, on the message's line. ``manage.py update_catalogues`` and the catalogue tests run this
command.
"""

from __future__ import annotations

from django.core.management.commands import makemessages
from django.template import engines

JINJA = ".jinja"


class BuildFile(makemessages.BuildFile):
    def preprocess(self) -> None:
        if not self.path.endswith(JINJA):
            return super().preprocess()
        with open(self.path, encoding="utf-8") as handle:
            source = handle.read()
        lines = [""] * (source.count("\n") + 1)
        for line, function, message in engines["jinja2"].env.extract_translations(source):
            strings = message if isinstance(message, tuple) else (message,)
            arguments = ", ".join(repr(text) for text in strings if text is not None)
            lines[line - 1] += f"{function}({arguments}); "
        with open(self.work_path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines))


class Command(makemessages.Command):
    build_file_class = BuildFile

    def handle(self, *args, **options) -> None:
        if options["domain"] == "django" and not options["extensions"]:
            options["extensions"] = ["html", "txt", "py", JINJA.lstrip(".")]
        super().handle(*args, **options)
