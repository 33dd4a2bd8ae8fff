"""What the code of ``games`` may do where (the imports are import-linter's: tests/test_layers.py):
only the services, the reads' own package, the tasks, the management commands and the
migrations write rows or SQL; the services render no template; presentation queries nothing;
no module reaches another's private names. Each guard also runs on a scratch copy of
``games`` with a breach planted, and must find it (and only it)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.code_rules import ROOT, Breach, private_names, queries, rendering, writes

# What the guards report that is allowed, by file and code (not line). Each entry must still
# be found: one that is gone fails, so that the list only shrinks.
ALLOWED = {
    # Not a row: polib writing a language's .po file (the translators' suggestions, accepted).
    "games/i18n/catalogues.py: catalogue.save",
    # TODO(layers): the site's mails (a correspondence turn, an arena's start, a new device, an
    # address's link) are rendered by the one sender, mail_addresses.mail_send, which the
    # services the task worker runs call. Rendering them above the services (presentation)
    # needs the mail tasks out of games/tasks.py, which is in the services' layer: a decision
    # about where the worker's edge is, not made here.
    "games/services/mail_addresses.py: import django.template.loader.render_to_string",
    "games/services/mail_addresses.py: render_to_string",
}


def found(guard: Callable[[Path], list[Breach]], root: Path = ROOT) -> list[str]:
    return [str(b) for b in guard(root) if b.key not in ALLOWED]


def test_only_the_services_the_reads_the_tasks_and_the_commands_write():
    assert found(writes) == []


def test_the_services_render_no_template():
    assert found(rendering) == []


def test_presentation_queries_nothing():
    assert found(queries) == []


def test_no_module_reaches_another_modules_private_names():
    assert found(private_names) == []


def test_every_allowed_breach_is_still_there():
    seen = {b.key for guard in (writes, rendering, queries, private_names) for b in guard(ROOT)}
    assert ALLOWED - seen == set()


# The guards on a scratch copy, each with one breach planted.


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pristine")
    shutil.copytree(
        ROOT / "games", root / "games", ignore=shutil.ignore_patterns("__pycache__", "migrations")
    )
    return root


@pytest.fixture
def scratch(pristine, tmp_path) -> Path:
    shutil.copytree(pristine / "games", tmp_path / "games")
    return tmp_path


def planted(root: Path, guard, where: str, code: str) -> list[str]:
    """The breaches ``guard`` finds in ``root`` once ``code`` (a function's body) is added at
    the end of ``where``, beyond those it found before, as "line: code"."""
    before = {str(b) for b in guard(root)}
    path = root / where
    head = path.read_text().rstrip("\n") + "\n\n\ndef _planted():\n"
    first = len(head.splitlines()) + 1  # the body's first line
    path.write_text(head + "\n".join("    " + line for line in code.splitlines()) + "\n")
    after = guard(root)
    assert all(b.path == where and b.line >= first for b in after if str(b) not in before)
    return [f"{b.line - first + 1}: {b.code}" for b in after if str(b) not in before]


@pytest.mark.parametrize(
    ("where", "code", "seen"),
    [
        # A view writing a model: through its manager, a queryset, an instance, a form.
        ("games/web/views/lobby.py", "from ...models import Match\n"
         "Match.objects.filter(pk=1).update(status=3)", ["2: Match.objects.filter(...).update"]),
        ("games/web/views/lobby.py", "from ...models import Match\n"
         "rows = Match.objects.filter(pk=1)\nrows.update(status=3)", ["3: rows.update"]),
        ("games/web/views/players.py", "user.save(update_fields=['email'])", ["1: user.save"]),
        ("games/web/views/players.py", "form.save()", ["1: form.save"]),
        ("games/web/views/players.py", "follow.delete()", ["1: follow.delete"]),
        ("games/web/views/players.py", "Follow.objects.get_or_create(a=1)",
         ["1: Follow.objects.get_or_create"]),
        # A consumer writing, the async way; an API view creating; presentation in bulk.
        ("games/realtime/consumers.py", "async def act():\n    await match.asave()",
         ["2: match.asave"]),
        ("games/api/views/matches.py", "Move.objects.create(seq=1)", ["1: Move.objects.create"]),
        ("games/api/views/matches.py", "match.moves.update_or_create(seq=1)",
         ["1: match.moves.update_or_create"]),
        ("games/presentation/board.py", "Rating.objects.bulk_create([])",
         ["1: Rating.objects.bulk_create"]),
        # games.db.prepared's own writes, called from an edge.
        ("games/realtime/room.py", "from ..db.prepared import insert\ninsert(row)", ["2: insert"]),
        # SQL by hand outside the services and the reads.
        ("games/web/views/site.py", "from django.db import connection\n"
         "with connection.cursor() as cursor:\n    cursor.execute('UPDATE x')",
         ["2: connection.cursor"]),
        ("games/api/views/common.py", "connections['default'].cursor()",
         ["1: connections['default'].cursor"]),
        ("games/web/views/site.py", "Match.objects.raw('SELECT 1')", ["1: Match.objects.raw"]),
        ("games/admin/match.py", "queryset.extra(where=['1=1'])", ["1: queryset.extra"]),
        ("games/web/views/site.py", "from django.db.models.expressions import RawSQL\n"
         "Match.objects.annotate(x=RawSQL('1', []))", ["2: RawSQL"]),
    ],
)  # fmt: skip
def test_the_write_guard_sees_a_write_or_sql_outside_the_services(scratch, where, code, seen):
    assert planted(scratch, writes, where, code) == seen


def test_the_write_guard_leaves_dicts_sessions_caches_and_the_models_own_save(scratch):
    code = (
        "context = {}\ncontext.update(a=1)\nrequest.session.save()\ncache.delete('k')\n"
        "caches['x'].delete('k')\nsuper().save()\nseen = set()\nseen.update([1])"
    )
    assert planted(scratch, writes, "games/web/views/lobby.py", code) == []


def test_the_write_guard_lets_the_services_the_tasks_and_the_commands_write(scratch):
    code = "Match.objects.filter(pk=1).update(status=3)\nconnection.cursor()"
    for where in ("games/services/core.py", "games/tasks.py", "games/db/statements.py",
                  "games/management/commands/expire_matches.py"):  # fmt: skip
        assert planted(scratch, writes, where, code) == []


@pytest.mark.parametrize(
    ("code", "seen"),
    [
        ("from django.template.loader import render_to_string\n"
         "render_to_string('mail/x.txt', {})",
         ["1: import django.template.loader.render_to_string", "2: render_to_string"]),
        ("from django.template import loader\nloader.get_template('x.html').render({})",
         ["1: import django.template.loader", "2: loader.get_template",
          "2: loader.get_template(...).render"]),
        ("from django.shortcuts import render\nreturn render(request, 'x.html')",
         ["1: import django.shortcuts.render", "2: render"]),
        ("import jinja2\njinja2.Environment().from_string('{{ x }}')",
         ["1: import jinja2", "2: jinja2.Environment", "2: jinja2.Environment().from_string"]),
        ("from ..presentation.jinja import environment\nboard = template.render(context)",
         ["1: import games.presentation.jinja.environment", "2: template.render"]),
    ],
)  # fmt: skip
def test_the_rendering_guard_sees_a_service_render(scratch, code, seen):
    assert sorted(planted(scratch, rendering, "games/services/pairing.py", code)) == sorted(seen)


@pytest.mark.parametrize(
    ("code", "seen"),
    [
        ("from ..models import Match\nMatch.objects.filter(pk=1).first()",
         ["2: Match.objects", "2: Match.objects.filter"]),
        ("return list(match.moves.all())", ["1: match.moves.all"]),
        ("return match.moves.filter(seat=0).exists()", ["1: match.moves.filter"]),
        ("return type(match)._default_manager.count()", ["1: type(...)._default_manager"]),
        ("from django.db import connection\nconnection.cursor().execute('SELECT 1')",
         ["2: connection.cursor"]),
        ("return Match.objects.raw('SELECT 1')", ["1: Match.objects", "1: Match.objects.raw"]),
    ],
)  # fmt: skip
def test_the_query_guard_sees_presentation_reach_the_database(scratch, code, seen):
    assert sorted(planted(scratch, queries, "games/presentation/board.py", code)) == sorted(seen)


def test_the_query_guard_watches_the_template_tags_too(scratch):
    code = "return user.follows.select_related('followed')"
    where = "games/templatetags/players.py"
    assert planted(scratch, queries, where, code) == ["1: user.follows.select_related"]


@pytest.mark.parametrize(
    ("where", "code", "seen"),
    [
        ("games/services/pairing.py", "from .core import _planted_helper",
         ["1: from games.services.core import _planted_helper"]),
        ("games/services/pairing.py", "from . import core\nreturn core._planted_helper()",
         ["2: games.services.core._planted_helper"]),
        ("games/web/views/lobby.py", "import games.services.core\n"
         "games.services.core._save(None)", ["2: games.services.core._save"]),
        ("games/web/views/lobby.py", "import games.public.match as public\npublic._cache = None",
         ["2: games.public.match._cache"]),
        ("games/web/views/lobby.py", "from ... import services\nservices.core._save(None)",
         ["2: games.services.core._save"]),
        ("games/realtime/lobby.py", "from . import room\nreturn getattr(room, '_rooms')",
         ["2: games.realtime.room._rooms"]),
    ],
)  # fmt: skip
def test_the_private_names_guard_sees_one_taken_or_reached(scratch, where, code, seen):
    assert planted(scratch, private_names, where, code) == seen


def test_the_private_names_guard_leaves_own_names_gettext_and_other_libraries(scratch):
    code = (
        "from django.utils.translation import gettext as _\n"
        "self._cache = _('x')\nimport json\njson._default_encoder\n"
        "from . import lobby\nlobby.__name__\n_planted = 1"
    )
    assert planted(scratch, private_names, "games/web/views/site.py", code) == []
