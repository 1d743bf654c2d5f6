"""The workbench's inputs: a query string read into rules through the CLI's own checks.

Every rule field is a row of :data:`~solver.model.rule_table.RULE_TABLE`; its text goes
through the row's ``parse`` and ``check`` (what ``cbj``'s options go through), then the
whole set through :meth:`Rules.from_options`.  A :class:`CbjError` becomes a message for
the field it is about, never an exception for the page.

>>> form = read_rules({"decks": "2", "paytable": "20:5:1"})
>>> form.rules.decks, str(form.rules.paytable), form.errors
(2, '20:5:1', {})
>>> read_rules({"decks": "9"}).errors["decks"]
'decks 9 is out of range: use 1 to 8'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from solver.model.checks import shown
from solver.model.errors import CbjError
from solver.model.rules import RULE_TABLE, PresetName, Rules, preset_named

#: The longest text any field may hold; longer is refused before it is read.
MAX_FIELD_TEXT = 200
#: The most characters of a bad value a message repeats.
EXCERPT = 16
#: The form's field names besides the rules': the preset and the exact-fractions box.
PRESET = "preset"
EXACT = "exact"
#: Every field of the rules form, in the order it is shown.
RULE_FIELDS: tuple[str, ...] = (PRESET, *(rule.name for rule in RULE_TABLE), EXACT)


@dataclass(frozen=True, slots=True)
class RulesForm:
    """A rules form as given: its texts, the errors beside its fields, and the rules if valid."""

    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    rules: Rules | None = None
    exact: bool = False
    parsed: dict[str, object] = field(default_factory=dict)
    """The value of each rule field given and valid (when another field is not)."""

    def query(self) -> dict[str, str]:
        """The fields given (not blank), for links that reproduce this form."""
        return {name: text for name, text in self.values.items() if text}


def excerpt(text: str) -> str:
    """A short, harmless excerpt of a bad value: its first :data:`EXCERPT` characters, any
    but letters, digits, spaces and ``.,:;/%+-=_()`` shown as ``?``.

    >>> excerpt("<script>alert(1)</script>")
    '?script?alert(1)...'
    """
    shown = re.sub(r"[^\w .,:;/%+=()-]", "?", text[:EXCERPT], flags=re.ASCII)
    return shown + ("..." if len(text) > EXCERPT else "")


def excerpted(message: str, text: str) -> str:
    """``message`` with the bad value ``text`` (or the part of it that it repeats) replaced by
    its :func:`excerpt`.

    >>> excerpted("decks '<b>x</b>' is not a whole number", "<b>x</b>")
    "decks '?b?x?/b?' is not a whole number"
    """
    if not text:
        return message
    for quoted in (repr(text), shown(text), text):  # shown(): as the library cuts it short
        if quoted in message:
            short = excerpt(text)
            return message.replace(quoted, repr(short) if quoted != text else short)
    for length in (60, 40, 30, 24, 20, 16, 12, 10, 8):  # a message that shortened it itself
        if len(text) > length and text[:length] in message:
            return message.replace(text[:length], excerpt(text[:length]))
    return message


def _text(query: Mapping[str, str], name: str) -> str:
    return str(query.get(name, "")).strip()


def read_rules(query: Mapping[str, str], prefix: str = "") -> RulesForm:
    """Read the rules fields of ``query`` (each named ``prefix + rule``) and check them.

    A blank or missing field keeps the preset's value (or the default reading).
    """
    values = {name: _text(query, prefix + name) for name in RULE_FIELDS}
    errors: dict[str, str] = {}
    given: dict[str, object] = {}
    for name, text in values.items():
        if len(text) > MAX_FIELD_TEXT:
            errors[name] = f"{name.replace('_', ' ')} is {len(text):,} characters long: " + (
                f"write it in at most {MAX_FIELD_TEXT}"
            )
            values[name] = text[:MAX_FIELD_TEXT]  # never shown back whole
    preset = values[PRESET] or None
    if preset is not None and PRESET not in errors:
        try:
            preset = preset_named(preset).name.value
        except CbjError as error:
            errors[PRESET] = excerpted(str(error), preset)
    for rule in RULE_TABLE:
        text = values[rule.name]
        if not text or rule.name in errors:
            continue
        try:
            given[rule.name] = rule.check(rule.parse(text))
        except CbjError as error:
            errors[rule.name] = excerpted(str(error), text)
    exact = values[EXACT].lower() in ("1", "on", "yes", "true")
    if errors:
        return RulesForm(values, errors, None, exact, given)
    try:
        rules = Rules.from_options(preset=preset or PresetName.CASINO_EDITION, **given)
    except CbjError as error:
        return RulesForm(values, {"": str(error)}, None, exact, given)
    return RulesForm(values, {}, rules, exact, given)


def shown_rules(form: RulesForm) -> dict[str, object]:
    """Each rule's value as far as the form says it: the rules when they are valid, else each
    valid field's value and the preset's (or the default reading's) for the rest.

    >>> shown = shown_rules(read_rules({"decks": "x", "paytable": "20:5:1"}))
    >>> shown["decks"], str(shown["paytable"])
    (6, '20:5:1')
    """
    if form.rules is not None:
        return {rule.name: getattr(form.rules, rule.name) for rule in RULE_TABLE}
    try:
        base = preset_named(form.values.get(PRESET) or PresetName.CASINO_EDITION).to_rules()
    except CbjError:
        base = Rules()
    return {rule.name: form.parsed.get(rule.name, getattr(base, rule.name)) for rule in RULE_TABLE}


def prefixed(query: Mapping[str, str], prefix: str) -> dict[str, str]:
    """The fields of one form among several on a page (``b.decks`` → ``decks`` for ``b.``).

    >>> prefixed({"b.decks": "2", "decks": "6"}, "b.")
    {'decks': '2'}
    """
    return {k[len(prefix) :]: v for k, v in query.items() if k.startswith(prefix)}
