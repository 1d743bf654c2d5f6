"""The report's content: the figures of a study laid out as neutral blocks.

:func:`build_report` turns the :class:`~solver.studies.report.ReportFigures` of
:func:`~solver.studies.report.report_figures` into a :class:`Report`: a title block and
sections of text, grids and plots (:mod:`.blocks`), worded for people (no code
identifiers), every figure with its unit, one number style (:mod:`solver.present.style`).
:mod:`.html` and :mod:`.pdf` render the same content.
"""

from __future__ import annotations

import hashlib
import os
import time
from fractions import Fraction
from importlib.metadata import version
from typing import TYPE_CHECKING

from solver.model.rules import Rules
from solver.present.report.blocks import TITLE, Report, TitleBlock, bonus_of
from solver.present.report.design import (
    chart_section,
    dealer_section,
    sensitivity_section,
    variants_section,
)
from solver.present.report.protection import protection_section
from solver.present.report.risk import (
    ratio_section,
    simulation_section,
    table_section,
    volatility_section,
)
from solver.present.report.wagers import (
    appendix_section,
    assumptions_section,
    bonus_section,
    main_section,
    round_section,
    summary_section,
)
from solver.present.wording import rule_lines

if TYPE_CHECKING:
    from solver.exact.game import GameResult
    from solver.studies.report import ReportFigures


def build_report(figures: ReportFigures) -> Report:
    """Lay out every figure of ``figures`` as the report's title block and sections."""
    game = figures.game
    sections = (
        summary_section(game),
        assumptions_section(game),
        bonus_section(game),
        main_section(game),
        round_section(game, figures.joint),
        volatility_section(figures.volatility),
        table_section(figures.table),
        ratio_section(game.rules, figures.ratios, figures.ratio_curve),
        dealer_section(figures.dealer),
        sensitivity_section(figures.sensitivity),
        variants_section(figures.rules, figures.variants),
        chart_section(figures.chart),
        protection_section(figures.protection),
        simulation_section(figures.simulation),
        appendix_section(game),
    )
    return Report(figures.rules, _title_block(figures.rules, game), sections)


# --- Title block ------------------------------------------------------------------------


def _fingerprint(game: GameResult[Fraction]) -> str:
    """Twelve hex digits of a SHA-256 of the rules and every exact headline figure."""
    bonus = bonus_of(game)
    data = [
        repr(sorted(game.rules.to_json().items())),
        str(game.expected_value),
        *(f"{k}={p}" for k, p in game.outcomes.items()),
        str(bonus.expected_value),
        str(game.round_expected_value),
        str(game.round_variance),
    ]
    return hashlib.sha256("\n".join(data).encode()).hexdigest()[:12]


def report_date() -> str:
    """Today's date (UTC), or the date of ``SOURCE_DATE_EPOCH`` when set (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    moment = time.gmtime(int(epoch)) if epoch else time.gmtime()
    return time.strftime("%Y-%m-%d", moment)


def _title_block(rules: Rules, game: GameResult[Fraction]) -> TitleBlock:
    lines = tuple(f"{name}: {value}" for name, value in rule_lines(rules))
    return TitleBlock(
        game=TITLE,
        rules=lines,
        paytable=f"{rules.paytable} ({' : '.join(t.words for t in rules.paytable.tiers)}, to 1)"
        if rules.paytable.standard
        else f"{rules.paytable} (tiers best first, each to 1)",
        revision=f"{version('community-blackjack')}+{_fingerprint(game)}",
        date=report_date(),
    )
