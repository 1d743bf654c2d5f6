"""Write docs/glossary.md afresh from the figure catalogue.

    python scripts/glossary_doc.py

``tests/test_figures.py`` fails when the committed page differs from what this writes.
"""

from __future__ import annotations

import os
from pathlib import Path

from solver.present.glossary import glossary

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"


def main() -> None:
    """Rewrite the page (through a temporary file and a rename)."""
    temporary = GLOSSARY.with_suffix(".md.tmp")
    temporary.write_text(glossary(), encoding="utf-8")
    os.replace(temporary, GLOSSARY)


if __name__ == "__main__":
    main()
