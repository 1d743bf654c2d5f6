"""The package's layers: every import points down, and the simulator stays independent.

``model`` → ``exact`` / ``sim`` → ``studies`` → ``store`` / ``present`` → ``api`` → ``cli``
(``../shared/STYLE.md``): a module may import from its own layer or a lower one, never a
higher one; ``sim`` and ``exact`` never import each other, so the simulator's agreement
with the solver means something; and ``present`` is pure: at run time it imports no
solver, no simulator and no study (only its result types, under ``TYPE_CHECKING``).
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
    "solver.studies": 2,
    "solver.store": 3,
    "solver.present": 3,
    "solver.api": 4,
    "solver.cli": 5,
    "solver.__main__": 6,
    "solver": 6,
}
#: Layers of the same rank that must not import each other.
APART = {frozenset({"solver.exact", "solver.sim"}), frozenset({"solver.present", "solver.store"})}
#: What ``present`` must not import at run time: whatever solves, simulates or runs studies.
PRESENT_NEVER_RUNS = ("solver.exact", "solver.sim", "solver.studies")


def layer_of(module: str) -> str:
    """The layer a module belongs to: the longest prefix listed in :data:`LAYERS`."""
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        name = ".".join(parts[:size])
        if name in LAYERS:
            return name
    raise AssertionError(f"{module} is in no layer")


def imported_modules(source: str, package: str, *, typing_only: bool = True) -> set[str]:
    """Every ``solver...`` module a source imports, lazily inside functions included.

    With ``typing_only=False``, imports under ``if TYPE_CHECKING:`` are left out: what
    the module imports when it runs.
    """
    tree = ast.parse(source)
    skipped = set() if typing_only else {id(n) for n in _typing_blocks(tree)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
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


def _typing_blocks(tree: ast.AST) -> list[ast.AST]:
    """Every node inside the body of an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    inside: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for statement in node.body:
                inside.extend(ast.walk(statement))
    return inside


def present_runs(module: str, source: str) -> list[str]:
    """A ``present`` module's run-time imports of a solver, the simulator or a study."""
    if layer_of(module) != "solver.present":
        return []
    package = module.rsplit(".", 1)[0]
    return [
        f"{module} imports {target} at run time"
        for target in sorted(imported_modules(source, package, typing_only=False))
        if any(target == m or target.startswith(f"{m}.") for m in PRESENT_NEVER_RUNS)
    ]


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


def present_modules() -> list[tuple[str, Path]]:
    """The modules of the presentation layer."""
    return [(m, p) for m, p in modules() if layer_of(m) == "solver.present"]


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_imports_point_down_the_layers(module: str, path: Path) -> None:
    assert violations(module, path.read_text()) == []


@pytest.mark.parametrize(
    ("module", "path"), present_modules(), ids=[m for m, _ in present_modules()]
)
def test_present_imports_no_solver_at_run_time(module: str, path: Path) -> None:
    assert present_runs(module, path.read_text()) == []


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
        ("solver.studies.report", "from solver.present.report import build_report"),
        ("solver.exact.game", "from solver.studies.seats import table_of_players"),
        ("solver.present.report.content", "from solver.api import report"),
    ],
)
def test_the_checker_catches_an_import_up_or_across(module: str, source: str) -> None:
    assert violations(module, source)


def test_the_checker_allows_imports_down_and_within_a_layer() -> None:
    assert violations("solver.api", "from solver.present.tables import Table") == []
    assert violations("solver.exact.game", "from solver.exact.bonus import analyse_bonus") == []
    assert violations("solver.sim.run", "from solver.model.parallel import parallel_map") == []


@pytest.mark.parametrize(
    "source",
    [
        "from solver.exact.game import solve_game",
        "import solver.sim.run",
        "from solver import sim",
        "from solver.studies.report import report_figures",
        "from ...exact import strategy",
        "def f():\n    from solver.sim import simulate",
        "def f():\n    if TYPE_CHECKING:\n        pass\n    else:\n        import solver.exact",
        "if TYPE_CHECKING:\n    pass\nfrom solver.exact.volatility import Z90",
    ],
)
def test_the_checker_catches_present_running_a_solver(source: str) -> None:
    assert present_runs("solver.present.report.content", source)


def test_the_checker_allows_present_result_types_and_lower_layers() -> None:
    typed = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from solver.exact.game import GameResult\n"
        "    from solver.studies.report import ReportFigures\n"
        "import typing\n"
        "if typing.TYPE_CHECKING:\n"
        "    from solver.sim import SimulationResult\n"
        "from solver.model.cells import Action\n"
        "from solver.present.tables import Table\n"
    )
    assert present_runs("solver.present.report.content", typed) == []
    assert violations("solver.present.report.content", typed) == []
    # The run-time rule is present's own: a study may run the solver and the simulator.
    assert present_runs("solver.studies.report", "from solver.exact.game import solve_game") == []
    assert violations("solver.studies.report", "from solver.sim import simulate") == []
