"""The rules engine is a library: only the standard library below ``games/engine``; the bots
build on the engine alone (no Django, nothing that could reach a match's hidden state). Every
import counts: absolute, relative (resolved against the file's package), inside a function,
and ``importlib.import_module`` / ``__import__`` with a constant name. The guard also runs on
a scratch copy with a breach planted, and must find it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.imports import project_imports

GAMES = Path(__file__).resolve().parents[2] / "games"
STANDARD = set(sys.stdlib_module_names) | {"__future__"}
# What each package may import besides the standard library.
ALLOWED = {"engine": ("games.engine",), "bots": ("games.engine", "games.bots")}


def breaches(games: Path) -> list[str]:
    """Each import of ``games/engine`` or ``games/bots`` outside what the package may use."""
    found = []
    for package, allowed in ALLOWED.items():
        for each in project_imports(games):
            if not each.module.startswith(f"games.{package}"):
                continue
            # ``from .. import bots`` takes a module from the top package: that module counts.
            reached = (
                [f"games.{n}" for n in each.names] if each.target == "games" else [each.target]
            )
            for target in reached:
                if target.split(".")[0] in STANDARD:
                    continue
                if any(target == a or target.startswith(a + ".") for a in allowed):
                    continue
                found.append(f"{each.module}:{each.line} imports {target}")
    return found


def test_the_engine_and_the_bots_import_only_what_they_may():
    assert len(list((GAMES / "engine").glob("*.py"))) >= 5
    assert len(list((GAMES / "bots").glob("*.py"))) >= 5
    assert breaches(GAMES) == []


@pytest.fixture
def scratch(tmp_path) -> Path:
    copy = tmp_path / "games"
    for package in ALLOWED:
        shutil.copytree(
            GAMES / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return copy


def plant(games: Path, relative_path: str, line: str) -> None:
    path = games / relative_path
    path.write_text(path.read_text() + "\n" + line + "\n")


@pytest.mark.parametrize(
    ("where", "line", "seen"),
    [
        ("engine/view.py", "from ..models import Match", "games.models"),
        ("engine/rules.py", "from django.db import models", "django.db"),
        ("engine/selfplay.py", 'bots = importlib.import_module("games.bots")', "games.bots"),
        ("engine/state.py", "def later():\n    from .. import bots", "games.bots"),
        ("bots/hard.py", "from .. import services", "games.services"),
        ("bots/medium.py", "import games.models", "games.models"),
        ("bots/easy.py", "__import__('django')", "django"),
    ],
)
def test_the_guard_sees_each_kind_of_import(scratch, where, line, seen):
    assert breaches(scratch) == []
    plant(scratch, where, line)
    found = breaches(scratch)
    assert len(found) == 1 and found[0].endswith(f"imports {seen}"), found
