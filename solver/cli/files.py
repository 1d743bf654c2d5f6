"""The commands that write files or print in their own way: the generic CLI's hooks.

``-o FILE`` (the format from its extension, the path checked before any work, the file
written atomically), a chart's ``--check`` and ``--costs``, a decision graph, a report,
the ``strategy_tables/`` collection, clearing the cache and a sweep's plot.  Loaded only for these
commands (:data:`solver.cli.commands.HOOKS`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from solver.api import functions as api
from solver.api.table import COMMANDS_BY_NAME, Command
from solver.cli.commands import function, output_of, printed, progress_reporter
from solver.model.errors import OutputError
from solver.present import files
from solver.present.collection import VARIANTS
from solver.present.formats import Format
from solver.present.graph import GraphFormat, render_graph
from solver.present.hold import CHART_FORMATS
from solver.present.sweep import draw, render_page
from solver.results.game import DecisionGraph


def deliver(data: str | bytes, output: Path | None) -> None:
    """Print ``data`` to stdout (text with a newline), or write it to ``output`` atomically."""
    if output is None:
        printed(data)
        return
    payload = (data + "\n").encode() if isinstance(data, str) else data
    click.echo(f"cbj: {files.wrote(files.write_atomic(output, payload))}", err=True)


def chosen_output(
    command: Command, fmt: str | None, output: str | None, leave: str = ""
) -> tuple[str, Path | None]:
    """The format to print and the file to write (None: stdout), checked before any work;
    the command's formats but ``leave``."""
    param = next(p for p in command.params if p.name == "format")
    path = files.to_stdout(Path(os.fsdecode(output))) if output is not None else None
    choices = [f for f in param.choices if f != leave]
    chosen = files.choose_format(path, fmt, choices, param.example)
    if path is None:
        files.check_terminal(chosen, sys.stdout)
    else:
        files.check_writable(path)
    return chosen, path


def written(command: Command, found: dict[str, Any]) -> None:
    """A command whose result may go to ``-o FILE``: the format from ``--format`` or the
    file's extension, the path checked before the work, the file written atomically."""
    fmt, output = chosen_output(command, found.pop("format", None), found.pop("output", None))
    comments = found.pop("comments", False)
    deliver(output_of(command, function(command)(**found), fmt, comments), output)


#: ``cbj hold``'s options for one result, which a daily file replaces.
ONE_RESULT = ("rounds", "result", "hold", "win_over_handle", "drop")


def hold(command: Command, found: dict[str, Any]) -> None:
    """``cbj hold``: one table's result, or with ``--from FILE`` a pit's daily results (and
    their control chart in png, pdf, svg or html)."""
    fmt, output = chosen_output(command, found.pop("format", None), found.pop("output", None))
    comments = found.pop("comments", False)
    daily = found.pop("daily", None)
    series = {k: found.pop(k) for k in ("unit", "rounds_per_hour") if k in found}
    if daily is None:
        if fmt in CHART_FORMATS:
            raise click.UsageError("a control chart needs a daily file: give --from")
        deliver(output_of(command, api.hold(**found), fmt, comments), output)
        return
    given = [name for name in ONE_RESULT if name in found]
    if given:
        flag = "--" + given[0].replace("_", "-")
        raise click.UsageError(f"{flag} is for one result: the daily file gives each")
    found["progress"] = progress_reporter("periods")
    result = api.hold_series(daily=daily, **series, **found)
    deliver(output_of(command, result, fmt, comments), output)


def chart(command: Command, found: dict[str, Any]) -> None:
    """``cbj chart``: the chart in any format, or with ``--check FILE`` or ``--costs`` a
    table of cells and their costs."""
    check, costs = found.pop("file", None), found.pop("costs", False)
    comments = found.pop("comments", False)
    if check is None and not costs:
        if found.get("format") == Format.TABLE:
            raise click.UsageError("--format table is for --check and --costs; a chart is md, "
                                   "csv, json, html, pdf, svg or png")  # fmt: skip
        given = found.pop("format", None), found.pop("output", None)
        fmt, output = chosen_output(command, *given, leave=Format.TABLE)
        deliver(output_of(command, api.chart(**found), fmt, comments), output)
        return
    if check is not None and costs:
        raise click.UsageError("give --check FILE or --costs, not both")
    if found.pop("output", None) is not None:
        raise click.UsageError("--check and --costs print to stdout: leave out -o")
    fmt = found.pop("format", None) or Format.TABLE.value
    allowed = [f.value for f in Format]
    if fmt not in allowed:
        raise click.UsageError(f"--check and --costs print {', '.join(allowed)}, not {fmt}")
    row = COMMANDS_BY_NAME["chart check" if check is not None else "chart costs"]
    if check is not None:
        found["file"] = check
    deliver(output_of(row, function(row)(**found), fmt, comments), None)


def graph(command: Command, found: dict[str, Any]) -> None:
    """``cbj graph``: the decision graph written to ``-o`` (``-``: GraphML on stdout)."""
    output = Path(os.fsdecode(found.pop("output")))
    if files.to_stdout(output) is None:
        drawn = api.graph(None, **found)
        assert isinstance(drawn, DecisionGraph)
        deliver(render_graph(drawn, GraphFormat.GRAPHML), None)
        return
    api.graph(output, **found)
    click.echo(f"cbj: wrote {output}", err=True)


def report(command: Command, found: dict[str, Any]) -> None:
    """``cbj report``: HTML on stdout, or the report written as ``-o`` or ``--format`` says;
    the first ``--paytable`` is the rules', the others are set beside it."""
    given = found.pop("output", None)
    output = files.to_stdout(Path(os.fsdecode(given))) if given is not None else None
    if output is None and found.get("format") is not None:
        files.check_terminal(found["format"], sys.stdout)
    paytables = found.pop("paytables")
    result = api.report(
        output, paytable=paytables[0] if paytables else None, paytables=paytables[1:], **found
    )
    if isinstance(result, str):
        click.echo(result, nl=False)
    elif isinstance(result, bytes):
        deliver(result, None)
    else:
        click.echo(f"cbj: {files.wrote(output or '')}", err=True)


def tables(command: Command, found: dict[str, Any]) -> None:
    """``cbj tables``: each variant's chart EV on stdout, the folder written."""
    written = api.tables(**found)
    for variant, chart in zip(VARIANTS, written.charts, strict=True):
        click.echo(
            f"{variant.folder}: chart EV {float(chart.expected_value) * 100:+.4f}% of the main "
            "wager"
        )
    click.echo(f"cbj: {files.wrote(found['output_dir'])}", err=True)


def cache_clear(command: Command, found: dict[str, Any]) -> None:
    """``cbj cache clear``: how many entries went, on stderr."""
    cleared = api.cache_clear(**found)
    click.echo(f"cbj: removed {cleared.entries} cached result(s) from {cleared.path}", err=True)


#: The formats ``cbj sweep --plot`` writes, by the file's extension.
PLOT_FORMATS = ("png", "svg", "html")


def sweep(command: Command, found: dict[str, Any]) -> None:
    """``cbj sweep``: the table on stdout in the format asked for, and with ``--plot FILE``
    the plot written atomically (PNG, SVG, or an HTML page of table and plot, by the
    file's extension; the path checked before any solve)."""
    given = found.pop("plot", None)
    plot = None if given is None else Path(os.fsdecode(given))
    if plot is not None:
        plot_format = files.EXTENSION_FORMATS.get(plot.suffix.lower(), "")
        if plot_format not in PLOT_FORMATS:
            raise OutputError(f"--plot {str(plot)[:60]!r}: end the file's name in .png, .svg or "
                              ".html")  # fmt: skip
        files.check_writable(plot)
    param = next(p for p in command.params if p.name == "format")
    fmt = param.read(found.pop("format", None)) or param.example
    comments = found.pop("comments", False)
    result = function(command)(**found)
    deliver(output_of(command, result, fmt, comments), None)
    if plot is not None:
        html = plot_format == "html"
        deliver(render_page(result).encode() if html else draw(result, plot_format), plot)
