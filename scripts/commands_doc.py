"""Write afresh the docs' blocks made from the command table (:mod:`solver.api.command_doc`).

    python scripts/commands_doc.py

The command guide's table of every command and ``docs/api.md``'s signature of every
function lie between marks in their pages; everything else is left as it is.
``tests/test_commands.py`` fails when a committed page differs from what this writes.
"""

from __future__ import annotations

import os
from pathlib import Path

from solver.api.command_doc import PAGES, written

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main() -> None:
    """Rewrite each page's block in place (through a temporary file and a rename)."""
    for page in PAGES:
        path = DOCS / page
        text = written(page, path.read_text(encoding="utf-8"))
        temporary = path.with_suffix(".md.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)


if __name__ == "__main__":
    main()
