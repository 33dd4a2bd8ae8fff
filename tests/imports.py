"""Every import a tree of Python files makes, read from the source: ``import x``, ``from x import
y``, relative imports resolved against the file's package, and ``importlib.import_module("x")``
or ``__import__("x")`` with a constant name, wherever they stand (a function's body too).
The purity guard and what import-linter cannot see (loops run at import time, imports by name)
read the project through it; their tests run them on a scratch copy with a breach planted, to
show that each guard sees what it is there to see."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, dotted
    target: str  # what it imports, dotted (``games.models``, ``games.models.Match``, ``json``)
    names: tuple[str, ...]  # the names taken (``from x import a, b``), empty for ``import x``
    top_level: bool  # run when the module is imported (not inside a function or class)
    line: int
    by_name: bool = False  # importlib.import_module("x") or __import__("x"): no statement


def module_of(path: Path, root: Path) -> str:
    """``root/games/public/match.py`` -> ``games.public.match`` (``root`` holds the top package)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, root: Path) -> list[Import]:
    module = module_of(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(), filename=str(path))
    top = {id(node) for node in tree.body}
    for node in tree.body:  # a top-level if/try's imports run at import time too
        if isinstance(node, (ast.If, ast.Try)):
            top |= {id(child) for child in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        at_top = id(node) in top
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, (), at_top, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            names = tuple(alias.name for alias in node.names)
            found.append(Import(module, target, names, at_top, node.lineno))
        elif isinstance(node, ast.Call) and _dynamic(node):
            found.append(Import(module, node.args[0].value, (), False, node.lineno, True))
    return found


def _dynamic(call: ast.Call) -> bool:
    """``importlib.import_module("x")``, ``import_module("x")`` or ``__import__("x")``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return (
        name in ("import_module", "__import__")
        and bool(call.args)
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
    )


def project_imports(package_dir: Path, skip: tuple[str, ...] = ("migrations",)) -> list[Import]:
    """Every import of every file below ``package_dir`` (a top-level package)."""
    root = package_dir.parent
    return [
        found
        for path in sorted(package_dir.rglob("*.py"))
        if not set(path.relative_to(root).parts) & set(skip)
        for found in imports_of(path, root)
    ]


def modules_in(package_dir: Path, skip: tuple[str, ...] = ("migrations",)) -> set[str]:
    root = package_dir.parent
    return {
        module_of(path, root)
        for path in package_dir.rglob("*.py")
        if not set(path.relative_to(root).parts) & set(skip)
    }


def targets(found: Import, modules: set[str]) -> set[str]:
    """The project's modules an import reaches: its target, and each name taken from a package
    that is itself a module (``from games import services``)."""
    reached = {found.target} if found.target in modules else set()
    reached |= {f"{found.target}.{name}" for name in found.names} & modules
    if not reached:  # ``import games.db.selectors.players``: its module, or the nearest package
        parts = found.target.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts:
            reached.add(".".join(parts))
    return reached


def graph(package_dir: Path, top_level_only: bool = False) -> dict[str, set[str]]:
    """Module -> the project's modules it imports directly."""
    modules = modules_in(package_dir)
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for found in project_imports(package_dir):
        if top_level_only and not found.top_level:
            continue
        edges[found.module] |= targets(found, modules) - {found.module}
    return edges
