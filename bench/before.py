"""A module of the site as an older commit had it, imported beside today's: the benches that
compare a replacement with what it replaced read the old one from git, so nothing of it stays
in the tree (``bench/throttle.py``, ``bench/cors.py``)."""

from __future__ import annotations

import subprocess
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_at(rev: str, path: str) -> types.ModuleType:
    """``path`` (``games/api/cors.py``) as of ``rev``, as the module ``<package>._<name>_before``
    of the same package, so that its relative imports find today's neighbours."""
    source = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    package = path.removesuffix(".py").replace("/", ".").rsplit(".", 1)
    module = types.ModuleType(f"{package[0]}._{package[1]}_before")
    module.__package__ = package[0]
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)  # noqa: S102
    return module
