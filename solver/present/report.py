"""A PAR-style math report of the game: content built once, rendered to HTML or PDF.

:func:`build_report` computes every figure and lays it out as :class:`Section`\\ s of
neutral blocks (:class:`Text`, :class:`Grid`, :class:`Plot`); :func:`render_html` and
:func:`render_pdf` turn the same sections into a self-contained web page or a PDF.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from solver.exact.dealer import dealer_distribution
from solver.exact.design import (
    PAY_TIERS,
    EdgeKind,
    EdgeModel,
    edge_model,
    one_rule_at_a_time,
    rule_differences,
    solve_variants,
    with_pay,
)
from solver.exact.game import GameResult, GameStore, round_outcomes
from solver.exact.strategy import COLUMNS, Action, Chart, best_chart, grid
from solver.model.cards import RANKS, VALUES, Card, Shoe, value_label
from solver.model.numbers import number, percent, signed
from solver.model.outcomes import MAIN_OUTCOMES, BonusOutcome, main_payoffs
from solver.model.rules import RULE_MEANINGS, Rules, format_ratio
from solver.present.charts import (
    COLOURS,
    EXCEPTION_HEADERS,
    TOP_EXCEPTIONS,
    exception_rows,
    summary,
)
from solver.present.files import check_writable, choose_format, write_atomic
from solver.present.tables import rule_cell

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TITLE = "Community Blackjack (Casino Edition)"
SUBTITLE = "Mathematical analysis of the game (PAR report)"


@dataclass(frozen=True, slots=True)
class Text:
    """A paragraph of plain text."""

    text: str


@dataclass(frozen=True, slots=True)
class Grid:
    """A table: header row, body rows of text, optional caption and cell colours.

    ``colours`` (same shape as ``rows``) gives a CSS colour such as ``#d8ecd0`` for a
    cell's background, or ``None``; a strategy chart is a grid with colours.
    """

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""
    colours: tuple[tuple[str | None, ...], ...] | None = None
    numeric: bool = True
    """Align every column but the first to the right."""


@dataclass(frozen=True, slots=True, eq=False)
class Plot:
    """A matplotlib figure, drawn afresh by ``draw`` for each rendering, and its caption.

    A new figure each time keeps renderings byte-identical: matplotlib's layout can move
    by a rounding step when the same figure is drawn twice.
    """

    draw: Callable[[], Figure]
    caption: str


Block = Text | Grid | Plot


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of the report."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Report:
    """A whole report: the rules it describes and its sections in order."""

    rules: Rules
    sections: tuple[Section, ...]
    title: str = TITLE
    subtitle: str = SUBTITLE
    generator: str = field(default_factory=lambda: f"cbj {version('community-blackjack')}")


def build_report(rules: Rules, jobs: int = 1, cache: GameStore | None = None) -> Report:
    """Compute every figure of the game under ``rules`` and lay out the report."""
    model = edge_model(rules, jobs, cache)
    game = model.priced(rules.paytable, rules.bonus_ratio)
    variants = solve_variants(one_rule_at_a_time(rules), jobs=jobs, cache=cache)
    sections = (
        _summary(game),
        _assumptions(game),
        _bonus_section(game),
        _main_section(game),
        _round_section(game),
        _dealer_section(rules),
        _sensitivity_section(model, rules),
        Section(
            "Rule variants",
            (
                Text(
                    "Each row changes one rule from those in force and keeps the paytable and "
                    "the bonus ratio. Main-wager EVs are from the float solver (agreeing with "
                    "the exact solver to 1e-12); Bonus EVs are exact."
                ),
                Grid(
                    ("rules changed", "main EV", "Bonus EV", "round house edge"),
                    tuple(
                        (
                            rule_differences(v.rules, rules),
                            signed(v.main_expected_value),
                            signed(v.bonus_expected_value),
                            percent(v.round_house_edge),
                        )
                        for v in variants
                    ),
                ),
            ),
        ),
        _chart_section(best_chart(model.rules, model.game)),
        _appendix(game),
    )
    return Report(rules, sections)


# --- Figures --------------------------------------------------------------------------

MAIN_PAYS = {"blackjack": "", "win": "1 to 1", "push": "0", "lose": "-1"}
BONUS_NAMES = {
    BonusOutcome.SUITED_MATCH: "suited match",
    BonusOutcome.RANK_MATCH: "rank match",
    BonusOutcome.ADJACENT: "adjacent",
    BonusOutcome.LOSE: "lose",
}


def _one_in(probability: Fraction) -> str:
    return f"1 in {1 / float(probability):,.1f}" if probability else "never"


def _pay_text(pay: Fraction) -> str:
    return f"{format_ratio(pay).replace(':', ' to ')}"


def _fraction(value: Fraction | float) -> Fraction:
    assert isinstance(value, Fraction), "the report is built from an exact solve"
    return value


def _summary(game: GameResult[Fraction]) -> Section:
    rules, bonus = game.rules, game.bonus
    assert bonus is not None
    r = rules.bonus_ratio
    outcomes = {k: _fraction(p) for k, p in game.outcomes.items()}
    main_ev = _fraction(game.expected_value)
    round_ev = _fraction(game.round_expected_value)
    suited = next(ln for ln in bonus.lines if ln.outcome is BonusOutcome.SUITED_MATCH)
    top_round = game.round_lines[-1]
    rows = (
        ("Wager per round (units)", "1", str(r), str(1 + r)),
        ("Expected value per round", signed(main_ev), signed(r * bonus.expected_value),
         signed(round_ev)),
        ("House edge", percent(-main_ev), percent(bonus.house_edge),
         percent(_fraction(game.round_house_edge))),
        ("Element of risk", percent(-main_ev), percent(bonus.house_edge),
         percent(_fraction(game.round_house_edge))),
        ("Hit frequency", number(outcomes["blackjack"] + outcomes["win"], 4),
         number(bonus.hit_frequency, 4), number(_fraction(game.round_hit_frequency), 4)),
        ("Standard deviation (units)", number(game.standard_deviation, 4),
         number(bonus.standard_deviation * float(r), 4),
         number(math.sqrt(game.round_variance), 4)),
        ("Top award", f"blackjack, {_pay_text(rules.blackjack_pays)}",
         f"suited match, {_pay_text(suited.pays)}", f"{signed(top_round.net, 2)} units"),
        ("Odds of the top award", _one_in(outcomes["blackjack"]), _one_in(suited.probability),
         _one_in(_fraction(top_round.probability))),
    )  # fmt: skip
    return Section(
        "Summary",
        (
            Text(
                f"This report gives the exact mathematics of {TITLE} under the rules and "
                f"paytable in force: {rules.summary()}. Every figure is computed exactly "
                "from the full shoe (no simulation) and rounded only for display; the "
                "appendix gives the exact fractions."
            ),
            Grid(
                ("figure", "main wager", "Bonus wager", "whole round"),
                rows,
                caption="Key figures. Amounts in units of the main wager; the round's house "
                "edge is per unit of the total amount wagered (main + Bonus). The game has "
                "no doubles, splits or raises, so the amount wagered is fixed and the element "
                "of risk equals the house edge. A negative main-wager edge means the player "
                "has the advantage on that wager alone; the Bonus wager is mandatory.",
            ),
        ),
    )


def _assumptions(game: GameResult[Fraction]) -> Section:
    rules = game.rules
    values = rules.to_json()
    rows = tuple(
        (name.replace("_", " "), rule_cell(values[name]), RULE_MEANINGS[name]) for name in values
    )
    n = 52 * rules.decks
    return Section(
        "Assumptions and method",
        (
            Grid(("rule", "value", "meaning"), rows, caption="Rules in force.", numeric=False),
            Text(
                f"Wagers: the main wager is one unit and the Bonus wager {rules.bonus_ratio} "
                f"unit(s); the Bonus pays {rules.paytable.suited_match} / "
                f"{rules.paytable.rank_match} / {rules.paytable.adjacent} to 1 for a suited "
                "match / rank match / adjacent rank, and loses otherwise."
            ),
            Text(
                "Player strategy: composition-dependent optimal play. For each Bonus card and "
                "each set of the player's own cards, the player hits or stands, whichever has "
                "the higher expected value of the main wager given the exact cards left in the "
                "shoe. The Bonus wager is settled on the first two cards and involves no "
                "decision."
            ),
            Text(
                f"Method: exact combinatorial analysis of a freshly shuffled {rules.decks}-deck "
                f"shoe ({n} cards). Every ordered pair of player card and Bonus card, every "
                "player hand and every dealer drawing sequence is weighted by its exact "
                "probability; all figures are rational numbers computed without rounding. "
                "Combinations count ordered pairs of physical cards, "
                f"{n} x {n - 1} = {n * (n - 1):,} in all. One player plays against the dealer."
            ),
        ),
    )


def _bonus_section(game: GameResult[Fraction]) -> Section:
    bonus = game.bonus
    assert bonus is not None
    rows = tuple(
        (
            BONUS_NAMES[ln.outcome],
            _pay_text(ln.pays) if ln.pays >= 0 else "-1",
            f"{ln.combinations:,}",
            number(ln.probability, 6),
            signed(ln.return_, 6),
        )
        for ln in bonus.lines
    )
    total = ("total", "", f"{bonus.total_combinations:,}", number(1, 6),
             signed(bonus.expected_value, 6))  # fmt: skip
    return Section(
        "Bonus wager",
        (
            Grid(
                ("outcome", "pays", "combinations", "probability", "return"),
                (*rows, total),
                caption=f"Return table per unit on the Bonus wager. House edge "
                f"{percent(bonus.house_edge)}, hit frequency {number(bonus.hit_frequency, 4)}, "
                f"standard deviation {number(bonus.standard_deviation, 4)}.",
            ),
        ),
    )


def _main_section(game: GameResult[Fraction]) -> Section:
    pays = main_payoffs(game.rules)
    rows = tuple(
        (k, MAIN_PAYS[k] or _pay_text(pays[k]), number(p, 6), signed(p * pays[k], 6))
        for k, p in game.outcomes.items()
    )
    total = ("total", "", number(1, 6), signed(game.expected_value, 6))
    by_card = game.by_bonus_card()
    return Section(
        "Main wager",
        (
            Grid(
                ("outcome", "pays", "probability", "return"),
                (*rows, total),
                caption="Return table per unit on the main wager under optimal play. "
                "Blackjack is the player's own card and the Bonus card making 21, paid at once.",
            ),
            Plot(partial(_ev_by_bonus_plot, game), "Main-wager EV by the Bonus card dealt."),
            Grid(
                ("Bonus card", *(value_label(c) for c in by_card)),
                (("main EV (%)", *(f"{float(v) * 100:+.2f}" for v in by_card.values())),),
                caption="The same figures: EV per unit on the main wager given the Bonus card.",
            ),
        ),
    )


def _round_section(game: GameResult[Fraction]) -> Section:
    rules = game.rules
    pays = main_payoffs(rules)
    joint = round_outcomes(game)
    rows = []
    for k in MAIN_OUTCOMES:
        for outcome in BonusOutcome:
            if (k, outcome) not in joint:
                continue
            bonus_pay = rules.paytable.as_dict().get(outcome.value, Fraction(-1))
            net = pays[k] + rules.bonus_ratio * bonus_pay
            p = _fraction(joint[(k, outcome)])
            rows.append((str(k), BONUS_NAMES[outcome], signed(net, 2), number(p, 6),
                         signed(p * net, 6)))  # fmt: skip
    rows.append(("total", "", "", number(1, 6), signed(game.round_expected_value, 6)))
    return Section(
        "Whole round",
        (
            Grid(
                ("main wager", "Bonus wager", "net (units)", "probability", "return"),
                tuple(rows),
                caption=f"Return table of a round: one unit on the main wager and "
                f"{rules.bonus_ratio} on the Bonus, both settled on the same two cards "
                "(combinations that cannot occur are left out). House edge "
                f"{percent(_fraction(game.round_house_edge))} of the total wagered; "
                f"hit frequency {number(_fraction(game.round_hit_frequency), 4)}; standard "
                f"deviation {number(math.sqrt(game.round_variance), 4)} units.",
            ),
        ),
    )


def dealer_rows(rules: Rules) -> list[tuple[int, dict[str, Fraction]]]:
    """The dealer's exact final-result distribution for each Bonus card (full shoe less it)."""
    rows = []
    for c in VALUES:
        shoe = Shoe.full(rules.decks).remove([Card(RANKS[c - 1])])
        rows.append((c, dealer_distribution(rules, c, shoe.value_counts())))
    return rows


def _dealer_section(rules: Rules) -> Section:
    rows = dealer_rows(rules)
    labels = tuple(rows[0][1])
    return Section(
        "Dealer",
        (
            Grid(
                ("Bonus card", *labels),
                tuple((value_label(c), *(number(d[x], 4) for x in labels)) for c, d in rows),
                caption="The dealer's final result for each Bonus card, from the full shoe "
                "less that card (before the player draws).",
            ),
            Plot(partial(_dealer_plot, rows), "The dealer's final result by Bonus card."),
        ),
    )


def _chart_section(chart: Chart) -> Section:
    """The best printable chart, its cost against perfect play and its main exceptions."""
    rows = grid(chart)
    return Section(
        "Strategy chart",
        (
            Text(
                "The best chart that looks only at the total of the player's own cards (hard, or "
                "soft when an ace counts 11) and the Bonus card: H hit, S stand, - no decision "
                f"(a blackjack). {summary(chart)}. The main-wager figures above assume "
                "composition-dependent optimal play; a player using this chart gets the "
                "chart EV instead."
            ),
            Grid(
                ("hand", *COLUMNS),
                tuple((hand, *actions) for hand, actions in rows),
                caption="Hit/stand chart by own total (rows) and Bonus card (columns).",
                colours=tuple(
                    (None, *(COLOURS[Action(a)] for a in actions)) for _, actions in rows
                ),
                numeric=False,
            ),
            Grid(
                EXCEPTION_HEADERS,
                tuple(exception_rows(chart)),
                caption=f"The {TOP_EXCEPTIONS} hands where perfect play departs from the chart "
                f"that matter most (of {len(chart.exceptions)}).",
                numeric=False,
            ),
        ),
    )


def _sensitivity_section(model: EdgeModel, rules: Rules) -> Section:
    ratio = rules.bonus_ratio
    edge = model.linear(EdgeKind.ROUND, ratio)
    rows = []
    for tier, slope in zip(PAY_TIERS, edge.coefficients, strict=True):
        current = getattr(rules.paytable, tier.value)
        # The edge is linear in the pay: solve edge(current) + slope * (x - current) = 0.
        even = current - edge(rules.paytable) / slope
        rows.append(
            (
                BONUS_NAMES[tier],
                _pay_text(current),
                f"{float(slope) * 100:+.4f} points",
                f"{float(even):.4f}" if even >= 0 else "none (edge stays positive)",
            )
        )
    return Section(
        "Paytable sensitivity",
        (
            Text(
                "The main wager's optimal play does not depend on the Bonus pays, so the "
                "round's house edge is an exact straight line in each pay. The plot moves one "
                "pay at a time, the others held at the paytable in force (the dot)."
            ),
            Plot(
                partial(_sensitivity_plot, model, rules),
                "Round house edge as a function of each pay.",
            ),
            Grid(
                ("tier", "pays", "edge change per unit of pay", "break-even pay"),
                tuple(rows),
                caption="Break-even pay: the pay of that tier, the others unchanged, at which "
                "the round's house edge is exactly 0.",
            ),
        ),
    )


def _appendix(game: GameResult[Fraction]) -> Section:
    bonus = game.bonus
    assert bonus is not None
    exact: list[tuple[str, Fraction]] = [
        ("main wager EV", _fraction(game.expected_value)),
        *((f"main wager P({k})", _fraction(p)) for k, p in game.outcomes.items()),
        ("main wager variance", _fraction(game.variance)),
        ("Bonus wager EV", bonus.expected_value),
        *((f"Bonus P({BONUS_NAMES[ln.outcome]})", ln.probability) for ln in bonus.lines),
        ("Bonus wager variance", bonus.variance),
        ("round EV", _fraction(game.round_expected_value)),
        ("round house edge", _fraction(game.round_house_edge)),
        ("round hit frequency", _fraction(game.round_hit_frequency)),
        ("round variance", _fraction(game.round_variance)),
        *(
            (f"main EV, Bonus card {value_label(c)}", _fraction(v))
            for c, v in game.by_bonus_card().items()
        ),
    ]
    return Section(
        "Appendix: exact values",
        (
            Grid(
                ("quantity", "exact value"),
                tuple((name, str(value)) for name, value in exact),
                caption="Every headline figure as an exact fraction.",
                numeric=False,
            ),
        ),
    )


# --- Plots ----------------------------------------------------------------------------

INK = "#1f3a5f"
GOOD = "#3c7d4f"
BAD = "#b5473a"
PALETTE = ("#b5473a", "#9ecae1", "#6baed6", "#3182bd", "#08519c", "#f2b134", "#7f7f7f")


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure  # imported here: only drawing a report needs it

    return Figure(figsize=(width, height), layout="constrained")


def _ev_by_bonus_plot(game: GameResult[Fraction]) -> Figure:
    figure = _figure(6.4, 2.8)
    axes = figure.add_subplot()
    by_card = game.by_bonus_card()
    labels = [value_label(c) for c in by_card]
    values = [float(v) * 100 for v in by_card.values()]
    axes.bar(labels, values, color=[GOOD if v >= 0 else BAD for v in values], width=0.65)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.axhline(float(game.expected_value) * 100, color=INK, linestyle="--", linewidth=1,
                 label=f"overall {float(game.expected_value) * 100:+.2f}%")  # fmt: skip
    axes.set_xlabel("Bonus card")
    axes.set_ylabel("main-wager EV (%)")
    axes.legend(frameon=False, loc="upper right")
    axes.spines[["top", "right"]].set_visible(False)
    return figure


def _dealer_plot(rows: list[tuple[int, dict[str, Fraction]]]) -> Figure:
    figure = _figure(6.4, 3.0)
    axes = figure.add_subplot()
    labels = list(rows[0][1])
    names = [value_label(c) for c, _ in rows]
    left = [0.0] * len(rows)
    for i, label in enumerate(labels):
        widths = [float(d[label]) for _, d in rows]
        colour = PALETTE[i] if i < len(labels) - 1 else PALETTE[-2]
        if i == 0:
            colour = PALETTE[0]
        axes.barh(names, widths, left=left, color=colour, label=label, height=0.7)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    axes.set_xlim(0, 1)
    axes.invert_yaxis()
    axes.set_xlabel("probability")
    axes.set_ylabel("Bonus card")
    axes.legend(ncols=len(labels), frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    axes.spines[["top", "right"]].set_visible(False)
    return figure


def _sensitivity_plot(model: EdgeModel, rules: Rules) -> Figure:
    figure = _figure(6.8, 2.6)
    figure.get_layout_engine().set(wspace=0.06)  # type: ignore[call-arg, union-attr]
    axes_row = figure.subplots(1, 3, sharey=True)
    ratio = rules.bonus_ratio
    current_edge = float(model.edge(EdgeKind.ROUND, rules.paytable, ratio)) * 100
    for axes, tier in zip(axes_row, PAY_TIERS, strict=True):
        current = getattr(rules.paytable, tier.value)
        high = max(2 * current, current + 2)
        xs = [Fraction(0), high]
        ys = [
            float(model.edge(EdgeKind.ROUND, with_pay(rules.paytable, tier, x), ratio)) * 100
            for x in xs
        ]
        axes.plot([float(x) for x in xs], ys, color=INK, linewidth=1.6)
        axes.axhline(0, color="black", linewidth=0.8)
        axes.plot([float(current)], [current_edge], "o", color=BAD, markersize=5)
        axes.set_title(BONUS_NAMES[tier], fontsize=10)
        axes.set_xlabel("pay (to 1)")
        axes.spines[["top", "right"]].set_visible(False)
    axes_row[0].set_ylabel("round house edge (%)")
    return figure


def _svg(figure: Figure, prefix: str) -> str:
    """The figure as inline SVG with ids renamed ``prefix``-1, -2, ... in order of use.

    matplotlib names clip paths after object addresses; renaming makes the output
    reproducible and keeps ids unique among several figures on one page.
    """
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "cbj", "svg.fonttype": "path"}):
        figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    text = text[text.index("<svg") :]
    names = {old: f"{prefix}-{n}" for n, old in enumerate(dict.fromkeys(_SVG_ID.findall(text)))}
    return _SVG_REF.sub(lambda m: m.group(1) + names.get(m.group(2), m.group(2)), text)


_SVG_ID = re.compile(r'\bid="([^"]+)"')
_SVG_REF = re.compile(r'(id="|#)([A-Za-z_][\w.-]*)')


def _png(figure: Figure) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=200, metadata={"Software": None})
    return out.getvalue()


# --- HTML -----------------------------------------------------------------------------

_CSS = """
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #222;
       max-width: 60rem; margin: 2rem auto; padding: 0 1.5rem; line-height: 1.45; }
header { border-bottom: 3px solid #1f3a5f; margin-bottom: 1.5rem; }
h1 { color: #1f3a5f; margin-bottom: 0.2rem; }
h2 { color: #1f3a5f; border-bottom: 1px solid #c8d3e0; padding-bottom: 0.2rem;
     margin-top: 2.2rem; }
.subtitle { font-size: 1.15rem; color: #555; margin-top: 0; }
.rules { font-size: 0.9rem; color: #444; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.88rem; }
th { background: #1f3a5f; color: white; text-align: left; padding: 0.35rem 0.6rem; }
td { padding: 0.3rem 0.6rem; border-bottom: 1px solid #dde3ea; vertical-align: top; }
tr:nth-child(even) td { background: #f4f6f9; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.exact { font-family: "DejaVu Sans Mono", monospace; font-size: 0.78rem;
           word-break: break-all; }
caption { caption-side: bottom; text-align: left; font-size: 0.82rem; color: #555;
          padding-top: 0.35rem; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.82rem; color: #555; }
nav ol { columns: 2; font-size: 0.92rem; }
footer { margin-top: 3rem; font-size: 0.8rem; color: #777; border-top: 1px solid #ccc; }
"""


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (plots as inline SVG)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(report.title)}: {e(report.subtitle)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<header><h1>{e(report.title)}</h1><p class=subtitle>{e(report.subtitle)}</p>",
        f"<p class=rules>Rules: {e(report.rules.summary())}</p></header>",
        "<nav><ol>",
        *(
            f'<li><a href="#s{i}">{e(s.title)}</a></li>'
            for i, s in enumerate(report.sections, start=1)
        ),
        "</ol></nav>",
    ]
    for i, section in enumerate(report.sections, start=1):
        parts.append(f'<section id="s{i}"><h2>{i}. {e(section.title)}</h2>')
        parts.extend(_html_block(b, f"s{i}f{j}") for j, b in enumerate(section.blocks, 1))
        parts.append("</section>")
    parts.append(f"<footer>Generated by {e(report.generator)}.</footer></body></html>")
    return "\n".join(parts) + "\n"


def _html_block(block: Block, key: str) -> str:
    e = html.escape
    if isinstance(block, Text):
        return f"<p>{e(block.text)}</p>"
    if isinstance(block, Plot):
        return (
            f"<figure>{_svg(block.draw(), key)}<figcaption>{e(block.caption)}</figcaption></figure>"
        )
    exact = block.headers[-1] == "exact value"
    rows = []
    for r, row in enumerate(block.rows):
        cells = []
        for c, text in enumerate(row):
            kind = "exact" if exact and c else "num" if block.numeric and c else ""
            colour = block.colours[r][c] if block.colours else None
            style = f' style="background:{colour}"' if colour else ""
            cells.append(f"<td{f' class={kind}' if kind else ''}{style}>{e(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = f"<caption>{e(block.caption)}</caption>" if block.caption else ""
    head = "".join(
        f"<th{' class=num' if block.numeric and c else ''}>{e(h)}</th>"
        for c, h in enumerate(block.headers)
    )
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


# --- PDF ------------------------------------------------------------------------------


def render_pdf(report: Report) -> bytes:
    """The report as a PDF (A4, reportlab); byte-identical for the same report."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate

    fonts = _register_fonts()
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=22 * mm,
        bottomMargin=20 * mm,
        title=f"{report.title}: {report.subtitle}",
        author=report.generator,
        subject=report.rules.summary(),
        creator=report.generator,
        producer=report.generator,
        invariant=True,
    )
    styles = _styles(fonts)
    story = _cover(report, styles)
    for i, section in enumerate(report.sections, start=1):
        story.extend(_pdf_section(i, section, styles, document.width))

    def decorate(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(fonts[0], 8)
        canvas.setFillColorRGB(0.35, 0.35, 0.35)
        top = A4[1] - 14 * mm
        left, right = doc.leftMargin + 6, A4[0] - doc.rightMargin - 6  # the frame's padding
        canvas.drawString(left, top, f"{report.title}: {report.subtitle}")
        canvas.setStrokeColorRGB(0.12, 0.23, 0.37)
        canvas.line(left, top - 2 * mm, right, top - 2 * mm)
        canvas.drawString(left, 12 * mm, report.generator)
        canvas.drawRightString(right, 12 * mm, f"page {doc.page}")
        canvas.restoreState()

    document.build(story, onFirstPage=decorate, onLaterPages=decorate)
    return out.getvalue()


def _register_fonts() -> tuple[str, str, str]:
    """DejaVu Sans (shipped with matplotlib) so that PDF text matches the plots."""
    import matplotlib
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    names = ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono")
    for name in names:
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(folder / f"{name}.ttf")))
    return names


def _styles(fonts: tuple[str, str, str]) -> dict[str, Any]:
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle

    regular, bold, mono = fonts
    ink = colors.HexColor(INK)
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=22, leading=27, textColor=ink),
        "subtitle": ParagraphStyle("subtitle", fontName=regular, fontSize=13, leading=17,
                                   textColor=colors.HexColor("#555555"), spaceAfter=8),
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=14, leading=18, textColor=ink,
                             spaceBefore=14, spaceAfter=6),
        "body": ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=13,
                               spaceAfter=6),
        "caption": ParagraphStyle("caption", fontName=regular, fontSize=8, leading=10.5,
                                  textColor=colors.HexColor("#555555"), spaceBefore=3,
                                  spaceAfter=10),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=8, leading=10),
        "cell_right": ParagraphStyle("cell_right", fontName=regular, fontSize=8, leading=10,
                                     alignment=2),
        "head": ParagraphStyle("head", fontName=bold, fontSize=8, leading=10,
                               textColor=colors.white),
        "head_right": ParagraphStyle("head_right", fontName=bold, fontSize=8, leading=10,
                                     textColor=colors.white, alignment=2),
        "mono": ParagraphStyle("mono", fontName=mono, fontSize=6.5, leading=8.5),
    }  # fmt: skip


def _cover(report: Report, styles: dict[str, Any]) -> list[Any]:
    from reportlab.lib import colors
    from reportlab.platypus import HRFlowable, Paragraph, Spacer

    return [
        Spacer(1, 4),
        Paragraph(escape(report.title), styles["title"]),
        Paragraph(escape(report.subtitle), styles["subtitle"]),
        HRFlowable(width="100%", thickness=2, color=colors.HexColor(INK), spaceAfter=8),
        Paragraph(f"<b>Rules:</b> {escape(report.rules.summary())}", styles["body"]),
        Paragraph(
            "<b>Contents:</b> "
            + "; ".join(f"{i}. {escape(s.title)}" for i, s in enumerate(report.sections, 1)),
            styles["body"],
        ),
    ]


def _pdf_section(number_: int, section: Section, styles: dict[str, Any], width: float) -> list[Any]:
    from reportlab.platypus import KeepTogether, PageBreak, Paragraph

    heading = Paragraph(f"{number_}. {escape(section.title)}", styles["h1"])
    # A table or plot stays with its caption and the paragraph just before it; the
    # heading stays with what follows it.
    story: list[Any] = [PageBreak()] if section.title.startswith("Appendix") else []
    held: list[Any] = [heading]
    blocks = section.blocks
    for i, block in enumerate(blocks):
        held.extend(_pdf_block(block, styles, width))
        if isinstance(block, Text) and i + 1 < len(blocks) and not isinstance(blocks[i + 1], Text):
            continue
        story.append(KeepTogether(held))
        held = []
    return story


def _pdf_block(block: Block, styles: dict[str, Any], width: float) -> list[Any]:
    from reportlab.platypus import Image, Paragraph

    if isinstance(block, Text):
        return [Paragraph(escape(block.text), styles["body"])]
    caption = [Paragraph(escape(block.caption), styles["caption"])] if block.caption else []
    if isinstance(block, Plot):
        figure = block.draw()
        inches = figure.get_size_inches()
        image = Image(io.BytesIO(_png(figure)), width=width,
                      height=width * inches[1] / inches[0])  # fmt: skip
        return [image, *caption]
    return [_pdf_table(block, styles, width), *caption]


def _pdf_table(block: Grid, styles: dict[str, Any], width: float) -> Any:
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    exact = block.headers[-1] == "exact value"

    def cell(text: str, column: int) -> Any:
        if exact and column:
            return Paragraph(escape(text), styles["mono"])
        style = "cell_right" if block.numeric and column else "cell"
        return Paragraph(escape(text), styles[style])

    data = [
        [
            Paragraph(escape(h), styles["head_right" if block.numeric and c else "head"])
            for c, h in enumerate(block.headers)
        ]
    ]
    data += [[cell(t, c) for c, t in enumerate(row)] for row in block.rows]
    widths = _column_widths(block, width)
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(INK)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#c8d3e0")),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]
    for r in range(2, len(data), 2):
        commands.append(("BACKGROUND", (0, r), (-1, r), colors.HexColor("#f4f6f9")))
    if block.colours:
        for r, row in enumerate(block.colours, start=1):
            for c, colour in enumerate(row):
                if colour:
                    commands.append(("BACKGROUND", (c, r), (c, r), colors.HexColor(colour)))
    table.setStyle(TableStyle(commands))
    return table


def _column_widths(block: Grid, width: float) -> list[float]:
    """Share the page width by the longest text in each column (first column wider)."""
    columns = len(block.headers)
    longest = [
        max(len(block.headers[c]), *(len(row[c]) for row in block.rows)) if block.rows else 1
        for c in range(columns)
    ]
    if block.headers[-1] == "exact value":
        return [width * 0.3, width * 0.7]
    weights = [min(max(n, 4), 60) + 2 for n in longest]
    total = sum(weights)
    natural = [width * w / total for w in weights]
    if sum(longest) < 70:  # a narrow table need not span the page
        scale = max(sum(longest) / 70, 0.55)
        natural = [w * scale for w in natural]
    # Never so narrow that a short label ("hard 10") wraps: about 5 points a character.
    fitted = [max(w, 5.0 * n + 9) for w, n in zip(natural, longest, strict=True)]
    if sum(fitted) > width:
        fitted = [w * width / sum(fitted) for w in fitted]
    return fitted


#: Formats a report is written in.
REPORT_FORMATS = ("html", "pdf")


def check_report_path(path: Path, fmt: str | None = None) -> str:
    """The report's format (from ``fmt`` or ``path``'s extension), once ``path`` is writable.

    Checked before the report is computed, so a bad path fails in a moment.
    """
    chosen = choose_format(path, fmt, REPORT_FORMATS, "html")
    check_writable(path)
    return chosen


def render_report(report: Report, fmt: str) -> bytes:
    """The report as HTML or PDF bytes."""
    return render_pdf(report) if fmt == "pdf" else render_html(report).encode("utf-8")


def write_report(report: Report, path: Path, fmt: str | None = None) -> Path:
    """Write ``report`` to ``path`` atomically, as ``fmt`` or as its extension says."""
    return write_atomic(path, render_report(report, check_report_path(path, fmt)))
