"""The decision graph: exact identities, and every file format read back by networkx."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import pytest

from solver.exact.graph import decision_graph
from solver.model.cards import RANKS, Card, parse_cards
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present.graph import GraphFormat, graph_format, node_name, render_graph, to_networkx
from solver.results.game import BUST, DecisionGraph
from tests.conftest import run_cli

# pydot (the independent DOT reader) still uses pyparsing names that warn.
pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated:DeprecationWarning")
RULES = Rules(decks=1)
#: One card of every value; hand "9 3" (hard 12) keeps each graph small.
BONUS_CARDS = [Card(RANKS[v - 1]) for v in range(1, 11)]


@pytest.fixture(scope="module", params=BONUS_CARDS, ids=str)
def graph(request: pytest.FixtureRequest) -> DecisionGraph:
    return decision_graph(RULES, request.param, parse_cards("9 3"), exact=True)


@pytest.fixture(scope="module")
def one_graph() -> DecisionGraph:
    """A small graph (hard 16, Bonus 9) for the checks whose readers are slow (pydot, drawing)."""
    return decision_graph(RULES, Card.parse("9"), parse_cards("10 6"), exact=True)


def test_draws_from_every_hand_sum_to_one(graph: DecisionGraph) -> None:
    total: dict[tuple[int, ...], Fraction] = {}
    for edge in graph.edges:
        total[edge.source] = total.get(edge.source, Fraction(0)) + edge.probability
    assert set(total) == {n.hand for n in graph.nodes}
    assert set(total.values()) == {Fraction(1)}


def test_hit_value_is_the_average_over_draws(graph: DecisionGraph) -> None:
    value = {n.hand: Fraction(max(n.stand, n.hit)) for n in graph.nodes}
    value[BUST] = Fraction(-1)  # a busted hand loses the main wager
    expected: dict[tuple[int, ...], Fraction] = {}
    for e in graph.edges:
        expected[e.source] = expected.get(e.source, Fraction(0)) + e.probability * value[e.target]
    for node in graph.nodes:
        assert node.hit == expected[node.hand]
        assert node.hits == (node.hit > node.stand)


@pytest.mark.parametrize("fmt", [GraphFormat.GRAPHML, GraphFormat.GEXF])
def test_networkx_reads_back_the_same_graph(
    graph: DecisionGraph, fmt: GraphFormat, tmp_path: Path
) -> None:
    _check_read_back(graph, fmt, tmp_path)


def test_pydot_reads_back_the_same_graph(one_graph: DecisionGraph, tmp_path: Path) -> None:
    """DOT is written by the same code for every graph; pydot's parser is slow, so one graph."""
    with _without_packrat():
        _check_read_back(one_graph, GraphFormat.DOT, tmp_path)


@contextmanager
def _without_packrat() -> Iterator[None]:
    """pyparsing's packrat memo off meanwhile, as in a process that never imported pyplot.

    Importing pyplot turns the memo on for the whole process (matplotlib's mathtext parser
    wants it), and pydot's grammar then parses this graph in 1.5 s of CPU instead of 0.85 s.
    Parsing gives the same result either way; the memo is turned back on after.
    """
    from pyparsing import ParserElement

    was_on = bool(getattr(ParserElement, "_packratEnabled", False))
    ParserElement.disable_memoization()
    try:
        yield
    finally:
        if was_on:
            ParserElement.enable_packrat()


def _check_read_back(graph: DecisionGraph, fmt: GraphFormat, tmp_path: Path) -> None:
    """Write ``graph`` in ``fmt``, read it back through networkx, and compare."""
    import networkx as nx  # here, not at the top: every xdist worker collects this module

    written = to_networkx(graph)
    path = tmp_path / f"g.{fmt.value}"
    path.write_bytes(render_graph(graph, fmt))
    if fmt is GraphFormat.GRAPHML:
        read = nx.read_graphml(path)
    elif fmt is GraphFormat.GEXF:
        read = nx.read_gexf(path)
    else:
        pytest.importorskip("pydot")
        read = nx.DiGraph(nx.nx_pydot.read_dot(path))
    assert set(read.nodes) == set(written.nodes)
    assert set(read.edges) == set(written.edges)
    # Formats may add bookkeeping (GEXF an edge id) or display attributes (DOT a fill
    # colour, an edge label); every attribute written must come back with its value.
    extra = {GraphFormat.GRAPHML: set(), GraphFormat.GEXF: {"id"}, GraphFormat.DOT: {"fillcolor"}}
    for name, data in written.nodes(data=True):
        got = read.nodes[name]
        assert {k: _read(got[k], fmt) for k in data} == {k: _as(v, fmt) for k, v in data.items()}
        assert set(got) - set(data) <= extra[fmt]
    for source, target, data in written.edges(data=True):
        got = read.edges[source, target]
        assert {k: _read(got[k], fmt) for k in data} == {k: _as(v, fmt) for k, v in data.items()}
        assert set(got) - set(data) <= extra[fmt] | ({"label"} if fmt is GraphFormat.DOT else set())


def _read(value: object, fmt: GraphFormat) -> object:
    """DOT values come back as quoted strings."""
    if fmt is GraphFormat.DOT:
        return str(value)[1:-1].replace('\\"', '"')
    return value


def _as(value: object, fmt: GraphFormat) -> object:
    """What DOT, having only strings, keeps of a value."""
    if fmt is not GraphFormat.DOT:
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def test_whole_graph_from_every_first_card() -> None:
    graph = decision_graph(RULES, Card.parse("10"))
    roots = [n.hand for n in graph.nodes if n.root]
    assert len(roots) == 9  # an ace with a ten-value Bonus card is a blackjack
    assert node_name(BUST) == "bust"


def test_bad_files_and_hands_are_refused() -> None:
    with pytest.raises(CbjError, match="graphml"):
        graph_format(Path("strategy.txt"))
    with pytest.raises(CbjError):
        decision_graph(RULES, Card.parse("10"), parse_cards("10 9 5"))
    with pytest.raises(CbjError):
        decision_graph(RULES, Card.parse("10"), parse_cards("A"))


def test_picture_is_drawn(one_graph: DecisionGraph) -> None:
    assert render_graph(one_graph, GraphFormat.SVG).startswith(b"<?xml")


def test_cli_writes_graphml_and_refuses_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "strategy.graphml"
    status, _, err = run_cli(["graph", "--decks", "1", "--bonus", "7h", "--hand", "9 3",
                              "-o", str(path)], capsys)  # fmt: skip
    assert status == 0 and "wrote" in err
    import networkx as nx

    read = nx.read_graphml(path)
    assert read.nodes["3 9"]["root"] is True and "bust" in read
    status, _, err = run_cli(["graph", "--bonus", "7", "-o", str(tmp_path / "g.txt")], capsys)
    assert status == 2 and err.count("\n") == 1 and ".graphml" in err
