"""Saved games (issue 47): the conversions the pages' script asks for, the server keeping
nothing (the games live in the browser's ``localStorage``).

A game is kept as the rules' JSON (:meth:`~solver.model.rules.Rules.to_json`, what a
``.json`` game file holds and ``--game`` reads); the page's fields are its form.  One
endpoint turns either into the other, through the readers every other surface uses:

* the page's fields (``preset``, one per rule) in, as read by the rules form;
* or ``game``, a game file's text (a saved game, or a file being imported), and ``name``,
  the file's name, as :func:`~solver.api.game_file.read_game_text` reads it;

and answers the rules' JSON, the fields that show them (the preset nearest them, and each
rule that differs from it) and a short summary, or the one-line reason it refused.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse, Response

from solver.api.game_file import read_game_text
from solver.api.reading import shown_name
from solver.model.errors import CbjError
from solver.model.rules import RULE_TABLE, PresetName, Rules, preset_named
from solver.present.fields import hyphened
from solver.present.formats import rule_cell
from solver.web.form import read_rules
from solver.web.views import Ask


def game_fields(rules: Rules) -> dict[str, str]:
    """The form's fields that give ``rules``: the preset that differs from them in the
    fewest rules (none for the defaults), and the text of each rule that differs.

    >>> game_fields(Rules(decks=2))
    {'decks': '2'}
    >>> game_fields(Rules.from_preset("vegas-21", blackjack_pays="6:5"))
    {'preset': 'vegas-21', 'blackjack_pays': '6:5'}
    """
    nearest = min(PresetName, key=lambda name: len(rules.changed(preset_named(name).to_rules())))
    fields = {} if nearest is PresetName.CASINO_EDITION else {"preset": nearest.value}
    for rule in rules.changed(preset_named(nearest).to_rules()):
        text = rule_cell(rule.to_json(getattr(rules, rule.name)))
        fields[rule.name] = hyphened(text) if rule.choices else text
    return fields


def summary(fields: dict[str, str]) -> str:
    """A game's fields in a few words, for the list of saved games.

    >>> summary({"preset": "vegas-21", "decks": "2"})
    'vegas-21, decks 2'
    >>> summary({})
    'casino-edition'
    """
    words = [fields.get("preset", PresetName.CASINO_EDITION.value)]
    words += [
        f"{rule.name.replace('_', ' ')} {fields[rule.name]}"
        for rule in RULE_TABLE
        if rule.name in fields
    ]
    return ", ".join(words)


def _answer(rules: Rules) -> dict[str, Any]:
    fields = game_fields(rules)
    return {"rules": rules.to_json(), "fields": fields, "summary": summary(fields)}


def _refused(reason: str) -> Response:
    return JSONResponse({"error": reason}, 400)


def saved_game(ask: Ask) -> Response:
    """The saved games' conversions for the pages' script (a POST; the server keeps nothing):
    JSON with ``rules``, ``fields`` and ``summary``, or ``error`` (400)."""
    if not ask.start:
        return Response("post a game from a workbench page", 405, media_type="text/plain")
    if "game" in ask.fields:
        name = shown_name(ask.fields.get("name", "").strip() or "game.json")
        if not name.lower().endswith((".json", ".toml")):
            name += ".json"  # read as what the saved games export
        try:
            options = read_game_text(ask.fields["game"], name)
        except CbjError as error:
            return _refused(str(error))
        return JSONResponse(_answer(Rules.from_options(**options)))
    form = read_rules(ask.fields)
    if form.rules is None:
        return _refused(next(iter(form.errors.values())))
    return JSONResponse(_answer(form.rules))
