"""The committed ``strategy_tables/`` collection: charts for the rules users ask for most.

``cbj tables`` writes every variant in every format and an index page; the tests regenerate
the text formats and one variant's drawings, and (in the soak run) the whole collection, and
compare them with the committed files byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from solver.model.rules import Rules
from solver.present.charts import render
from solver.present.formats import ChartFormat
from solver.present.style import signed_percent, significant_percent

if TYPE_CHECKING:
    from solver.results.charts import Chart


@dataclass(frozen=True, slots=True)
class Variant:
    """One set of rules in the collection, with the folder it is written to."""

    folder: str
    description: str
    rules: Rules

    def file_name(self, fmt: ChartFormat) -> str:
        """The chart's file in ``fmt``, named for the game and the variant, so that a
        downloaded or printed copy says what it is.

        >>> VARIANTS[-1].file_name(ChartFormat.PDF)
        'community-blackjack-vegas-21-strategy.pdf'
        """
        return f"community-blackjack-{self.folder}-strategy.{fmt.value}"


VARIANTS: tuple[Variant, ...] = (
    Variant("default", "default rules: 6 decks, dealer stands on 18, blackjack pays 3:2", Rules()),
    Variant("decks-1", "1 deck", Rules(decks=1)),
    Variant("decks-2", "2 decks", Rules(decks=2)),
    Variant("decks-8", "8 decks", Rules(decks=8)),
    Variant("dealer-stands-17", "dealer stands on 17", Rules(dealer_stands_on=17)),
    Variant("blackjack-pays-6-5", "blackjack pays 6:5", Rules(blackjack_pays=Fraction(6, 5))),
    Variant(
        "vegas-21",
        "Vegas 21 preset: a natural needs the Bonus card and beats every non-blackjack hand",
        Rules.from_preset("vegas-21"),
    ),
)


def write_variant(directory: Path, variant: Variant, chart: Chart) -> list[Path]:
    """Write one variant's chart in every format under ``directory/variant.folder``."""
    folder = directory / variant.folder
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in ChartFormat:
        path = folder / variant.file_name(fmt)
        path.write_bytes(render(chart, fmt))
        written.append(path)
    return written


def index_page(charts: list[tuple[Variant, Chart]], formats: tuple[ChartFormat, ...]) -> str:
    """``strategy_tables/README.md``: every variant, its files and its EV."""
    lines = [
        INDEX_TITLE,
        "",
        "Printable hit/stand charts for Community Blackjack (Casino Edition), one folder per",
        "set of rules, each in every format. Regenerate the whole folder with `cbj tables`;",
        "a test fails when these files differ from a fresh run. Paytable 15:4:1 and bonus",
        "ratio 1/2 throughout (they do not change the main-wager strategy).",
        "",
        "EVs in % of the main wager, as every chart states them: the chart's, the",
        "composition-dependent optimum's, and what the chart gives up per round.",
        "",
        "| rules | chart EV | optimal EV | cost | files |",
        "|---|---|---|---|---|",
    ]
    for variant, chart in charts:
        files = " ".join(f"[{f.value}]({variant.folder}/{variant.file_name(f)})" for f in formats)
        lines.append(
            f"| {variant.description} | {signed_percent(chart.expected_value)} | "
            f"{signed_percent(chart.optimal_expected_value)} | {significant_percent(chart.cost)} | "
            f"{files} |"
        )
    return "\n".join(lines) + "\n"


INDEX_TITLE = "# Strategy tables"


def is_collection(path: Path) -> bool:
    """Whether ``path`` holds a collection written by ``cbj tables`` (its index page)."""
    index = path / "README.md"
    try:
        with index.open(encoding="utf-8") as page:
            return page.readline().rstrip("\n") == INDEX_TITLE
    except (OSError, UnicodeDecodeError):
        return False


def write_collection(
    directory: Path,
    charts: Sequence[Chart],
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write every variant's chart (``charts`` in :data:`VARIANTS` order) and the index page."""
    written = []
    for done, (variant, chart) in enumerate(zip(VARIANTS, charts, strict=True), start=1):
        written += write_variant(directory, variant, chart)
        if progress is not None:
            progress(done, len(VARIANTS))
    index = directory / "README.md"
    index.write_text(index_page(list(zip(VARIANTS, charts, strict=True)), tuple(ChartFormat)))
    return [*written, index]
