"""Write the rules table of docs/rules.md afresh from the rule table.

    python scripts/rules_doc.py

The table lies between two marks in the page; everything else is left as it is.
``tests/test_rule_table.py`` fails when the committed page differs from what this writes.
"""

from __future__ import annotations

import os
from pathlib import Path

from solver.present.wording import with_rules_doc_table

RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def main() -> None:
    """Rewrite the table in place (through a temporary file and a rename)."""
    text = with_rules_doc_table(RULES_DOC.read_text(encoding="utf-8"))
    temporary = RULES_DOC.with_suffix(".md.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, RULES_DOC)


if __name__ == "__main__":
    main()
