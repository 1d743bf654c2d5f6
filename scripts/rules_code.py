"""Write afresh the code derived from the rule table (see :mod:`solver.model.rule_code`).

    python scripts/rules_code.py            # rewrite what is stale
    python scripts/rules_code.py --check    # name what is stale (exit 1), write nothing

``solver/model/rule_fields.py`` is written whole; in ``solver/__init__.py`` and
``solver/__init__.pyi`` only the lines between the marks change.  Adding a rule: its row
in ``solver/model/rule_table.py``, this script, ``python scripts/rules_doc.py``, and the
code that gives the rule its meaning.
"""

from __future__ import annotations

import sys

from solver.model.rule_code import WRITTEN, rewrite, written

if __name__ == "__main__":
    sys.exit(rewrite(WRITTEN, written, sys.argv[1:]))
