"""Rule presets as tables: which rules a preset sets and where each value comes from."""

from __future__ import annotations

from solver.model.rules import RulePreset
from solver.present.formats import rule_cell
from solver.present.tables import Table, rules_table
from solver.results.rules import RulesResult


def preset_table(preset: RulePreset) -> Table:
    """The rules a preset sets, each with its value and its quoted source (``cbj rules``).

    >>> from solver.model.rules import PRESETS, PresetName
    >>> preset_table(PRESETS[PresetName.VEGAS_21]).rows[-1][:2]
    ('natural_beats', 'non_blackjack')
    """
    values = preset.to_rules().to_json()
    rows = tuple((rule.name, rule_cell(values[rule.name]), rule.source) for rule in preset.rules)
    return Table(
        f"Preset {preset.name.value}: {preset.title}",
        ("rule", "value", "source"),
        rows,
        preset.notes,
    )


def rules_tables(result: RulesResult) -> list[Table]:
    """``cbj rules``' tables: the rules in force, and the preset's sources if one was named."""
    preset = [] if result.preset is None else [preset_table(result.preset)]
    return [rules_table(result.rules), *preset]
