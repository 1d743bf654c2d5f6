"""The glossary: the game's words and every figure the project reports, written from the
table of the game's words and the figure catalogue.

``docs/glossary.md`` is this module's :func:`glossary` (``python scripts/glossary_doc.py``
writes it; ``tests/test_figures.py`` fails when the committed page differs).

>>> glossary().splitlines()[0]
"# Glossary: the game's words and every figure the project reports"
"""

from __future__ import annotations

from solver.model.game_words import GAME_WORDS
from solver.results.dimensions import DIMENSIONS, JSON_FIELDS
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
        "the CSV headers comes from one catalogue (`solver/results/figures.py`, and "
        "`solver/results/dimensions.py` for what tables run over); this page is written from "
        "it. A figure's label names its basis wherever two figures share a label on different "
        "bases (the round's EV per main unit and per unit wagered). Each figure is written in "
        "one format in every output (the report, the terminal, Markdown, the workbench); a "
        "CSV holds the number that format shows, its unit (%, 1 in N, to 1) in the column's "
        "header. A figure's JSON key is its name in every JSON document that holds it; inside "
        "the `main`, `bonus` and `round` objects of `cbj solve` and `cbj bonus` a wager's own "
        "figures drop the wager and spell EV and SD out (`expected_value`, `house_edge`, "
        "`rtp`, `hit_frequency`, `variance`, `standard_deviation`), but the round's SD keeps "
        "its one key, `round_sd`, everywhere. An outcome is `loss` (never `lose`) in every "
        "output. The workbench's `data-figure` is the catalogue key with dashes.",
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
        "| key | label | basis | sign | method | format | JSON key | definition |",
        "|---|---|---|---|---|---|---|---|",
        *(
            f"| `{f.key}` | {_cell(heading(f.key))} | {f.basis.short or '-'} | "
            f"{_SIGNS[f.sign]} | {f.method.short} | {f.fmt.words} | `{f.json}` | "
            f"{_cell(f.definition)} |"
            for f in FIGURES
        ),
        "",
        "## Dimensions",
        "",
        "What tables run over where a column or a row is no figure.",
        "",
        "| label | JSON key | meaning |",
        "|---|---|---|",
        *(
            f"| {_cell(d.label)} | {f'`{d.json_key}`' if d.json_key else '-'} | "
            f"{_cell(d.meaning)} |"
            for d in DIMENSIONS
        ),
        "",
        "## JSON keys that name no figure",
        "",
        "Besides each figure's key above, the rules' names, and data used as keys (cards, "
        "outcomes, tiers, true counts, percentiles), every key a JSON document holds is one "
        "of these (`tests/test_labels.py` reads every command's JSON).",
        "",
        "| key | what it holds |",
        "|---|---|",
        *(f"| `{key}` | {_cell(words)} |" for key, words in sorted(JSON_FIELDS.items())),
    ]
    return "\n".join(lines) + "\n"
