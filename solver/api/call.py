"""The one door of the API: a command's arguments read by its row, then its computation.

Every function of :mod:`solver.api.functions` is ``call(name, locals())``.  Here each
argument is read by its catalogue entry (:meth:`~solver.model.params.Param.read`: its
type, its text, its range; one message for a bad value whichever surface gave it), the
rules are made from ``rules=`` and the rule options, the run settings become one
:class:`~solver.results.kinds.Run`, a chart file a strategy names is read, and the row's
compute function is called, or its writer when the command writes files.

>>> call("rules", {"rules": None, "options": {"decks": "2"}}).rules.decks
2

It loads what a command needs when the command runs: ``cbj rules`` loads no computation
but its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from solver.api.progress import step_progress
from solver.api.rules import make_rules, variant_rules
from solver.api.table import COMMANDS_BY_FUNCTION, Command
from solver.model.catalogue import RUN_PARAMS
from solver.model.params import Param
from solver.model.rules import Rules, preset_named
from solver.results.run import Run

if TYPE_CHECKING:
    from solver.results.kinds import Store


def load(reference: str) -> Any:
    """The object a table names as ``module:name``, its module imported when first asked for."""
    module, _, name = reference.partition(":")
    return getattr(import_module(module), name)


#: What reads the files a parameter names (chart files, read by the API, never by a
#: computation; each failure one line), by the parameter.
FILES = {
    "strategy": "solver.api.chart_file:player",
    "names": "solver.api.chart_file:players",
    "file": "solver.api.chart_file:load_chart",
    "chart": "solver.api.chart_file:chart_read",
}


def files_reader(param: Param) -> str:
    """What reads the files ``param``'s value names (``module:function``; empty: none)."""
    return param.files or FILES.get(param.name, "")


def read(command: Command, given: Mapping[str, Any]) -> dict[str, Any]:
    """Each argument given to ``command``'s function, read by its catalogue entry."""
    return {p.name: p.read(given.get(p.name, p.default)) for p in command.api_params}


@cache
def kept() -> Store:
    """Where the commands that keep their solves without a cache keep them (a practice
    session's game and chart costs): the latest eight results, those of four rule sets
    (made when first asked for: ``cbj rules`` loads no store)."""
    from solver.store.memory import LatestCache

    return LatestCache(size=8)


def run_of(command: Command, values: dict[str, Any], given: Run | None) -> Run:
    """The run settings among ``values`` (taken out of them) over the ``run=`` given;
    ``progress=True`` is a tqdm bar labelled as the CLI's (``False``: none); without a
    cache, a command that keeps its solves keeps them in :func:`kept`."""
    if given is not None and not isinstance(given, Run):
        raise TypeError(f"run must be a Run or None, not {type(given).__name__}")
    base = given or Run()
    settings = {name: values.pop(name) for name in RUN_PARAMS if name in values}
    changed = {k: v for k, v in settings.items() if v != RUN_PARAMS[k].default}
    progress = changed.get("progress", base.progress)
    if isinstance(progress, bool):
        changed["progress"] = step_progress(progress, command.progress or command.name)
    found = replace(base, **changed)
    return replace(found, cache=kept()) if command.memory and found.cache is None else found


def rules_of(command: Command, given: Mapping[str, Any], values: dict[str, Any]) -> Rules:
    """The rules ``command`` runs under: ``rules=`` with the rule options over it."""
    rules = given.get("rules")
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be Rules or None, not {type(rules).__name__}")
    options = dict(given.get("options") or {})
    if command.rules == "variants":
        base, values["listed"] = variant_rules(rules, options)
        return base
    return make_rules(rules, options)


def arguments(
    command: Command, values: Mapping[str, Any], rules: Rules | None, run: Run
) -> dict[str, Any]:
    """The compute function's keywords: every value read, and the rules and the run where
    the row takes them (a compute function takes its row's parameters, no more)."""
    found = dict(values)
    if command.rules:
        found["rules"] = rules
    if command.run:
        found["run"] = run
    return found


def call(name: str, given: Mapping[str, Any]) -> Any:
    """Run the command whose API function is ``name`` on the arguments ``given`` (the
    function's ``locals()``: each parameter, ``rules``, ``run`` and the rule ``options``)."""
    command = COMMANDS_BY_FUNCTION[name]
    values = read(command, given)
    run = run_of(command, values, given.get("run"))
    for param in command.api_params:  # a bad name or an unreadable file fails before work
        reader = files_reader(param)
        if reader and values.get(param.name) is not None:
            values[param.name] = load(reader)(values[param.name])
    rules = rules_of(command, given, values) if command.rules else None
    if command.write:
        return load(command.write)(command, values, rules, run)
    found = arguments(command, values, rules, run)
    if command.name == "rules":
        named = dict(given.get("options") or {}).get("preset")
        found["preset"] = None if named is None else preset_named(named)
    return load(command.compute)(**found)
