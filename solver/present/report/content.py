"""The report's content: the figures of a study laid out as neutral blocks.

:func:`build_report` turns the :class:`~solver.results.report.ReportFigures` of
:func:`~solver.studies.report.report_figures` into a :class:`Report`: a title block and
sections of text, grids and plots (:mod:`.blocks`), worded for people (no code
identifiers), every figure with its unit, one number style (:mod:`solver.present.style`).
:mod:`.html` and :mod:`.pdf` render the same content.
"""

from __future__ import annotations

import os
import platform
import time
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from solver.model.version import described
from solver.present.report.blocks import TITLE, Grid, Report, Section, TitleBlock
from solver.present.report.design import (
    chart_section,
    dealer_section,
    sensitivity_section,
    variants_section,
)
from solver.present.report.front import (
    Prepared,
    definitions_section,
    rules_section,
    title_section,
)
from solver.present.report.protection import protection_section
from solver.present.report.risk import (
    ratio_section,
    table_section,
    volatility_section,
)
from solver.present.report.verification import (
    figures_hash,
    manifest_section,
    paytables_section,
    strategies_section,
    strategy_words,
    verification_section,
)
from solver.present.report.wagers import (
    appendix_section,
    bonus_section,
    main_section,
    round_section,
    summary_section,
)
from solver.present.wording import rule_lines

if TYPE_CHECKING:
    from solver.results.report import ReportFigures


def build_report(figures: ReportFigures, prepared: Prepared | None = None) -> Report:
    """Lay out every figure of ``figures`` as the report's title block and sections.

    The order is a lab's: title block, rules of play with worked examples, definitions,
    the wagers and the round, strategies, paytables, dealer, volatility, the table of
    players, design, game protection, method and verification, the exact values and the
    reproducibility manifest last.
    """
    game = figures.game
    prepared = prepared or Prepared()
    software = described()
    date = report_date()
    lettered = [(g.letter, g.game) for g in figures.paytables] or [("A", game)]
    body = (
        summary_section(game),
        bonus_section(lettered),
        main_section(game),
        round_section(game, figures.joint),
        strategies_section(figures.strategies, game.rules.bonus_ratio, figures.strategy),
        paytables_section(figures.paytables, figures.paytables_chosen),
        dealer_section(figures.dealer),
        volatility_section(figures.volatility, strategy_words(figures.strategy)),
        table_section(figures.table),
        ratio_section(game.rules, figures.ratios, figures.ratio_curve),
        sensitivity_section(figures.sensitivity),
        variants_section(figures.rules, figures.variants),
        chart_section(figures.chart),
        protection_section(figures.protection),
        verification_section(figures),
        appendix_section(game),
        manifest_section(figures, prepared, software, library_versions()),
    )
    sections = (
        title_section(figures, prepared, software, date),
        rules_section(figures),
        definitions_section(shown_keys(body)),
        *body,
    )
    return Report(figures.rules, _title_block(figures, software, date), sections)


def shown_keys(sections: tuple[Section, ...]) -> tuple[str, ...]:
    """The catalogue keys of every figure the sections' grids show, each once, in order."""
    found = (
        key
        for section in sections
        for block in section.blocks
        if isinstance(block, Grid)
        for row in block.keys
        for key in row
        if key is not None
    )
    return tuple(dict.fromkeys(found))


def library_versions() -> tuple[tuple[str, str], ...]:
    """Python's version and those of the libraries the figures and the files depend on."""
    found = [("Python", platform.python_version())]
    for name in ("numpy", "reportlab", "matplotlib"):
        try:
            found.append((name, version(name)))
        except PackageNotFoundError:
            found.append((name, "not installed"))
    return tuple(found)


# --- Title block ------------------------------------------------------------------------


def report_date() -> str:
    """Today's date (UTC), or the date of ``SOURCE_DATE_EPOCH`` when set (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    moment = time.gmtime(int(epoch)) if epoch else time.gmtime()
    return time.strftime("%Y-%m-%d", moment)


def _title_block(figures: ReportFigures, software: str, date: str) -> TitleBlock:
    rules = figures.rules
    lines = tuple(f"{name}: {value}" for name, value in rule_lines(rules))
    paytables = "; ".join(f"{g.letter} {g.game.rules.paytable}" for g in figures.paytables)
    return TitleBlock(
        game=TITLE,
        rules=lines,
        paytable=f"{paytables or rules.paytable} "
        + (
            f"({' : '.join(t.words for t in rules.paytable.tiers)}, to 1)"
            if rules.paytable.standard
            else "(tiers best first, each to 1)"
        ),
        software=software,
        figures_hash=figures_hash(figures)[:12],
        date=date,
    )
