"""The rules engine is a library: only the standard library below ``games/engine``; the bots
build on the engine alone (no Django, nothing that could reach a match's hidden state)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
BOTS = ENGINE.parent / "bots"


def imported_modules(path: Path, depth: int = 1) -> set[str]:
    """Absolute imports of a file, cut to their first ``depth`` dotted parts."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(".".join(alias.name.split(".")[:depth]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(".".join(node.module.split(".")[:depth]))
    return names


def test_the_engine_imports_only_the_standard_library():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 5
    for path in files:
        outside = imported_modules(path) - set(sys.stdlib_module_names) - {"__future__"}
        assert not outside, f"{path.name} imports {outside}"


def test_the_bots_import_only_the_engine_and_the_standard_library():
    files = sorted(BOTS.rglob("*.py"))
    assert len(files) >= 5
    allowed = set(sys.stdlib_module_names) | {"__future__", "games.engine"}
    for path in files:
        outside = {
            name for name in imported_modules(path, depth=2) if name.split(".")[0] not in allowed
        }
        outside -= allowed
        assert not outside, f"{path.name} imports {outside}"


def test_the_guard_would_notice_a_django_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from django.db import models\nimport json\n")
    assert imported_modules(bad) - set(sys.stdlib_module_names) == {"django"}
