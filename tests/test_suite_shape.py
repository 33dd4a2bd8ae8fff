"""The suite's own shape: no module under tests/ imports a test module or a conftest, and
every test deals the same at every run. What tests share lives in tests/support/ (fixtures
in a conftest.py, which pytest hands out by itself): a test module imported by another runs
its module-level code twice over, drags its fixtures and marks along, and ties two files
that should change apart."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games import services
from tests.support.deals import Deals, seed_where
from tests.support.matches import start

TESTS = Path(__file__).resolve().parent


def is_test_module(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last == "conftest" or last.startswith("test_") or last.endswith("_test")


def imported(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (at any depth: inside functions too), dotted from the
    folder that holds ``root`` (``tests.web.test_consumers``), with its line; for ``from a
    import b``, both ``a`` and ``a.b`` (``b`` may be a module)."""
    package = list(path.relative_to(root.parent).parent.parts)
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def imports_of_test_modules(root: Path = TESTS) -> list[str]:
    """``file:line imports module`` for each import of a test module or a conftest under
    ``root``."""
    breaches = []
    for path in sorted(root.rglob("*.py")):
        for line, module in imported(path, root):
            if module.split(".")[0] == root.name and is_test_module(module):
                breaches.append(f"{path.relative_to(root.parent)}:{line} imports {module}")
    return breaches


def test_no_module_of_the_suite_imports_a_test_module_or_a_conftest():
    assert imports_of_test_modules() == [], "move what they share into tests/support/"


def test_the_guard_sees_each_way_of_importing_a_test_module(tmp_path):
    """Planted in a scratch suite: an absolute import, a relative one, a module taken from its
    package, a conftest, one inside a function; the helpers in support/ pass."""
    suite = tmp_path / "tests"
    for folder in (suite, suite / "web", suite / "support"):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (suite / "conftest.py").write_text("def missing(what): ...\n")
    (suite / "web" / "test_consumers.py").write_text("def socket(): ...\n")
    (suite / "support" / "sockets.py").write_text("def socket(): ...\n")
    (suite / "support" / "helpers.py").write_text("from tests.support.sockets import socket\n")
    (suite / "web" / "test_absolute.py").write_text("from tests.web.test_consumers import socket\n")
    (suite / "web" / "test_relative.py").write_text("from .test_consumers import socket\n")
    (suite / "web" / "test_package.py").write_text("from tests.web import test_consumers\n")
    (suite / "web" / "test_conftest.py").write_text("from ..conftest import missing\n")
    (suite / "web" / "test_nested.py").write_text(
        "def test_it():\n    import tests.web.test_consumers\n"
    )
    assert sorted(imports_of_test_modules(suite)) == [
        "tests/web/test_absolute.py:1 imports tests.web.test_consumers",
        "tests/web/test_conftest.py:1 imports tests.conftest",
        "tests/web/test_nested.py:2 imports tests.web.test_consumers",
        "tests/web/test_package.py:1 imports tests.web.test_consumers",
        "tests/web/test_relative.py:1 imports tests.web.test_consumers",
    ]


@pytest.mark.django_db
def test_a_tests_deals_are_drawn_from_its_own_id_so_every_run_deals_the_same(
    request, alice, bob, carol
):
    again = Deals(request.node.nodeid)  # the stream as a new run of this test draws it
    first, second = start(alice, bob), start(bob, carol)
    computer = services.match_create_computer(user=carol, strength="easy")
    assert [int(m.seed) for m in (first, second, computer)] == [again(), again(), again()]
    chosen = seed_where(lambda state: state.dealer == 1)
    assert start(carol, alice, seed=chosen).state.dealer == 1
