"""Reading a game file for ``--game FILE``: the rules of one game, kept in a TOML file (or
a JSON file, named ``*.json``: the workbench's saved games export one).

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

or, the same keys as JSON (``Rules.to_json()`` written out is such a file)::

    {"decks": 2, "bonus_ratio": "1/2", "dealer_stands_on": 17,
     "paytable": {"suited_match": "20", "rank_match": "4", "adjacent": "1"}}

Every failure is one line of a :class:`~solver.model.errors.RulesError` naming the file.
"""

from __future__ import annotations

import json
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
    kind = "JSON object" if _is_json(name) else "TOML file"
    hint = f"a {kind} of rules (docs/rules.md shows one)"
    return _options(read_small_file(path, MAX_GAME_BYTES, "game file", RulesError, hint), name)


def read_game_text(text: str, name: str) -> dict[str, Any]:
    """The rules options of a game file's text (a file the workbench imports), read as JSON
    when ``name`` ends ``.json`` (else as TOML) and checked as :func:`read_game` checks a
    file's; ``name`` names it in messages.

    >>> read_game_text('{"decks": 2, "blackjack_pays": "6:5"}', "mine.json")
    {'decks': 2, 'blackjack_pays': '6:5'}
    >>> read_game_text('[6]', "mine.json")
    Traceback (most recent call last):
    solver.model.errors.RulesError: game file mine.json holds a list, not an object of rules
    """
    data = text.encode("utf-8", "replace")
    if len(data) > MAX_GAME_BYTES:
        raise RulesError(f"game file {name} is over {MAX_GAME_BYTES:,} bytes: a game is smaller")
    return _options(data, name)


def _is_json(name: str) -> bool:
    return name.lower().endswith(".json")


def _options(data: bytes, name: str) -> dict[str, Any]:
    """The rules options of a game file's bytes (read from ``name``), checked: every key a
    rule's (or ``preset``), every value one its rule takes."""
    table = _json_object(data, name) if _is_json(name) else _table(data, name)
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


def _json_object(data: bytes, name: str) -> dict[str, Any]:
    """The JSON object in ``data``, or a one-line error saying why it is not one."""
    try:
        found = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise RulesError(f"game file {name} is not UTF-8 text") from None
    except json.JSONDecodeError as problem:
        raise RulesError(f"game file {name} is not JSON: {str(problem)[:200]}") from None
    except RecursionError:
        raise RulesError(f"game file {name} nests its values too deeply") from None
    except ValueError as problem:  # NaN or Infinity, which JSON itself does not allow
        raise RulesError(f"game file {name} is not JSON: {problem}") from None
    if not isinstance(found, dict):
        kinds = {"list": "a list", "str": "a string"}
        kind = kinds.get(type(found).__name__, "a single value")
        raise RulesError(f"game file {name} holds {kind}, not an object of rules")
    return found


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")


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
