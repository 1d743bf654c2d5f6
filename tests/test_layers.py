"""The package's layers: every import points down, and the simulator stays independent.

``model`` → ``exact`` / ``sim`` → ``present`` / ``store`` → ``api`` → ``cli``: a module
may import from its own layer or a lower one, never a higher one; ``sim`` and ``exact``
never import each other, so the simulator's agreement with the solver means something.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "solver"

#: Rank of each layer; a module may import modules of the same or a lower rank.
LAYERS = {
    "solver.model": 0,
    "solver.exact": 1,
    "solver.sim": 1,
    "solver.present": 2,
    "solver.api": 3,
    "solver.store": 2,
    "solver.cli": 4,
    "solver.__main__": 5,
    "solver": 5,
}
#: Layers of the same rank that must not import each other.
APART = {frozenset({"solver.exact", "solver.sim"}), frozenset({"solver.present", "solver.store"})}


def layer_of(module: str) -> str:
    """The layer a module belongs to: the longest prefix listed in :data:`LAYERS`."""
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        name = ".".join(parts[:size])
        if name in LAYERS:
            return name
    raise AssertionError(f"{module} is in no layer")


def imported_modules(source: str, package: str) -> set[str]:
    """Every ``solver...`` module a source imports, lazily inside functions included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}" if node.module else base)
            elif node.module == "solver":  # from solver import api: the submodule
                found.update(f"solver.{a.name}" for a in node.names)
            elif node.module:
                found.add(node.module)
    return {m for m in found if m == "solver" or m.startswith("solver.")}


def violations(module: str, source: str) -> list[str]:
    """The imports of ``module`` that break the layering."""
    package = module if module == "solver" else module.rsplit(".", 1)[0]
    here = layer_of(module)
    found = []
    for target in sorted(imported_modules(source, package)):
        there = layer_of(target)
        if LAYERS[there] > LAYERS[here] or (there != here and frozenset({here, there}) in APART):
            found.append(f"{module} imports {target}")
    return found


def modules() -> list[tuple[str, Path]]:
    """Every module of the package with its file."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path))
    return found


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_imports_point_down_the_layers(module: str, path: Path) -> None:
    assert violations(module, path.read_text()) == []


def test_every_module_is_in_a_layer() -> None:
    for module, _ in modules():
        layer_of(module)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("solver.model.cards", "from solver.exact.game import solve_game"),
        ("solver.exact.game", "def f():\n    import solver.present.tables"),
        ("solver.sim.run", "from solver.exact.bonus import analyse_bonus"),
        ("solver.exact.dealer", "from solver.sim import simulate"),
        ("solver.present.report", "from solver.api import solve"),
        ("solver.api", "from solver.cli import main"),
    ],
)
def test_the_checker_catches_an_import_up_or_across(module: str, source: str) -> None:
    assert violations(module, source)


def test_the_checker_allows_imports_down_and_within_a_layer() -> None:
    assert violations("solver.api", "from solver.present.tables import Table") == []
    assert violations("solver.exact.game", "from solver.exact.bonus import analyse_bonus") == []
    assert violations("solver.sim.run", "from solver.model.parallel import parallel_map") == []
