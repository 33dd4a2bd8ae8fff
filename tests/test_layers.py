"""The layers of ``games`` import one way: no module imports one that imports it back, and the
write layer imports no presentation. (A task's body imports the services when a worker runs
it, below the module level: ``games/tasks.py`` says why.)"""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "games"


def module_of(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_at_module_level(path: Path) -> set[str]:
    """The ``games`` modules a file imports when it is imported (its top-level statements)."""
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module
            found.add(target)
            found |= {f"{target}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] == "games"}


def graph() -> dict[str, set[str]]:
    modules = {
        module_of(path): path for path in GAMES.rglob("*.py") if "migrations" not in path.parts
    }
    return {
        name: {target for target in imports_at_module_level(path) if target in modules} - {name}
        for name, path in modules.items()
    }


def test_no_module_of_games_imports_one_that_imports_it_back():
    edges = graph()
    assert len(edges) > 30
    cycles = []

    def visit(node: str, trail: list[str]) -> None:
        for target in edges[node]:
            if target in trail:
                cycles.append([*trail[trail.index(target) :], target])
            elif target not in done:
                visit(target, [*trail, target])
        done.add(node)

    done: set[str] = set()
    for start in sorted(edges):
        if start not in done:
            visit(start, [start])

    # A package imports its own modules (games.services -> games.services.matches), and they
    # import from it: not a loop, whichever of them the walk met first.
    def within_a_package(cycle: list[str]) -> bool:
        return any(all(m == p or m.startswith(p + ".") for m in cycle) for p in cycle)

    loops = [c for c in cycles if not within_a_package(c)]
    assert loops == []


def test_the_services_import_no_presentation():
    edges = graph()
    services = [name for name in edges if name.startswith("games.services")]
    assert len(services) >= 8
    presentation = {
        "games.presentation.board", "games.presentation.jinja", "games.presentation.refusals",
        "games.web.views", "games.realtime.consumers",
    }  # fmt: skip
    for name in services:
        assert not edges[name] & presentation, f"{name} imports {edges[name] & presentation}"


def test_the_board_reads_nothing_itself():
    """board_context is a pure function of a match's public face and a view: the module that
    builds it imports no reads and no writes (tests/web/test_board_values.py renders one with
    the database out of reach), nor does the engine that renders it."""
    for module in ("games.presentation.board", "games.presentation.jinja"):
        assert not graph()[module] & {"games.db.selectors", "games.services"}, module
