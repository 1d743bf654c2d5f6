"""The workbench's form fields as HTML: the rules' fields from the rule table, and any
command's parameter from its entry in the parameter catalogue (:func:`param_field`).

Pure: texts and errors in, HTML out (drawn by ``templates/fields/fields.html``).  Every field
has its label, its help and its error beside it (an ``aria-describedby`` naming both), and a
blank field shows, as its placeholder or its first choice, the value in force (the preset's:
:func:`preset_words`).

>>> "Decks" in rules_fields({}, {}, Rules())
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Literal

from solver.model.catalogue import EXACT
from solver.model.params import YES, Kind, Param
from solver.model.rule_table import Rule
from solver.model.rules import RULE_TABLE, PresetName, Rules, preset_named
from solver.present.formats import rule_cell
from solver.present.templates import Markup, macro

TEMPLATE = "fields/fields.html"


@dataclass(frozen=True, slots=True)
class Field:
    """One field as ``fields/fields.html`` draws it: a text box, a drop-down or a text area,
    with its label, its help, and its error (None when it has none)."""

    name: str
    label: str
    hint: str
    error: str | None
    prefix: str = ""
    kind: Literal["text", "select", "textarea"] = "text"
    value: str = ""
    placeholder: str = ""
    numeric: bool = False
    #: A drop-down's choices: the value the form sends, its words, whether it is chosen.
    options: tuple[tuple[str, str, bool], ...] = ()
    #: A drop-down's first, blank choice, or None for none.
    blank: str | None = None
    presets: str = ""
    #: A text box's suggestions: the id of a ``<datalist>`` on the page, or "" for none.
    suggestions: str = ""


def _drawn(field: Field) -> Markup:
    return macro(TEMPLATE, "field", field)


def _options(
    choices: Sequence[str], chosen: str, words: Callable[[str], str] = str
) -> tuple[tuple[str, str, bool], ...]:
    """A drop-down's choices: each as the form sends it, in ``words``, and if it is chosen."""
    return tuple((c, words(c), c == chosen) for c in choices)


def choice_words(rule: Rule, value: str) -> str:
    """A choice of a rule in plain words (the rule table's), not its typed value.

    >>> from solver.model.rule_table import RULES_BY_NAME
    >>> choice_words(RULES_BY_NAME["dealer_natural"], "own_cards")
    'two dealer cards only'
    """
    return rule.words(rule.check(value))


def hyphened(choice: str) -> str:
    """A choice as the forms write it: with hyphens (``must_use`` is ``must-use``)."""
    return choice.replace("_", "-")


def _blank_words(rule: Rule, value: object) -> str:
    """What a rule's blank field says of the value in force: its text, or its words."""
    current = rule_cell(rule.to_json(value))
    return f"as the preset ({choice_words(rule, current)})" if rule.choices else current


def preset_words() -> dict[str, dict[str, str]]:
    """For each preset, what each rule's blank field says of it: the placeholder of a text
    field, the first choice of a drop-down (the page's script shows them as the preset
    changes, so that every field says what is in force).

    >>> preset_words()["vegas-21"]["dealer_natural"]
    'as the preset (one dealer card with the Bonus card only)'
    """
    found = {}
    for name in PresetName:
        rules = preset_named(name).to_rules()
        found[name.value] = {r.name: _blank_words(r, getattr(rules, r.name)) for r in RULE_TABLE}
    return found


def _hint(rule: Rule) -> str:
    """A field's help: the rule's, its typed choices left to the drop-down's words."""
    if rule.choices:
        return rule.help.split(":")[0].rstrip(".") + "."
    said = rule.limits.replace(" to ", "-") in rule.help  # "(1-8)" already in the help
    return rule.help if said else f"{rule.help} Range: {rule.limits}."


def rules_fields(
    values: Mapping[str, str], errors: Mapping[str, str], rules: Rules | None, prefix: str = ""
) -> Markup:
    """One field per row of the rule table, and the preset, each with its help and its error.

    A blank field keeps the preset's value, shown as the field's placeholder.
    """
    shown = (rules or Rules()).to_json()
    preset = Field(
        "preset",
        "Preset",
        "Start from a named set of rules; the fields below override it.",
        errors.get("preset"),
        prefix,
        "select",
        options=_options([p.value for p in PresetName], values.get("preset", "")),
        blank="casino-edition (the defaults)",
        presets=json.dumps(preset_words()),
    )
    found = [preset]
    for rule in RULE_TABLE:
        given = values.get(rule.name, "")
        current = rule_cell(shown[rule.name])
        field = Field(rule.name, rule.label, _hint(rule), errors.get(rule.name), prefix)
        if rule.choices:
            words = partial(choice_words, rule)
            choices = [hyphened(c) for c in rule.choices]
            options = _options(choices, hyphened(given), words)
            blank = f"as the preset ({words(current)})"
            field = replace(field, kind="select", options=options, blank=blank)
        else:
            numeric = rule.kind is int
            field = replace(field, value=given, placeholder=current, numeric=numeric)
        found.append(field)
    return Markup("").join(_drawn(f) for f in found)


def check_box(name: str, label: str, checked: bool, prefix: str = "") -> Markup:
    """A box that says yes or no (exact fractions: an exact solve, slower)."""
    return macro(TEMPLATE, "check_box", name, label, checked, prefix)


def exact_box(checked: bool, prefix: str = "") -> Markup:
    """The box that asks for exact fractions (an exact solve: slower)."""
    return check_box("exact", EXACT.label, checked, prefix)


def param_field(
    param: Param,
    given: str,
    errors: Mapping[str, str],
    shown: str = "",
    words: Callable[[str], str] | None = None,
    suggestions: str = "",
) -> Markup:
    """One parameter's field, made from its catalogue entry: a drop-down of its choices
    (each in ``words``), a box for a yes or no, else a text box showing ``shown`` (its
    example, else) when blank, offering the page's datalist ``suggestions`` if named; its
    label, its help and its error beside it.

    >>> from solver.model.catalogue import HOLD_ROUNDS
    >>> 'placeholder="100,000"' in param_field(HOLD_ROUNDS, "", {})
    True
    """
    label = param.label or param.what.capitalize()
    hint = param.hint or param.help.split("  [default:")[0]
    if param.kind is Kind.FLAG:
        return check_box(param.name, label, given.strip().lower() in YES)
    field = Field(param.name, label, hint, errors.get(param.name))
    if param.choices:
        chosen = given if given in param.choices else param.default or param.example
        options = _options(param.choices, chosen, words or str)
        return _drawn(replace(field, kind="select", options=options))
    placeholder = shown or param.shown_default or param.example
    numeric = param.kind is Kind.WHOLE
    return _drawn(
        replace(
            field, value=given, placeholder=placeholder, numeric=numeric, suggestions=suggestions
        )
    )


def textarea_field(param: Param, given: str, errors: Mapping[str, str], name: str = "") -> Markup:
    """A parameter's text area for a file's text (the Hold check's daily results), with a
    file picker that fills it (by the page's script; without it the text is pasted), its
    label, its help and its error."""
    name = name or param.name
    label = param.label or param.what.capitalize()
    return _drawn(
        Field(name, label, param.hint, errors.get(name), "", "textarea", given, param.example)
    )


def form_error(errors: Mapping[str, str]) -> Markup:
    """An error about the rules as a whole (two fields that contradict each other)."""
    return macro(TEMPLATE, "error", "form-error-", errors.get("", ""))


def choice_field(
    name: str, label: str, given: str, choices: Sequence[str], hint: str, errors: Mapping[str, str]
) -> Markup:
    """A drop-down field of fixed choices (the first is the default)."""
    options = _options(choices, given, lambda c: c.replace("_", " "))
    return _drawn(Field(name, label, hint, errors.get(name), kind="select", options=options))
