"""The disk cache: ``cbj cache info`` and ``cbj cache clear``, and ``--no-cache``'s choice."""

from __future__ import annotations

import click

import solver.store.disk as disk
from solver.api import cache as api
from solver.cli.options import ALL_FORMATS, emit_result, format_option, show_help_if_bare, warn
from solver.present.tables import cache_table
from solver.results.kinds import Store


def chosen_cache(no_cache: bool) -> Store | None:
    """The user's disk cache (its warnings one line each on stderr), unless ``--no-cache``."""
    return None if no_cache else disk.default_cache(warn=warn)


@click.group(name="cache", invoke_without_command=True)
@click.pass_context
def cache_group(context: click.Context) -> None:
    """The disk cache of solved games: where it is, how big, and clearing it."""
    show_help_if_bare(context)


@cache_group.command("info")
@format_option(*ALL_FORMATS)
def cache_info(fmt: str) -> None:
    """Where the cache is, its size on disk and its number of entries."""
    info = api.cache_info(warn=warn)
    emit_result(fmt, info, cache_table(info))


@cache_group.command("clear")
def cache_clear() -> None:
    """Delete every cached result."""
    cleared = api.cache_clear(warn=warn)
    click.echo(f"cbj: removed {cleared.entries} cached result(s) from {cleared.path}", err=True)
