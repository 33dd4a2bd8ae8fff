"""The layers of ``games`` (CONTRIBUTING draws them) import one way, followed transitively:
import-linter's contracts in pyproject.toml (``[tool.importlinter]``: the layers, presentation
reaching no read and no write, the engine and the bots on their own), checked by running
``lint-imports`` as ``make lint`` does. What it cannot see is guarded here: an import by name
(``importlib.import_module``), which no contract follows, and a loop of imports run when a
module is imported (the private names: tests/test_code_rules.py). Each guard also runs on a
scratch copy of ``games`` with a breach planted, and must find it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .imports import graph, project_imports

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"


def lint_imports(root: Path) -> tuple[int, str]:
    """``lint-imports`` run on the ``games`` below ``root`` with its pyproject.toml: its exit
    code and what it printed, in lines wide enough that no chain is cut."""
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "300"}
    done = subprocess.run(
        [sys.executable, "-c", command, "--no-cache", "--no-logo", "--config", "pyproject.toml"],
        cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def imports_by_name(games: Path) -> list[str]:
    """``importlib.import_module("games...")`` and the like: import-linter does not see them."""
    return [
        f"{found.module}:{found.line} imports {found.target} by name"
        for found in project_imports(games)
        if found.by_name and found.target.split(".")[0] == "games"
    ]


def import_cycles(games: Path) -> list[list[str]]:
    """Loops of imports that run when a module is imported. A package's own modules import
    from it and it re-exports them: not a loop."""
    edges = graph(games, top_level_only=True)
    cycles = []
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> None:
        for target in sorted(edges[node]):
            if target in trail:
                cycles.append([*trail[trail.index(target) :], target])
            elif target not in done:
                visit(target, [*trail, target])
        done.add(node)

    for start in sorted(edges):
        if start not in done:
            visit(start, [start])

    def within_a_package(cycle: list[str]) -> bool:
        return any(all(m == p or m.startswith(p + ".") for m in cycle) for p in cycle)

    return [c for c in cycles if not within_a_package(c)]


def test_the_import_contracts_are_kept():
    code, output = lint_imports(ROOT)
    assert code == 0, output
    assert "4 kept, 0 broken" in output


def test_no_module_of_games_imports_one_of_games_by_name():
    assert imports_by_name(GAMES) == []


def test_no_module_of_games_imports_one_that_imports_it_back():
    assert import_cycles(GAMES) == []


# The guards on a scratch copy, each with one breach planted.


@pytest.fixture
def scratch(tmp_path) -> Path:
    shutil.copytree(
        GAMES, tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__", "migrations")
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def plant(root: Path, where: str, line: str, inside_a_function: bool = False) -> int:
    """Adds ``line`` at the end of ``games/<where>``; returns its line number."""
    path = root / "games" / where
    text = path.read_text().rstrip("\n") + "\n\n"
    if inside_a_function:
        text += "\ndef _planted():\n"
        line = "    " + line
    path.write_text(text + line + "\n")
    return len(text.splitlines()) + 1


def broken(root: Path) -> str:
    code, output = lint_imports(root)
    assert code == 1, output
    return output


def test_the_layer_contract_sees_a_write_reaching_presentation_through_a_function(scratch):
    line = plant(scratch, "services/core.py", "from ..presentation import refusals", True)
    output = broken(scratch)
    assert "games.services is not allowed to import games.presentation" in output
    assert f"games.services.core -> games.presentation.refusals (l.{line})" in output


def test_the_layer_contract_sees_an_absolute_import(scratch):
    line = plant(scratch, "public/match.py", "import games.web.forms")
    output = broken(scratch)
    assert "games.public is not allowed to import games.web" in output
    assert f"games.public.match -> games.web.forms (l.{line})" in output


def test_the_layer_contract_wants_a_layer_for_every_new_module(scratch):
    (scratch / "games" / "cards.py").write_text("SUITS = 'CDHS'\n")
    output = broken(scratch)
    assert "The following modules are not listed as layers:\n\n- games.cards" in output


def test_the_presentation_contract_follows_imports_through_other_modules(scratch):
    # The public face (a read's value) reaching a selector: presentation now reads, two steps on.
    line = plant(scratch, "public/match.py", "from ..db.selectors import rating_of")
    output = broken(scratch)
    assert "games.presentation is not allowed to import games.db.selectors" in output
    assert f"games.public.match -> games.db.selectors (l.{line})" in output


@pytest.mark.parametrize(
    ("where", "line", "seen"),
    [
        ("engine/view.py", "from .. import bots",
         "games.engine is not allowed to import games.bots"),
        ("engine/rules.py", "from django.db import models",
         "games.engine is not allowed to import django"),
        ("bots/easy.py", "from ..errors import GameError",
         "games.bots is not allowed to import games.errors"),
        ("bots/medium.py", "import channels.layers",
         "games.bots is not allowed to import channels"),
    ],
)  # fmt: skip
def test_the_engine_and_bots_contracts_see_what_they_may_not_import(scratch, where, line, seen):
    number = plant(scratch, where, line)
    output = broken(scratch)
    assert seen in output
    assert f"(l.{number})" in output


def test_the_by_name_guard_sees_importlib(scratch):
    line = plant(scratch, "models/match.py", 'importlib.import_module("games.services.core")')
    assert imports_by_name(scratch / "games") == [
        f"games.models.match:{line} imports games.services.core by name"
    ]


def test_the_cycle_guard_sees_a_loop(scratch):
    plant(scratch, "models/match.py", "from ..services import core")
    assert any(
        {"games.models.match", "games.services.core"} <= set(c)
        for c in import_cycles(scratch / "games")
    )
