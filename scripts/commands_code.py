"""Write afresh the code derived from the command table (see :mod:`solver.api.command_code`).

    python scripts/commands_code.py            # rewrite what is stale
    python scripts/commands_code.py --check    # name what is stale (exit 1), write nothing

``solver/api/functions.py`` is written whole; in ``solver/__init__.py`` and
``solver/__init__.pyi`` only the lines between the marks change.  Adding a command: its
row in ``solver/api/table.py``, its parameters in ``solver/model/catalogue.py``, its
compute function, and this script.
"""

from __future__ import annotations

import sys

from solver.api.command_code import WRITTEN, written
from solver.model.rule_code import rewrite

if __name__ == "__main__":
    sys.exit(rewrite(WRITTEN, written, sys.argv[1:]))
