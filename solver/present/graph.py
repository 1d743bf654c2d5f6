"""Write the player's decision graph for Gephi, yEd or Graphviz: GraphML, GEXF, DOT, pictures.

Nodes are named by their cards (``"10 2"``; the bust node ``"bust"``) and carry the cards,
hard total, softness, the EVs of standing and hitting, the decision, and the exact EVs as
fractions when solved exactly; edges carry the card drawn and its probability.  DOT is
written here (no Graphviz needed); GraphML and GEXF by networkx.  PNG, SVG and PDF draw the
graph in layers by the number of cards, with the hit/stand colours of the charts.
"""

from __future__ import annotations

import io
import json
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.model.cards import value_label
from solver.model.cells import Action
from solver.model.checks import shown
from solver.model.errors import ReportError
from solver.model.hands import describe_hand, hard_total
from solver.present.charts import COLOURS

if TYPE_CHECKING:
    from solver.results.game import DecisionGraph


class GraphFormat(StrEnum):
    """File formats ``cbj graph`` writes, by suffix."""

    GRAPHML = "graphml"
    GEXF = "gexf"
    DOT = "dot"
    SVG = "svg"
    PNG = "png"
    PDF = "pdf"


def graph_format(path: Path) -> GraphFormat:
    """The format named by ``path``'s suffix; :class:`ReportError` if none is."""
    suffix = path.suffix.lower().lstrip(".")
    try:
        return GraphFormat(suffix)
    except ValueError:
        names = ", ".join(f".{f.value}" for f in GraphFormat)
        said = shown(str(path), most=160)
        raise ReportError(f"graph file {said} must end in one of {names}") from None


def node_name(hand: tuple[int, ...]) -> str:
    """A node's id: its cards, or ``bust`` (the graph's bust node holds no cards)."""
    return "bust" if not any(hand) else describe_hand(hand)


def title(graph: DecisionGraph) -> str:
    """What the graph shows, in one line."""
    return f"Community Blackjack decision graph against Bonus card {graph.bonus}"


def to_networkx(graph: DecisionGraph) -> Any:
    """The graph as a ``networkx.DiGraph`` with plain attribute values (str, int, float, bool)."""
    import networkx as nx

    g = nx.DiGraph(
        title=title(graph), bonus=str(graph.bonus), rules=json.dumps(graph.rules.to_json())
    )
    for node in graph.nodes:
        soft = node.hand[0] > 0 and hard_total(node.hand) + 10 <= 21
        attributes: dict[str, Any] = {
            "label": node_name(node.hand),
            "cards": sum(node.hand),
            "hard_total": hard_total(node.hand),
            "soft": soft,
            "stand_ev": float(node.stand),
            "hit_ev": float(node.hit),
            "decision": "hit" if node.hits else "stand",
            "root": node.root,
        }
        if isinstance(node.stand, Fraction):
            attributes["stand_ev_exact"] = str(node.stand)
            attributes["hit_ev_exact"] = str(node.hit)
        g.add_node(node_name(node.hand), **attributes)
    g.add_node("bust", label="bust", cards=0, hard_total=22, soft=False, stand_ev=-1.0,
               hit_ev=-1.0, decision="bust", root=False)  # fmt: skip
    if isinstance(graph.nodes[0].stand, Fraction):
        g.nodes["bust"]["stand_ev_exact"] = g.nodes["bust"]["hit_ev_exact"] = "-1"
    for edge in graph.edges:
        source, target = node_name(edge.source), node_name(edge.target)
        if g.has_edge(source, target):  # several cards bust the hand: one edge, summed
            data = g.edges[source, target]
            exact = Fraction(data["probability_exact"]) + edge.probability
            data.update(card=f"{data['card']},{value_label(edge.card)}",
                        probability=float(exact), probability_exact=str(exact))  # fmt: skip
            continue
        g.add_edge(source, target, card=value_label(edge.card),
                   probability=float(edge.probability),
                   probability_exact=str(edge.probability))  # fmt: skip
    return g


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dot_value(value: Any) -> str:
    if isinstance(value, bool):
        return _dot_id("true" if value else "false")
    return _dot_id(repr(value) if isinstance(value, float) else str(value))


def to_dot(g: Any) -> str:
    """The networkx graph as Graphviz DOT: every attribute kept, colours by decision."""
    fill = {"hit": COLOURS[Action.HIT], "stand": COLOURS[Action.STAND], "bust": "#bbbbbb"}
    lines = [
        "digraph strategy {",
        f"  label={_dot_id(g.graph['title'])};",
        f"  bonus={_dot_id(g.graph['bonus'])};",
        f"  rules={_dot_id(g.graph['rules'])};",
        "  rankdir=LR;",
        '  node [shape=box, style=filled, fontname="DejaVu Sans"];',
    ]
    for name, data in g.nodes(data=True):
        attributes = {**data, "fillcolor": fill[data["decision"]]}
        body = ", ".join(f"{k}={_dot_value(v)}" for k, v in attributes.items())
        lines.append(f"  {_dot_id(name)} [{body}];")
    for source, target, data in g.edges(data=True):
        attributes = {**data, "label": f"{data['card']} ({data['probability']:.3f})"}
        body = ", ".join(f"{k}={_dot_value(v)}" for k, v in attributes.items())
        lines.append(f"  {_dot_id(source)} -> {_dot_id(target)} [{body}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def played(g: Any) -> Any:
    """The part of the graph optimal play visits: the roots, then draws only where it hits."""
    seen = [n for n, d in g.nodes(data=True) if d["root"]]
    keep = set(seen)
    while seen:
        node = seen.pop()
        if g.nodes[node]["decision"] != "hit":
            continue
        for child in g.successors(node):
            if child not in keep:
                keep.add(child)
                seen.append(child)
    return g.subgraph(keep).copy()


#: The most hands a drawn graph's widest column may hold: about a printed page's height
#: of readable boxes. Larger graphs are refused as pictures (GraphML, GEXF and DOT are
#: always whole); one starting hand's graph (``--hand``) is always well below this.
PICTURE_HANDS = 60


def _layers(g: Any) -> dict[str, int]:
    """Each node's column: its number of cards, the bust node after the deepest."""
    deepest = max(d["cards"] for _, d in g.nodes(data=True))
    return {n: deepest + 1 if n == "bust" else d["cards"] for n, d in g.nodes(data=True)}


def check_picture(g: Any) -> None:
    """Refuse, in one line, a picture whose widest column no one could read.

    ``g`` is the networkx graph (:func:`to_networkx`); what optimal play visits is drawn.
    """
    layers = list(_layers(played(g)).values())
    widest = max(layers.count(k) for k in set(layers))
    if widest > PICTURE_HANDS:
        raise ReportError(
            f"the picture would stack {widest} hands in one column, too many to read (at most "
            f"{PICTURE_HANDS}): start from a hand nearer 21 with --hand, e.g. --hand '9 3', "
            "or write the whole graph as .graphml, .gexf or .dot"
        )


def draw(g: Any, fmt: GraphFormat) -> bytes:
    """What optimal play visits, drawn in layers by number of cards, coloured by decision."""
    import matplotlib

    matplotlib.use("Agg")
    import networkx as nx
    from matplotlib import pyplot as plt

    check_picture(g)
    g = played(g)
    layers = _layers(g)
    nx.set_node_attributes(g, layers, "layer")
    position = nx.multipartite_layout(g, subset_key="layer")
    fill = {"hit": COLOURS[Action.HIT], "stand": COLOURS[Action.STAND], "bust": "#bbbbbb"}
    rc = {"svg.hashsalt": "cbj", "svg.fonttype": "none", "pdf.fonttype": 42}
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        widest = max(list(layers.values()).count(k) for k in set(layers.values()))
        figure, axes = plt.subplots(figsize=(10, max(4.0, 0.5 * widest + 1.5)))
        axes.set_axis_off()
        nx.draw_networkx_edges(g, position, ax=axes, edge_color="#999999", arrows=True,
                               arrowsize=8, width=0.6, node_size=900)  # fmt: skip
        nx.draw_networkx_nodes(g, position, ax=axes, node_shape="s", node_size=900,
                               node_color=[fill[d["decision"]] for _, d in g.nodes(data=True)],
                               edgecolors="#555555")  # fmt: skip
        labels = {
            n: n if n == "bust" else f"{n}\n{'H' if d['decision'] == 'hit' else 'S'}"
            for n, d in g.nodes(data=True)
        }
        nx.draw_networkx_labels(g, position, labels=labels, ax=axes, font_size=6.5)
        axes.set_title(g.graph["title"], fontsize=10)
        key = (
            "orange = hit, blue = stand (optimal play); arrows = cards drawn where optimal "
            "play hits; left to right by number of cards"
        )
        figure.text(0.01, 0.01, key, fontsize=8)
        out = io.BytesIO()
        metadata: dict[str, Any] = {"svg": {"Date": None}, "pdf": {"CreationDate": None},
                                    "png": {"Software": None}}[fmt.value]  # fmt: skip
        figure.savefig(out, format=fmt.value, metadata=metadata, dpi=150)
        plt.close(figure)
    return out.getvalue()


def render_graph(graph: DecisionGraph, fmt: GraphFormat) -> bytes:
    """The graph in ``fmt``, as bytes ready to write."""
    import networkx as nx

    g = to_networkx(graph)
    if fmt is GraphFormat.DOT:
        return to_dot(g).encode()
    if fmt in (GraphFormat.SVG, GraphFormat.PNG, GraphFormat.PDF):
        return draw(g, fmt)
    out = io.BytesIO()
    if fmt is GraphFormat.GRAPHML:
        nx.write_graphml(g, out)
    else:
        nx.write_gexf(g, out)
    return out.getvalue()
