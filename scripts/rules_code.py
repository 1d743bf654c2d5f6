"""Write afresh the code derived from the rule table (see :mod:`solver.model.rule_code`).

    python scripts/rules_code.py            # rewrite what is stale
    python scripts/rules_code.py --check    # name what is stale (exit 1), write nothing

``solver/model/rule_fields.py`` is written whole; in ``solver/__init__.py`` and
``solver/__init__.pyi`` only the lines between the marks change.  Adding a rule: its row
in ``solver/model/rule_table.py``, this script, ``python scripts/rules_doc.py``, and the
code that gives the rule its meaning.
"""

from __future__ import annotations

import os
import sys

from solver.model.rule_code import PACKAGE, WRITTEN, written


def main(argv: list[str]) -> int:
    """Rewrite (or with ``--check`` only list) each stale file; 1 if any was stale."""
    check = "--check" in argv
    stale = 0
    for name in WRITTEN:
        path = PACKAGE / name
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        fresh = written(name, text)
        if fresh == text:
            continue
        stale += 1
        print(f"{'stale' if check else 'wrote'}: solver/{name}", file=sys.stderr)
        if not check:
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_text(fresh, encoding="utf-8")
            os.replace(temporary, path)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
