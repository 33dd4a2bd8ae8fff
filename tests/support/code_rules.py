"""Rules about what the code of ``games`` does, read from each file's syntax tree (the import
rules are import-linter's, in pyproject.toml): where the database is written, where SQL is
written by hand, where templates are rendered, where presentation queries, and where a module
reaches another's private names. Each function takes the folder that holds ``games/`` (the
project, or a scratch copy with a breach planted) and returns the breaches it finds.

Static reading cannot know every value's type: a write is a call of an ORM writing method
(``save``, ``delete``, ``create``, the bulk ones, their async twins) on anything but a
session or a cache, an ``update`` on a queryset (a chain through ``objects``, a queryset
method, or a name given one in the same file), or a prepared write of ``games.db.prepared``.
A write hidden behind a helper of one's own is not seen: the helper is, where it is written.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Where rows may be written and SQL written by hand.
WRITERS = (
    "games/services/",
    "games/db/",
    "games/tasks.py",
    "games/management/commands/",
    "games/migrations/",
)
SERVICES = ("games/services/",)
PRESENTATION = ("games/presentation/", "games/templatetags/")

WRITES = {
    "save", "delete", "create", "bulk_create", "bulk_update", "get_or_create",
    "update_or_create",
}  # fmt: skip
WRITES |= {"a" + name for name in WRITES}  # asave, adelete, ...: the async ORM
QUERYSET_WRITES = {"update", "aupdate"}  # dicts and sets have an update too
PREPARED_WRITES = {"insert", "update_fields"}  # games.db.prepared's save() and save(fields)
# A queryset's own methods: a chain through one of them (or through a manager) is a query.
QUERYSET_METHODS = {
    "all", "filter", "exclude", "order_by", "select_related", "prefetch_related", "annotate",
    "aggregate", "values_list", "select_for_update", "only", "defer", "distinct", "using",
    "in_bulk", "alias", "union", "iterator",
}  # fmt: skip
MANAGERS = {"objects", "_default_manager", "_base_manager"}
RAW_SQL_CALLS = {"cursor", "raw", "extra"}
# Receivers of a save/delete that are not the ORM: Django's session store, the cache.
NOT_ROWS = ("session", "cache", "caches")
RENDERERS = {
    "render", "render_to_string", "render_to_response", "get_template", "select_template",
    "from_string", "TemplateResponse", "SimpleTemplateResponse", "Template", "Environment",
}  # fmt: skip
TEMPLATE_MODULES = ("django.template", "jinja2", "games.presentation.jinja")
SHORTCUTS = ("django.shortcuts.render", "django.shortcuts.render_to_response")


@dataclass(frozen=True)
class Breach:
    path: str  # relative to the project: games/web/views/accounts.py
    line: int
    code: str  # the call, its arguments left out: ApiToken.objects.filter(...).update

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.code}"

    @property
    def key(self) -> str:
        """What an allowlist names: the file and the code, not the line, which moves."""
        return f"{self.path}: {self.code}"


def shape(node: ast.AST) -> str:
    """The code of an expression with every call's arguments written ``...``."""

    class Elide(ast.NodeTransformer):
        def visit_Call(self, call: ast.Call) -> ast.AST:
            self.generic_visit(call)
            has_args = call.args or call.keywords
            call.args = [ast.Name("...")] if has_args else []
            call.keywords = []
            return call

    copy = ast.parse(ast.unparse(node), mode="eval").body
    return ast.unparse(Elide().visit(copy))


def sources(root: Path, under: tuple[str, ...] = ("games/",)) -> Iterator[tuple[str, str]]:
    """(path relative to ``root``, text) for each Python file below ``under``, but the
    migrations (generated, and allowed to write)."""
    for path in sorted((root / "games").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if "/migrations/" not in relative and relative.startswith(under):
            yield relative, path.read_text()


def per_file(
    rule: Callable[[str, ast.AST], Iterator[Breach]],
    within: tuple[str, ...] = ("games/",),
    outside: tuple[str, ...] = (),
):
    """A guard from a rule read file by file (the files below ``within`` but those below
    ``outside``): each file's breaches found once for each text it has had (the scratch
    copies of the tests change one file at a time)."""

    @lru_cache(maxsize=4096)
    def of(relative: str, text: str) -> tuple[Breach, ...]:
        return tuple(rule(relative, ast.parse(text, filename=relative)))

    def guard(root: Path = ROOT) -> list[Breach]:
        found = {
            b
            for relative, text in sources(root, within)
            if not _within(relative, outside)
            for b in of(relative, text)
        }
        return sorted(found, key=lambda b: (b.path, b.line, b.code))

    guard.__doc__, guard.__name__ = rule.__doc__, rule.__name__.lstrip("_")
    return guard


def _within(path: str, places: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p) for p in places)


def _chain(node: ast.AST) -> Iterator[ast.AST]:
    """An expression and what it is built on: ``a.b(c).d`` -> itself, ``a.b(c)``, ``a.b``, ``a``."""
    while True:
        yield node
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return


def _is_queryset(node: ast.AST, querysets: set[str]) -> bool:
    for link in _chain(node):
        if isinstance(link, ast.Attribute) and link.attr in MANAGERS:
            return True
        if isinstance(link, ast.Call) and isinstance(link.func, ast.Attribute):
            if link.func.attr in QUERYSET_METHODS:
                return True
        if isinstance(link, ast.Name) and link.id in querysets:
            return True
    return False


def _queryset_names(tree: ast.AST) -> set[str]:
    """Names given a queryset somewhere in the file (``rows = Match.objects.filter(...)``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_queryset(node.value, set()):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _not_a_row(receiver: ast.AST) -> bool:
    """``request.session``, ``self.request.session``, ``cache``, ``caches["x"]``."""
    for link in _chain(receiver):
        name = link.attr if isinstance(link, ast.Attribute) else getattr(link, "id", None)
        if name is not None:
            return name in NOT_ROWS
    return False


def _is_super(receiver: ast.AST) -> bool:
    """``super().save()`` in a model's own ``save``: the ORM itself, not a write of its own."""
    return (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Name)
        and receiver.func.id == "super"
    )


def _prepared_writes(tree: ast.AST) -> set[str]:
    """Local names of ``games.db.prepared``'s writes (``from ..db.prepared import insert``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("db.prepared"):
            names |= {a.asname or a.name for a in node.names if a.name in PREPARED_WRITES}
    return names


def raw_sql_calls(tree: ast.AST) -> Iterator[ast.AST]:
    """``connection.cursor()``, ``connections[x].cursor()``, ``.raw(...)``, ``.extra(...)``,
    and any use of ``RawSQL``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in RAW_SQL_CALLS:
                yield node
        elif isinstance(node, ast.Name) and node.id == "RawSQL":
            yield node
        elif isinstance(node, ast.Attribute) and node.attr == "RawSQL":
            yield node


def _writes(path: str, tree: ast.AST) -> Iterator[Breach]:
    """ORM writes and raw SQL outside the services, the reads' own package (games/db), the
    tasks, the management commands and the migrations."""
    querysets = _queryset_names(tree)
    prepared = _prepared_writes(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if func.attr in WRITES and not _not_a_row(receiver) and not _is_super(receiver):
                yield Breach(path, node.lineno, shape(func))
            elif func.attr in QUERYSET_WRITES and _is_queryset(receiver, querysets):
                yield Breach(path, node.lineno, shape(func))
            elif func.attr in PREPARED_WRITES and shape(receiver).endswith("prepared"):
                yield Breach(path, node.lineno, shape(func))
        elif isinstance(func, ast.Name) and func.id in prepared:
            yield Breach(path, node.lineno, shape(func))
    yield from _raw_sql(path, tree)


writes = per_file(_writes, outside=WRITERS)


def _raw_sql(path: str, tree: ast.AST) -> Iterator[Breach]:
    for node in raw_sql_calls(tree):
        yield Breach(path, node.lineno, shape(node.func if isinstance(node, ast.Call) else node))


def _rendering(path: str, tree: ast.AST) -> Iterator[Breach]:
    """Templates rendered, or their machinery imported, in the services."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in RENDERERS:
                yield Breach(path, node.lineno, shape(func))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for target in _absolute_imports(node, path):
                if any(target == m or target.startswith(m + ".") for m in TEMPLATE_MODULES):
                    yield Breach(path, node.lineno, f"import {target}")
                elif target in SHORTCUTS:
                    yield Breach(path, node.lineno, f"import {target}")


rendering = per_file(_rendering, within=SERVICES)


def _queries(path: str, tree: ast.AST) -> Iterator[Breach]:
    """Presentation reaching the database: through a model's manager, a queryset's methods
    (a related manager's ``all()`` or ``filter()``), or raw SQL."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in MANAGERS:
            yield Breach(path, node.lineno, shape(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in QUERYSET_METHODS:
                yield Breach(path, node.lineno, shape(node.func))
    yield from _raw_sql(path, tree)


queries = per_file(_queries, within=PRESENTATION)


def _module_of(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(path: str) -> str:
    module = _module_of(path)
    return module if path.endswith("/__init__.py") else module.rpartition(".")[0]


def _resolve(node: ast.ImportFrom, path: str) -> str:
    if not node.level:
        return node.module or ""
    package = _package_of(path).split(".")
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _absolute_imports(node: ast.Import | ast.ImportFrom, path: str) -> list[str]:
    """What an import statement names, dotted (``from x import y`` -> ``x.y``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    target = _resolve(node, path)
    return [f"{target}.{alias.name}" for alias in node.names]


def private_names(root: Path = ROOT) -> list[Breach]:
    """Another module's private name (``_name``, not a dunder), taken by ``from x import _y``
    or reached by attribute (``x._y``, ``getattr(x, "_y")``) where ``x`` is a module of
    ``games`` that the file imported."""
    files = list(sources(root))
    modules = frozenset(_module_of(path) for path, _text in files)
    found = {b for path, text in files for b in _private_names(path, text, modules)}
    return sorted(found, key=lambda b: (b.path, b.line, b.code))


@lru_cache(maxsize=4096)
def _private_names(path: str, text: str, modules: frozenset[str]) -> tuple[Breach, ...]:
    tree = ast.parse(text, filename=path)
    here = _module_of(path)
    bound: dict[str, str] = {}  # local name -> the project module it is
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "games":
                    continue
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound["games"] = "games"
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node, path)
            if not target.startswith("games"):
                continue
            for alias in node.names:
                name = alias.name
                if _private(name) and target != here:
                    found.append(Breach(path, node.lineno, f"from {target} import {name}"))
                if f"{target}.{name}" in modules:
                    bound[alias.asname or name] = f"{target}.{name}"
    for node in ast.walk(tree):
        reached = _private_reach(node, bound, modules)
        if reached and reached[0] != here:
            found.append(Breach(path, node.lineno, f"{reached[0]}.{reached[1]}"))
    return tuple(found)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dotted(node: ast.AST, bound: dict[str, str], modules: set[str]) -> str | None:
    """The project module an expression names (``core``, ``games.services.core``), if any."""
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, bound, modules)
        if base is not None and f"{base}.{node.attr}" in modules:
            return f"{base}.{node.attr}"
    return None


def _private_reach(node: ast.AST, bound: dict[str, str], modules: set[str]):
    """(module, name) for ``module._name`` or ``getattr(module, "_name")``."""
    if isinstance(node, ast.Attribute) and _private(node.attr):
        module = _dotted(node.value, bound, modules)
        if module is not None:
            return module, node.attr
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
        and _private(node.args[1].value)
    ):
        module = _dotted(node.args[0], bound, modules)
        if module is not None:
            return module, node.args[1].value
    return None
