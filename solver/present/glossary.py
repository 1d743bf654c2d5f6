"""The glossary of every figure the project reports, written from the figure catalogue.

``docs/glossary.md`` is this module's :func:`glossary` (``python scripts/glossary_doc.py``
writes it; ``tests/test_figures.py`` fails when the committed page differs).

>>> glossary().splitlines()[0]
'# Glossary: every figure the project reports'
"""

from __future__ import annotations

from solver.results.figures import (
    FIGURES,
    QUANTITIES,
    SIGN_CONVENTION,
    Basis,
    Method,
    Sign,
    heading,
)

_SIGNS = {Sign.PLAYER: "player's", Sign.HOUSE: "casino's", Sign.NONE: "-"}


def _cell(text: str) -> str:
    """Text for a Markdown table cell (a bar would end the cell)."""
    return text.replace("|", "\\|")


def glossary() -> str:
    """The glossary page in Markdown: the sign convention, the bases, the methods, the
    quantities shared by the wagers, then every figure of :data:`FIGURES` in order."""
    lines = [
        "# Glossary: every figure the project reports",
        "",
        "<!-- written by `python scripts/glossary_doc.py` from solver/results/figures.py; "
        "do not edit -->",
        "",
        "Every label, header and caption of the report, the CLI's tables, the workbench and "
        "the CSV headers comes from one catalogue (`solver/results/figures.py`); this page is "
        "written from it. A figure's label names its basis wherever two figures share a label "
        "on different bases (the round's EV per main unit and per unit wagered). A figure's "
        "key names it in the catalogue and in the JSON of the figures added with it (`rtp`); "
        "the workbench's `data-figure` is the key with dashes.",
        "",
        "## Sign convention",
        "",
        SIGN_CONVENTION,
        "",
        "## Bases",
        "",
        "| basis | meaning |",
        "|---|---|",
        *(f"| {b.short or '-'} | {b.words} |" for b in Basis),
        "",
        "## Methods",
        "",
        "| method | meaning |",
        "|---|---|",
        *(f"| {m.short} | {m.words} |" for m in Method),
        "",
        "## Quantities measured of each wager",
        "",
        "| quantity | meaning |",
        "|---|---|",
        *(f"| {q} | {_cell(words)} |" for q, words in QUANTITIES.items()),
        "",
        "## Figures",
        "",
        "| key | label | basis | sign | method | definition |",
        "|---|---|---|---|---|---|",
        *(
            f"| `{f.key}` | {_cell(heading(f.key))} | {f.basis.short or '-'} | "
            f"{_SIGNS[f.sign]} | {f.method.short} | {_cell(f.definition)} |"
            for f in FIGURES
        ),
    ]
    return "\n".join(lines) + "\n"
