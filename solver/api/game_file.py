"""Reading a game file for ``--game FILE``: the rules of one game, kept in a TOML file.

Each key is a rule's name as :meth:`~solver.model.rules.Rules.to_json` writes it (dashes
or underscores), each value what that rule's option takes, and ``preset`` may name the
rules to start from::

    preset = "casino-edition"
    decks = 2
    bonus_ratio = "1/2"
    dealer_stands_on = 17

    [paytable]
    suited_match = 20
    rank_match = 4
    adjacent = 1

Every failure is one line of a :class:`~solver.model.errors.RulesError` naming the file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from solver.api.reading import read_small_file, shown_name
from solver.model.errors import RulesError
from solver.model.rules import RULE_TABLE, Rules

#: The largest game file read: a whole game is a few hundred bytes.
MAX_GAME_BYTES = 64 * 1024
#: The keys a game file may hold: the preset, then one per row of the rule table.
GAME_KEYS = ("preset", *(rule.name for rule in RULE_TABLE))


def read_game(path: str | Path) -> dict[str, Any]:
    """The rules options a game file gives, checked: the keywords every command takes.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as file:
    ...     _ = file.write('decks = 2\\ndealer-stands-on = 17\\n')
    >>> read_game(file.name)
    {'decks': 2, 'dealer_stands_on': 17}
    >>> os.remove(file.name)
    """
    name = shown_name(path)
    hint = "a TOML file of rules (docs/rules.md shows one)"
    table = _table(read_small_file(path, MAX_GAME_BYTES, "game file", RulesError, hint), name)
    options: dict[str, Any] = {}
    for key, value in table.items():
        field = key.replace("-", "_")
        if field not in GAME_KEYS:
            raise RulesError(
                f"game file {name}: unknown key {shown_name(key)}; "
                f"the keys are {', '.join(GAME_KEYS)}"
            )
        options[field] = value
    try:
        Rules.from_options(**options)
    except (RulesError, TypeError) as problem:  # TypeError: a value of the wrong kind
        raise RulesError(f"game file {name}: {problem}") from None
    return options


def _table(data: bytes, name: str) -> dict[str, Any]:
    """The TOML document in ``data``, or a one-line error saying why it is not one."""
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise RulesError(f"game file {name} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as problem:
        first = str(problem).splitlines()[0][:200]
        raise RulesError(f"game file {name} is not TOML: {first}") from None
    except RecursionError:
        raise RulesError(f"game file {name} nests its values too deeply") from None
