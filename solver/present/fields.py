"""The workbench's form fields as HTML: the rules' fields from the rule table, and any
command's parameter from its entry in the parameter catalogue (:func:`param_field`).

Pure: texts and errors in, escaped HTML out.  Every field has its label, its help and its
error beside it (an ``aria-describedby`` naming both), and a blank field shows, as its
placeholder or its first choice, the value in force (the preset's: :func:`preset_words`).

>>> "Decks" in rules_fields({}, {}, Rules())
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from html import escape

from solver.model.catalogue import EXACT
from solver.model.params import YES, Kind, Param
from solver.model.rule_table import Rule
from solver.model.rules import RULE_TABLE, PresetName, Rules, preset_named
from solver.present.formats import rule_cell


def _error(name: str, errors: Mapping[str, str], prefix: str) -> str:
    message = errors.get(name, "")
    return f'<p class="error" id="{prefix}error-{name}" role="alert">{escape(message)}</p>'


def _field(
    name: str, label: str, control: str, hint: str, errors: Mapping[str, str], prefix: str
) -> str:
    invalid = ' class="field invalid"' if name in errors else ' class="field"'
    return (
        f'<div{invalid}><label for="{prefix}f-{name}">{escape(label)}</label>{control}'
        f'<small id="{prefix}help-{name}">{escape(hint)}</small>'
        f"{_error(name, errors, prefix)}</div>"
    )


def _described(name: str, errors: Mapping[str, str], prefix: str) -> str:
    invalid = ' aria-invalid="true"' if name in errors else ""
    return (
        f'id="{prefix}f-{name}" name="{prefix}{name}" '
        f'aria-describedby="{prefix}help-{name} {prefix}error-{name}"{invalid}'
    )


def _select(
    name: str,
    choices: Sequence[str],
    given: str,
    blank: str | None,
    attributes: str,
    words: Callable[[str], str] = str,
) -> str:
    """A drop-down: each choice's value as the form sends it, its ``words`` as it reads (a
    first, blank choice reading ``blank`` unless that is None)."""
    options = [] if blank is None else [f'<option value="">{escape(blank)}</option>']
    options += [
        f'<option value="{escape(c)}"'
        + (" selected" if c == given else "")
        + f">{escape(words(c))}</option>"
        for c in choices
    ]
    return f"<select {attributes}>{''.join(options)}</select>"


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
) -> str:
    """One field per row of the rule table, and the preset, each with its help and its error.

    A blank field keeps the preset's value, shown as the field's placeholder.
    """
    shown = (rules or Rules()).to_json()
    presets = escape(json.dumps(preset_words()), quote=True)
    parts = [
        _field(
            "preset",
            "Preset",
            _select(
                "preset",
                [p.value for p in PresetName],
                values.get("preset", ""),
                "casino-edition (the defaults)",
                _described("preset", errors, prefix) + f' data-presets="{presets}"',
            ),
            "Start from a named set of rules; the fields below override it.",
            errors,
            prefix,
        )
    ]
    for rule in RULE_TABLE:
        given = values.get(rule.name, "")
        current = rule_cell(shown[rule.name])
        attributes = _described(rule.name, errors, prefix)
        if rule.choices:
            words = partial(choice_words, rule)
            control = _select(
                rule.name,
                [hyphened(c) for c in rule.choices],
                hyphened(given),
                f"as the preset ({words(current)})",
                attributes,
                words,
            )
        else:
            mode = ' inputmode="numeric"' if rule.kind is int else ""
            control = (
                f'<input type="text" {attributes}{mode} value="{escape(given)}" '
                f'placeholder="{escape(current)}" autocomplete="off" spellcheck="false">'
            )
        parts.append(_field(rule.name, rule.label, control, _hint(rule), errors, prefix))
    return "".join(parts)


def check_box(name: str, label: str, checked: bool, prefix: str = "") -> str:
    """A box that says yes or no (exact fractions: an exact solve, slower)."""
    mark = " checked" if checked else ""
    return (
        f'<div class="field check"><input type="checkbox" id="{prefix}f-{name}" '
        f'name="{prefix}{name}" value="1"{mark}><label for="{prefix}f-{name}">'
        f"{escape(label)}</label></div>"
    )


def exact_box(checked: bool, prefix: str = "") -> str:
    """The box that asks for exact fractions (an exact solve: slower)."""
    return check_box("exact", EXACT.label, checked, prefix)


def param_field(
    param: Param,
    given: str,
    errors: Mapping[str, str],
    shown: str = "",
    words: Callable[[str], str] | None = None,
) -> str:
    """One parameter's field, made from its catalogue entry: a drop-down of its choices
    (each in ``words``), a box for a yes or no, else a text box showing ``shown`` (its
    example, else) when blank; its label, its help and its error beside it.

    >>> from solver.model.catalogue import HOLD_ROUNDS
    >>> 'placeholder="100,000"' in param_field(HOLD_ROUNDS, "", {})
    True
    """
    label = param.label or param.what.capitalize()
    hint = param.hint or param.help.split("  [default:")[0]
    if param.kind is Kind.FLAG:
        return check_box(param.name, label, given.strip().lower() in YES)
    attributes = _described(param.name, errors, "")
    if param.choices:
        chosen = given if given in param.choices else param.default or param.example
        control = _select(param.name, param.choices, chosen, None, attributes, words or str)
        return _field(param.name, label, control, hint, errors, "")
    mode = ' inputmode="numeric"' if param.kind is Kind.WHOLE else ""
    control = (
        f'<input type="text" {attributes}{mode} value="{escape(given)}" '
        f'placeholder="{escape(shown or param.shown_default or param.example)}" '
        'autocomplete="off" spellcheck="false">'
    )
    return _field(param.name, label, control, hint, errors, "")


def textarea_field(param: Param, given: str, errors: Mapping[str, str], name: str = "") -> str:
    """A parameter's text area for a file's text (the Hold check's daily results), with a
    file picker that fills it (by the page's script; without it the text is pasted), its
    label, its help and its error."""
    name = name or param.name
    label = param.label or param.what.capitalize()
    control = (
        f'<textarea {_described(name, errors, "")} rows="6" '
        f'placeholder="{escape(param.example)}" spellcheck="false">{escape(given)}</textarea>'
        f'<input type="file" accept=".csv,text/csv,text/plain" data-fills="f-{name}" '
        f'aria-label="{escape(label)}: read from a file" hidden>'
    )
    return _field(name, label, control, param.hint, errors, "")


def form_error(errors: Mapping[str, str]) -> str:
    """An error about the rules as a whole (two fields that contradict each other)."""
    return (
        _error("", errors, "form-")
        if "" in errors
        else '<p class="error" id="form-error-" role="alert"></p>'
    )


def text_field(
    name: str, label: str, given: str, placeholder: str, hint: str, errors: Mapping[str, str]
) -> str:
    """A plain text field with its help and its error (the Paytable and Report pages' own)."""
    attributes = _described(name, errors, "")
    control = (
        f'<input type="text" {attributes} value="{escape(given)}" '
        f'placeholder="{escape(placeholder)}" autocomplete="off" spellcheck="false">'
    )
    return _field(name, label, control, hint, errors, "")


def choice_field(
    name: str, label: str, given: str, choices: Sequence[str], hint: str, errors: Mapping[str, str]
) -> str:
    """A drop-down field of fixed choices (the first is the default)."""
    options = "".join(
        f'<option value="{escape(c)}"'
        + (" selected" if c == given else "")
        + f">{escape(c.replace('_', ' '))}</option>"
        for c in choices
    )
    control = f"<select {_described(name, errors, '')}>{options}</select>"
    return _field(name, label, control, hint, errors, "")
