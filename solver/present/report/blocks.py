"""The report's neutral blocks (text, grids, plots, sections) and what every section shares.

:mod:`.html` and :mod:`.pdf` render these blocks; the section modules build them from the
figures of :func:`solver.studies.report.report_figures`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.model.errors import ReportError
from solver.model.rules import Rules
from solver.present.formats import figure_cells
from solver.present.report.plots import standalone_svg

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from solver.results.bonus import BonusAnalysis
    from solver.results.game import GameResult

TITLE = "Community Blackjack (Casino Edition)"
SUBTITLE = "Mathematical analysis of the game (PAR sheet)"


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
    compact: bool = False
    """Narrow cells (the strategy chart)."""
    breaks: tuple[int, ...] = ()
    """Rows drawn with a heavy rule above them (the chart's soft block)."""
    long_numbers: bool = False
    """Every cell but the first is an exact number of up to a hundred digits or so (a
    fraction, or a count grouped by thousands): set whole, never broken inside a group."""
    keys: tuple[tuple[str | None, ...], ...] = field(default=(), compare=False)
    """The catalogue key of the figure in each cell (the shape of ``rows``), ``None`` for a
    cell that shows none: the Definitions section and the tests read them."""

    def figures(self) -> list[tuple[str, str, str, str]]:
        """Every figure cell as (key, its row's first cell, its column's header, its text)."""
        return figure_cells(self.headers, self.rows, self.keys)


@dataclass(frozen=True, slots=True, eq=False)
class Plot:
    """A matplotlib figure, drawn by ``draw``, and its caption.

    Each rendering draws a new figure (the PDF onto its page, the HTML as SVG): a fresh
    figure keeps renderings byte-identical, as matplotlib's layout can move by a rounding
    step when the same figure is drawn twice. :meth:`svg` keeps the SVG it drew.
    """

    draw: Callable[[], Figure]
    caption: str
    _drawn: list[str] = field(default_factory=list, init=False, repr=False)

    def svg(self) -> str:
        """The figure as a standalone SVG document, text kept as text (drawn once)."""
        if not self._drawn:
            self._drawn.append(standalone_svg(self.draw()))
        return self._drawn[0]


Block = Text | Grid | Plot


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of the report."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Annex:
    """A lettered part after the core (A, B, ...): it starts on a page of its own."""

    letter: str
    title: str
    sections: tuple[Section, ...]

    @property
    def heading(self) -> str:
        """``Annex C. Designer studies``."""
        return f"Annex {self.letter}. {self.title}"


@dataclass(frozen=True, slots=True)
class TitleBlock:
    """What a test lab files a PAR sheet under: game, rules, paytable, identity and date.

    ``software`` is the program's version and source commit; ``figures_hash`` the start of
    the SHA-256 of every exact figure (the manifest gives it whole), the same for the same
    game on any machine. ``fields`` are the rest, each a (field, entry) pair: the rules'
    hash, who prepared the report and for whom, the revision, and the table limits and
    procedures when given.
    """

    game: str
    rules: tuple[str, ...]
    paytable: str
    software: str
    figures_hash: str
    date: str
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Report:
    """A whole report: the rules it describes, its title block, its core sections in the
    order a lab reads them, and its annexes (none in a core-only report)."""

    rules: Rules
    title_block: TitleBlock
    core: tuple[Section, ...]
    annexes: tuple[Annex, ...] = ()
    title: str = TITLE
    subtitle: str = SUBTITLE

    @property
    def sections(self) -> tuple[Section, ...]:
        """Every section, the core's then each annex's, in order."""
        return (*self.core, *(s for annex in self.annexes for s in annex.sections))

    def numbered(self) -> list[tuple[str, Section]]:
        """Every section with its number: the core's ``1``, ``2``, ..., an annex's ``C.1``
        (or ``C`` when the annex is one section)."""
        found = [(str(i), s) for i, s in enumerate(self.core, start=1)]
        for annex in self.annexes:
            one = len(annex.sections) == 1
            found += [
                (annex.letter if one else f"{annex.letter}.{i}", s)
                for i, s in enumerate(annex.sections, start=1)
            ]
        return found

    @property
    def generator(self) -> str:
        """The program, its version and source commit, that produced the report."""
        return f"cbj {self.title_block.software}"

    @property
    def identity(self) -> str:
        """What the report is: its figures' hash, the label of its running header."""
        return f"figures hash {self.title_block.figures_hash}"


def exact(value: Fraction | float) -> Fraction:
    """A figure of the report's exact solve, refused if it is a float."""
    if not isinstance(value, Fraction):
        raise ReportError("the report is built from an exact solve")
    return value


def bonus_of(game: GameResult[Fraction]) -> BonusAnalysis:
    """The game's Bonus analysis, which a report always has (it deals from a full shoe)."""
    if game.bonus is None:
        raise ReportError("the report needs the suits of every card out of the shoe")
    return game.bonus


def column_keys(
    rows: tuple[tuple[str, ...], ...], keys: tuple[str | None, ...]
) -> tuple[tuple[str | None, ...], ...]:
    """The cell keys of a grid whose every row shows the same figure in each column."""
    return tuple(keys for _ in rows)
