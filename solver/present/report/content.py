"""The report's content: the figures of a study laid out as neutral blocks.

:func:`build_report` turns the :class:`~solver.results.report.ReportFigures` of
:func:`~solver.studies.report.report_figures` into a :class:`Report`: a title block, a core
of at most eight A4 pages in the order a lab reads a PAR sheet, then lettered annexes, each
starting a page of its own (:mod:`.blocks`); worded for people (no code identifiers), every
figure with its unit and the catalogue's format (:mod:`solver.present.style`). :mod:`.html`
and :mod:`.pdf` render the same content.
"""

from __future__ import annotations

import os
import platform
import time
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from solver.model.version import described
from solver.present.formats import download_name
from solver.present.report.blocks import SUBTITLE, Annex, Grid, Report, Section, TitleBlock
from solver.present.report.design import (
    chart_section,
    dealer_plot_section,
    dealer_section,
    sensitivity_section,
    variants_section,
)
from solver.present.report.front import (
    Prepared,
    clauses_section,
    definitions_section,
    game_section,
    game_title,
    title_and_subtitle,
    title_fields,
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
    method_section,
    paytables_section,
    strategies_section,
    strategy_words,
    verification_core,
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

#: The annexes after the core, lettered in order.
ANNEX_TITLES = (
    ("A", "Rules in full, definitions and method"),
    ("B", "Exact fractions"),
    ("C", "Designer studies"),
    ("D", "Game protection"),
    ("E", "Verification in detail"),
    ("F", "Sessions and risk"),
)


def build_report(
    figures: ReportFigures,
    prepared: Prepared | None = None,
    core_only: bool = False,
    output: str = "",
) -> Report:
    """Lay out every figure of ``figures`` as the report's title block, core and annexes
    (the core alone with ``core_only``); ``output`` is the file the manifest's command
    writes (the game's PDF, ``cbj-6d-15-4-1-report.pdf``, when not given).

    The core is a lab's order: the game and worked examples, the summary, optimal play
    beside the printed chart and realistic play, each wager's paytable, the whole round,
    the dealer, the verification and the reproducibility manifest. The annexes: A the rules
    in full, definitions and method; B exact fractions; C designer studies; D game
    protection; E verification in detail; F sessions and risk.
    """
    game = figures.game
    prepared = prepared or Prepared()
    software = described()
    date = report_date()
    name = game_title(figures.rules)
    core = (
        game_section(figures, prepared),
        summary_section(game, name),
        strategies_section(figures.strategies, game.rules.bonus_ratio, figures.strategy),
        bonus_section(game),
        main_section(game),
        round_section(game, figures.joint),
        dealer_section(figures.dealer),
        verification_core(figures),
        manifest_section(
            figures,
            prepared,
            software,
            library_versions(),
            core_only,
            output or download_name(figures.rules, "report", "pdf"),
        ),
    )
    annexes = () if core_only else _annexes(figures, core)
    block = _title_block(figures, prepared, software, date, name)
    title, subtitle = title_and_subtitle(figures.rules, SUBTITLE)
    return Report(figures.rules, block, core, annexes, title=title, subtitle=subtitle)


def _annexes(figures: ReportFigures, core: tuple[Section, ...]) -> tuple[Annex, ...]:
    """Annexes A to F; A's definitions cover every figure the report prints (``core`` and
    the annexes)."""
    game = figures.game
    later = {
        "B": (appendix_section(game),),
        "C": (
            paytables_section(figures.paytables, figures.paytables_chosen),
            variants_section(figures.rules, figures.variants),
            sensitivity_section(figures.sensitivity),
            ratio_section(game.rules, figures.ratios, figures.ratio_curve),
            chart_section(figures.chart),
            dealer_plot_section(figures.dealer),
        ),
        "D": (_retitled(protection_section(figures.protection), "Game protection"),),
        "E": (verification_section(figures),),
        "F": (
            volatility_section(figures.volatility, figures.rules, strategy_words(figures.strategy)),
            table_section(figures.table),
        ),
    }
    everything = [s for sections in later.values() for s in sections]
    keys = shown_keys((*core, *everything))
    first = (clauses_section(figures), definitions_section(keys), method_section())
    sections = {"A": first, **later}
    return tuple(Annex(letter, title, sections[letter]) for letter, title in ANNEX_TITLES)


def _retitled(section: Section, title: str) -> Section:
    return Section(title, section.blocks)


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


def _title_block(
    figures: ReportFigures, prepared: Prepared, software: str, date: str, name: str
) -> TitleBlock:
    rules = figures.rules
    lines = tuple(f"{label}: {value}" for label, value in rule_lines(rules))
    paytables = "; ".join(f"{g.letter} {g.game.rules.paytable}" for g in figures.paytables)
    return TitleBlock(
        game=name,
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
        fields=title_fields(rules, prepared),
    )
