"""The library's front door: one function per ``cbj`` command, each returning a result.

Every function takes the rules as ``rules=`` (a :class:`~solver.model.rules.Rules`) or as
keyword options named like the command's (``decks=1``, ``paytable="15:4:1"``), cards as
text (``"As Kd"``) or :class:`~solver.model.cards.Card` values, and returns a frozen
result that carries its rules and whose ``to_json()`` is the document that
``cbj <command> --format json`` prints.  Nothing here touches the disk unless asked:
pass ``cache=`` to reuse solved games, ``output=`` to write a file.

Every function is made from its row of the command table (:mod:`solver.api.table`):
:mod:`solver.api.functions`, written by ``python scripts/commands_code.py``, holds each
typed signature, and :func:`solver.api.call.call` reads the arguments by the parameter
catalogue and runs the row's computation.
Each public function is also a name of :mod:`solver` itself:

>>> import solver
>>> solver.bonus(decks=6).expected_value
Fraction(-45, 311)
"""
