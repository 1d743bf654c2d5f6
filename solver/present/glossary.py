"""The glossary: the game's words and every figure the project reports, written from the
table of the game's words and the figure catalogue.

``docs/glossary.md`` is this module's :func:`glossary` (``python scripts/glossary_doc.py``
writes it; ``tests/test_figures.py`` fails when the committed page differs).

>>> glossary().splitlines()[0]
"# Glossary: the game's words and every figure the project reports"
"""

from __future__ import annotations

from solver.model.game_words import GAME_WORDS
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
    """The glossary page in Markdown: the game's words (:data:`GAME_WORDS`), then the
    figures' sign convention, bases, methods and shared quantities, and every figure of
    :data:`FIGURES` in order."""
    lines = [
        "# Glossary: the game's words and every figure the project reports",
        "",
        "<!-- written by `python scripts/glossary_doc.py` from solver/model/game_words.py and "
        "solver/results/figures.py; do not edit -->",
        "",
        "## The game's words",
        "",
        "Each word as this project uses it, the clause of [the rules](rules.md) it comes from, "
        "and what the rule text, a casino or standard blackjack calls it where that differs "
        "(`solver/model/game_words.py`).",
        "",
        "| word | meaning | clause | elsewhere |",
        "|---|---|---|---|",
        *(
            f"| {w.word} | {_cell(w.meaning)} | {w.clause or '-'} | {_cell(w.elsewhere) or '-'} |"
            for w in GAME_WORDS
        ),
        "",
        "## The figures",
        "",
        "Every label, header and caption of the report, the CLI's tables, the workbench and "
        "the CSV headers comes from one catalogue (`solver/results/figures.py`); this page is "
        "written from it. A figure's label names its basis wherever two figures share a label "
        "on different bases (the round's EV per main unit and per unit wagered). A figure's "
        "key names it in the catalogue and in the JSON of the figures added with it (`rtp`); "
        "the workbench's `data-figure` is the key with dashes.",
        "",
        "### Sign convention",
        "",
        SIGN_CONVENTION,
        "",
        "### Bases",
        "",
        "| basis | meaning |",
        "|---|---|",
        *(f"| {b.short or '-'} | {b.words} |" for b in Basis),
        "",
        "### Methods",
        "",
        "| method | meaning |",
        "|---|---|",
        *(f"| {m.short} | {m.words} |" for m in Method),
        "",
        "### Quantities measured of each wager",
        "",
        "| quantity | meaning |",
        "|---|---|",
        *(f"| {q} | {_cell(words)} |" for q, words in QUANTITIES.items()),
        "",
        "### Every figure",
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
