"""The package's import graph: every import points down the layers, and nothing imports in a circle.

The layers are drawn in STYLE.md: ``model`` → ``results`` → ``exact`` / ``sim`` → ``studies`` →
``store`` / ``present`` → ``api`` → ``cli`` / ``web``, with ``solver/__init__`` and ``__main__`` on
top.  A
module may import from its own layer or a lower one, never a higher one; layers of one rank
that are drawn apart (``exact`` and ``sim``, so that the simulator's agreement with the solver
means something) never import each other, and ``present`` imports ``results`` and ``model``
only (its own modules aside), even for the type checker.  The graph holds every import,
whether at the top of a module, inside a function, or under ``if TYPE_CHECKING:``: a circle
hidden behind a late import is still a circle.  Each check is proved on a planted example.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "solver"

#: Rank of each layer; a module may import modules of the same or a lower rank.
RANKS = {
    "model": 0,
    "results": 1,
    "exact": 2,
    "sim": 2,
    "studies": 3,
    "store": 4,
    "present": 4,
    "api": 5,
    "cli": 6,
    "web": 6,
    "top": 7,
}
#: The layer of each module prefix; a module belongs to its longest listed prefix.
HOMES = {
    "solver.model": "model",
    "solver.results": "results",
    "solver.exact": "exact",
    "solver.sim": "sim",
    "solver.studies": "studies",
    "solver.store": "store",
    "solver.present": "present",
    "solver.api": "api",
    "solver.cli": "cli",
    "solver.web": "web",
    "solver.__main__": "top",
    "solver": "top",
}
#: The most lines a module of the package may have (issue 23: "about 600").
MAX_LINES = 600
#: Layers of one rank that must not import each other.
APART = {
    frozenset({"exact", "sim"}),
    frozenset({"store", "present"}),
    frozenset({"cli", "web"}),
}


class Kind(StrEnum):
    """Where an import statement stands, which decides when it runs."""

    TOP = "top"  # at module level: runs on import
    LATE = "late"  # inside a function or method: runs when called
    TYPING = "typing"  # under ``if TYPE_CHECKING:``: runs only for the type checker


@dataclass(frozen=True, order=True)
class Edge:
    """One import: ``source`` imports ``target`` at ``line``."""

    source: str
    target: str
    line: int
    kind: Kind

    def __str__(self) -> str:
        return f"{self.source} imports {self.target} (line {self.line}, {self.kind})"


def layer_of(module: str) -> str:
    """The layer a module belongs to: that of the longest prefix listed in :data:`HOMES`.

    >>> layer_of("solver.exact.game"), layer_of("solver.store.disk"), layer_of("solver")
    ('exact', 'store', 'top')
    """
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        name = ".".join(parts[:size])
        if name in HOMES:
            return HOMES[name]
    raise AssertionError(f"{module} is in no layer")


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


Statement = ast.Import | ast.ImportFrom


def _statements(tree: ast.Module) -> Iterable[tuple[Statement, Kind]]:
    """Every import statement of a module, with where it stands."""

    def walk(node: ast.AST, kind: Kind) -> Iterable[tuple[Statement, Kind]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, kind
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, Kind.LATE if kind is Kind.TOP else kind)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for part in child.body:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), Kind.TYPING)
                for part in child.orelse:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), kind)
            else:
                yield from walk(child, kind)

    yield from walk(tree, Kind.TOP)


def imports(module: str, source: str, known: Iterable[str]) -> list[Edge]:
    """Every import of a ``solver`` module by ``module``, given its source and the modules.

    ``from a.b import c`` is an import of ``a.b.c`` when that is a module, else of ``a.b``.

    >>> [e.target for e in imports("solver.api", "from solver import cli", ["solver.cli"])]
    ['solver.cli']
    """
    modules = set(known)
    package = module if _is_package(module, modules) else module.rpartition(".")[0]
    found: set[Edge] = set()
    for statement, kind in _statements(ast.parse(source)):
        targets: list[str] = []
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        else:
            base = statement.module or ""
            if statement.level:
                anchor = package.rsplit(".", statement.level - 1)[0]
                base = f"{anchor}.{base}" if base else anchor
            for alias in statement.names:
                child = f"{base}.{alias.name}"
                targets.append(child if child in modules else base)
        for target in targets:
            if (target == "solver" or target.startswith("solver.")) and target != module:
                found.add(Edge(module, target, statement.lineno, kind))
    return sorted(found)


def _is_package(module: str, modules: set[str]) -> bool:
    """Whether some other known module lives inside ``module``."""
    return any(other.startswith(module + ".") for other in modules)


def upward(edges: Iterable[Edge]) -> list[Edge]:
    """The imports that point up the layers, or across to a layer drawn apart."""
    found = []
    for edge in edges:
        here, there = layer_of(edge.source), layer_of(edge.target)
        if RANKS[there] > RANKS[here] or frozenset({here, there}) in APART:
            found.append(edge)
    return sorted(found)


#: What ``present`` must not import at all, for the type checker included: the layers that
#: solve, simulate or run studies (``present`` reads their results, whose types live in
#: ``results``).
PRESENT_NEVER_IMPORTS = frozenset({"exact", "sim", "studies"})


def present_reaches(edges: Iterable[Edge]) -> list[Edge]:
    """The imports by ``present`` of a solver, the simulator or a study, of any kind."""
    return sorted(
        e
        for e in edges
        if layer_of(e.source) == "present" and layer_of(e.target) in PRESENT_NEVER_IMPORTS
    )


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """One circle of imports through each strongly connected group of modules.

    Each circle is a list of modules that starts and ends with the same module.

    >>> cycles([Edge("a", "b", 1, Kind.TOP), Edge("b", "a", 1, Kind.LATE)])
    [['a', 'b', 'a']]
    """
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    return [_circle_through(group, graph) for group in _strongly_connected(graph)]


def _strongly_connected(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's groups of more than one module (or a module importing itself), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def _circle_through(group: list[str], graph: Mapping[str, set[str]]) -> list[str]:
    """A shortest circle from the group's first module back to it, inside the group."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & members):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{group} holds no circle")


def modules() -> dict[str, Path]:
    """Every module of the package with its file."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@cache
def package_graph() -> tuple[Edge, ...]:
    """The whole package's imports: at the top, inside functions and for the type checker.

    Read once per process for the four tests that check it (0.4 s of CPU each time).
    """
    known = modules()
    return tuple(
        sorted(
            edge for name, path in known.items() for edge in imports(name, path.read_text(), known)
        )
    )


def test_every_module_is_in_a_layer() -> None:
    for module in modules():
        assert layer_of(module) in RANKS


def test_every_import_names_a_module_of_the_package() -> None:
    known = modules()
    assert [str(e) for e in package_graph() if e.target not in known] == []


def test_imports_point_down_the_layers() -> None:
    assert [str(e) for e in upward(package_graph())] == []


def test_present_imports_no_solver_simulator_or_study() -> None:
    assert [str(e) for e in present_reaches(package_graph())] == []


def foreign_packages(modules: Iterable[str]) -> list[str]:
    """The top-level packages outside the standard library (and ``solver``) that importing
    ``modules`` loads, found in a fresh interpreter."""
    program = "import sys\n" + "".join(f"import {name}\n" for name in modules)
    program += "print(*sorted({m.partition('.')[0] for m in sys.modules}))"
    found = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    ).stdout.split()
    standard = {*sys.stdlib_module_names, "solver", "__main__"}
    return [name for name in found if name not in standard and not name.startswith("_")]


def test_the_results_load_the_standard_library_and_model_alone() -> None:
    assert foreign_packages(name for name in modules() if layer_of(name) == "results") == []


def test_the_load_check_sees_a_package_outside_the_standard_library() -> None:
    assert foreign_packages(["json", "fractions"]) == []
    assert foreign_packages(["json", "numpy.linalg"]) == ["numpy"]


def test_no_import_cycle() -> None:
    assert [" -> ".join(circle) for circle in cycles(package_graph())] == []


def too_long(sources: Mapping[str, str], limit: int = MAX_LINES) -> list[str]:
    """The modules of more than ``limit`` lines, with their length.

    >>> too_long({"a": "x = 1\\n" * 3, "b": "y = 2\\n"}, limit=2)
    ['a: 3 lines']
    """
    lengths = {name: len(text.splitlines()) for name, text in sources.items()}
    return [f"{name}: {n} lines" for name, n in sorted(lengths.items()) if n > limit]


#: Modules written by a script from a table (one function per row): as long as the table.
WRITTEN = {"solver.api.functions"}


def test_no_module_is_too_long() -> None:
    found = {name: path.read_text() for name, path in modules().items() if name not in WRITTEN}
    assert too_long(found) == []


def test_the_length_check_counts_lines() -> None:
    assert too_long({"solver.x": "pass\n" * MAX_LINES}) == []
    assert too_long({"solver.x": "pass\n" * (MAX_LINES + 1)}) == [
        f"solver.x: {MAX_LINES + 1} lines"
    ]


# Planted examples: each check fails where it should, and stays quiet where it should.

PLANTED = ["solver", "solver.model", "solver.model.cards", "solver.exact", "solver.exact.game"]


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("solver.model.cards", "from solver.exact.game import solve_game"),
        ("solver.exact.game", "def f():\n    import solver.present.tables"),
        ("solver.exact.game", "if TYPE_CHECKING:\n    from solver.studies import figures"),
        ("solver.sim.run", "from solver.exact.bonus import analyse_bonus"),
        ("solver.exact.dealer", "from solver.sim import simulate"),
        ("solver.present.report", "from solver.api import solve"),
        ("solver.present.tables", "from solver.store.memory import MemoryCache"),
        ("solver.studies.figures", "class A:\n    def f(self):\n        from solver.api import x"),
        ("solver.api", "from solver.cli import main"),
        ("solver.web", "from solver import cli"),
        ("solver.cli", "from solver import __main__"),
        ("solver.exact.game", "from .. import api"),
    ],
)
def test_the_checker_catches_an_import_up_or_across(module: str, source: str) -> None:
    assert upward(imports(module, source, [*PLANTED, "solver.api", "solver.cli"]))


def test_the_checker_allows_imports_down_and_within_a_layer() -> None:
    allowed = [
        ("solver.api", "from solver.present.tables import Table"),
        ("solver.exact.game", "from solver.exact.bonus import analyse_bonus"),
        ("solver.exact.game", "from . import bonus"),
        ("solver.sim.run", "from solver.model.parallel import parallel_map"),
        ("solver.studies.figures", "import solver.sim\nimport solver.exact.game"),
        ("solver.cli", "from solver import api"),
        ("solver", "def __getattr__(name):\n    from solver.cli import main"),
        ("solver.model.cards", "import numpy\nfrom fractions import Fraction"),
    ]
    for module, source in allowed:
        assert upward(imports(module, source, [*PLANTED, "solver.api", "solver.cli"])) == [], source


def test_the_graph_sees_late_and_type_checking_imports() -> None:
    source = (
        "from solver.model import cards\n"
        "if TYPE_CHECKING:\n    from solver.exact.game import GameResult\n"
        "else:\n    import solver.model\n"
        "def f():\n    import solver.exact\n"
        "class C:\n    def g(self):\n        from solver.exact import game\n"
    )
    found = {(e.target, e.kind) for e in imports("solver.exact.bonus", source, PLANTED)}
    assert found == {
        ("solver.model.cards", Kind.TOP),
        ("solver.exact.game", Kind.TYPING),
        ("solver.model", Kind.TOP),
        ("solver.exact", Kind.LATE),
        ("solver.exact.game", Kind.LATE),
    }


@pytest.mark.parametrize(
    ("planted", "circle"),
    [
        ({"a": "import b", "b": "import a"}, ["a", "b", "a"]),
        ({"a": "import a"}, ["a", "a"]),
        (
            {
                "a": "import b",
                "b": "def f():\n    import c",
                "c": "if TYPE_CHECKING:\n    import a",
            },
            ["a", "b", "c", "a"],
        ),
        (
            {"a": "import b\nimport c", "b": "import c", "c": "import d", "d": "import b"},
            ["b", "c", "d", "b"],
        ),
    ],
)
def test_the_checker_finds_a_cycle_and_names_its_modules(
    planted: dict[str, str], circle: list[str]
) -> None:
    edges = [
        Edge(name, target, 1, Kind.TOP)
        for name, source in planted.items()
        for statement, _ in _statements(ast.parse(source))
        if isinstance(statement, ast.Import)
        for target in (alias.name for alias in statement.names)
    ]
    assert cycles(edges) == [circle]


def test_the_checker_finds_a_cycle_in_the_package_sources() -> None:
    known = [*PLANTED, "solver.exact.bonus"]
    edges = [
        *imports("solver.exact.game", "from solver.exact.bonus import analyse_bonus", known),
        *imports("solver.exact.bonus", "def f():\n    from solver.exact import game", known),
    ]
    assert cycles(edges) == [["solver.exact.bonus", "solver.exact.game", "solver.exact.bonus"]]


def test_the_checker_finds_no_cycle_in_a_tree() -> None:
    edges = [Edge("a", "b", 1, Kind.TOP), Edge("a", "c", 1, Kind.TOP), Edge("b", "c", 1, Kind.TOP)]
    assert cycles(edges) == []


@pytest.mark.parametrize(
    "source",
    [
        "from solver.exact.game import solve_game",
        "import solver.sim.run",
        "from solver import sim",
        "from solver.studies.report import report_figures",
        "from ...exact import chart",
        "def f():\n    from solver.sim import simulate",
        "class C:\n    def f(self):\n        import solver.exact",
        "if TYPE_CHECKING:\n    pass\nelse:\n    from solver.exact.volatility import check_ratio",
        "if TYPE_CHECKING:\n    from solver.exact.game import solve_game",
        "import typing\nif typing.TYPE_CHECKING:\n    from solver.studies import report",
        "if TYPE_CHECKING:\n    from solver.sim import simulate",
    ],
)
def test_the_checker_catches_present_importing_a_solver(source: str) -> None:
    known = [*PLANTED, "solver.sim", "solver.sim.run", "solver.studies", "solver.studies.report"]
    assert present_reaches(imports("solver.present.report.content", source, known))


def test_the_checker_lets_present_import_results_and_the_model() -> None:
    source = (
        "import typing\n"
        "if TYPE_CHECKING:\n"
        "    from solver.results.game import GameResult\n"
        "    from solver.results.report import ReportFigures\n"
        "if typing.TYPE_CHECKING:\n"
        "    from solver.results.simulation import SimulationResult\n"
        "from solver.model.cards import Card\n"
        "from solver.present.style import PALETTE\n"
    )
    known = [*PLANTED, "solver.results", "solver.results.game", "solver.results.report"]
    known += ["solver.results.simulation", "solver.present", "solver.present.style"]
    edges = imports("solver.present.report.content", source, known)
    assert len(edges) == 5 and present_reaches(edges) == [] and upward(edges) == []
    # The rule is present's own: a study runs the solver and the simulator.
    studies = [*known, "solver.sim", "solver.studies", "solver.studies.report"]
    assert present_reaches(imports("solver.studies.report", "import solver.sim", studies)) == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("solver.results.game", "from solver.exact.game import solve_game"),
        ("solver.results.simulation", "def f():\n    import solver.sim.run"),
        ("solver.results.report", "if TYPE_CHECKING:\n    from solver.studies import report"),
        ("solver.model.cards", "from solver.results.game import GameResult"),
    ],
)
def test_the_checker_keeps_results_between_the_model_and_the_solvers(
    module: str, source: str
) -> None:
    known = [*PLANTED, "solver.results", "solver.results.game", "solver.sim", "solver.sim.run"]
    known += ["solver.studies", "solver.studies.report"]
    assert upward(imports(module, source, known))
    for below in ("solver.exact.game", "solver.sim.run", "solver.studies.report"):
        ok = f"from solver.results.game import GameResult  # in {below}"
        assert upward(imports(below, ok, known)) == []
