"""``cbj rules``: the rules in force, each with its default and meaning."""

from __future__ import annotations

from typing import Any

import click

from solver.api import rules as api
from solver.cli.options import ALL_FORMATS, emit_result, format_option, rules_options
from solver.present.presets import preset_table
from solver.present.tables import rules_table


@click.command("rules")
@rules_options
@format_option(*ALL_FORMATS)
def rules_command(fmt: str, **options: Any) -> None:
    """Print the rules in force, each with its default and meaning."""
    result = api.rules(**options)
    tables = [rules_table(result.rules)]
    if result.preset is not None:
        tables.append(preset_table(result.preset))
    emit_result(fmt, result, tables)
