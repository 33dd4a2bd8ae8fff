"""The layers of ``games`` (CONTRIBUTING draws them) import one way, followed transitively:
each module reaches, through any chain of imports (relative ones, and those inside a
function, included), only modules of its own layer or the ones below it; presentation reaches
no read and no write; no module takes another's private names; no module imports, when it is
imported, one that imports it back. Each guard is also run on a scratch copy of ``games`` with
a breach planted, and must find it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .imports import graph, project_imports, reachable

GAMES = Path(__file__).resolve().parents[1] / "games"

# Bottom to top; a module belongs to the first layer one of whose prefixes it starts with. The
# engine and the bots are guarded more strictly still (tests/engine/test_purity.py).
LAYERS = [
    ("pure", ("games.engine", "games.bots", "games.rating", "games.arena", "games.errors",
              "games.caches")),
    ("models", ("games.models",)),
    ("reads", ("games.db", "games.i18n")),
    ("writes", ("games.services", "games.tasks")),
    ("presentation", ("games.presentation", "games.templatetags")),
    ("edges", ("games.web", "games.realtime", "games.api", "games.admin", "games.apps",
               "games.management")),
]  # fmt: skip
# What presentation must not reach: it builds from values it is given.
READS_AND_WRITES = ("games.db.selectors", "games.db.prepared", "games.db.statements",
                    "games.services", "games.tasks")  # fmt: skip


def layer_of(module: str) -> int | None:
    for rank, (_name, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def upward_imports(games: Path) -> list[str]:
    """Each module that reaches a module of a higher layer, with the chain that does."""
    edges = graph(games)
    found = []
    for module in sorted(edges):
        rank = layer_of(module)
        if rank is None:
            continue
        for there, chain in reachable(edges, module).items():
            above = layer_of(there)
            if above is not None and above > rank:
                found.append(" -> ".join(chain))
                break
    return found


def presentation_reads(games: Path) -> list[str]:
    edges = graph(games)
    found = []
    for module in sorted(edges):
        if layer_of(module) != 4:
            continue
        for there, chain in reachable(edges, module).items():
            if within(there, READS_AND_WRITES):
                found.append(" -> ".join(chain))
                break
    return found


def private_imports(games: Path) -> list[str]:
    """``from x import _name`` between modules (``gettext as _`` takes a public name)."""
    return [
        f"{found.module}:{found.line} takes {name} from {found.target}"
        for found in project_imports(games)
        if found.target.startswith("games")
        for name in found.names
        if name.startswith("_")
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


def test_every_module_of_games_has_a_layer():
    edges = graph(GAMES)
    assert len(edges) > 60
    unplaced = sorted(m for m in edges if layer_of(m) is None and m != "games")
    assert unplaced == []


def test_no_module_reaches_a_layer_above_its_own():
    assert upward_imports(GAMES) == []


def test_presentation_reaches_no_read_and_no_write():
    assert presentation_reads(GAMES) == []


def test_no_module_takes_another_modules_private_names():
    assert private_imports(GAMES) == []


def test_no_module_of_games_imports_one_that_imports_it_back():
    assert import_cycles(GAMES) == []


# The guards on a scratch copy, each with one breach planted.


@pytest.fixture
def scratch(tmp_path) -> Path:
    copy = tmp_path / "games"
    shutil.copytree(GAMES, copy, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    return copy


def plant(games: Path, module: str, line: str, inside_a_function: bool = False) -> None:
    path = games / (module.replace(".", "/") + ".py")
    if inside_a_function:
        line = "\n\ndef _planted():\n    " + line + "\n"
    path.write_text(path.read_text() + "\n" + line + "\n")


def test_the_layer_guard_sees_a_write_reaching_presentation_through_a_function(scratch):
    plant(scratch, "services.core", "from ..presentation import refusals", inside_a_function=True)
    assert any(chain.startswith("games.services.core -> games.presentation") for chain in
               upward_imports(scratch))  # fmt: skip


def test_the_layer_guard_follows_imports_through_other_modules(scratch):
    # The public face (a read's value) reaching a selector: presentation now reads, two steps on.
    plant(scratch, "db.public", "from .selectors import rating_of")
    assert presentation_reads(GAMES) == []
    found = presentation_reads(scratch)
    assert "games.presentation.board -> games.db.public -> games.db.selectors" in found


def test_the_layer_guard_sees_an_absolute_import_and_a_dynamic_one(scratch):
    plant(scratch, "db.public", "import games.web.forms")
    plant(scratch, "models", 'importlib.import_module("games.services.core")')
    found = upward_imports(scratch)
    assert any(chain.startswith("games.db.public -> games.web.forms") for chain in found)
    assert any(chain.startswith("games.models -> games.services.core") for chain in found)


def test_the_private_names_guard_sees_one_taken(scratch):
    plant(scratch, "services.pairing", "from .core import _planted_helper")
    assert private_imports(scratch) == [
        f"games.services.pairing:{_last_line(scratch, 'services.pairing')} takes "
        "_planted_helper from games.services.core"
    ]


def test_the_cycle_guard_sees_a_loop(scratch):
    plant(scratch, "models", "from .services import core")
    assert any(c[0] == "games.models" for c in import_cycles(scratch))


def _last_line(games: Path, module: str) -> int:
    return len((games / (module.replace(".", "/") + ".py")).read_text().splitlines())
