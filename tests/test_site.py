"""The documentation site: it builds in strict mode, its generated pages keep up with the
code, and every command block that shows output prints that output.

``mkdocs build`` (strict: a broken link, an anchor that is not there, a page left out of
the navigation or a reference that does not resolve fails it) runs the notebook in a
Jupyter kernel, so a notebook cell that fails fails here too. That build takes 8 s of CPU
alone, so it is marked ``site`` and left out of the README's command: CI runs it as a step
of its own (``pytest -m site``). The generated pages' contents are checked without it, in
this file's other tests: the command reference against ``cbj --help`` and the Python
reference against the public modules.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import solver.cli
from solver.api.table import ELSEWHERE
from solver.cli import cli
from solver.cli.reference import SHARED, entries, reference
from tests.browsers import DESKTOP, PHONE
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import griffe_markup  # noqa: E402  (scripts/ is no package: its folder is on the path above)
import site_hooks  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this file's tests."""
    folder = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"},
        check=False,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    (folder.parent / "build.log").write_text(built.stdout + built.stderr)
    return folder


@pytest.mark.site
def test_the_build_says_nothing_but_what_it_built(site: Path) -> None:
    """A quiet build: no warning, no notice from a dependency, no kernel's complaint."""
    said = (site.parent / "build.log").read_text().splitlines()
    assert said and all(line.startswith("INFO    -  ") for line in said), said


@pytest.mark.site
def test_the_site_builds_strictly_with_the_generated_pages_and_the_run_notebook(
    site: Path,
) -> None:
    commands = (site / "commands.html").read_text()
    assert all(f'id="cbj-{e.name.replace(" ", "-")}"' in commands for e in entries())
    python = (site / "python-reference.html").read_text()
    assert 'id="solver.api.functions.solve"' in python
    assert 'id="solver.results.frames.Tabular"' in python
    assert ":mod:`" not in python and ":class:`" not in python  # the markup became Markdown
    notebook = (site / "notebook.html").read_text()
    # The kernel ran: a result's HTML, a DataFrame and the plots are in the page.
    assert 'class="cbj-result"' in notebook and 'class="dataframe"' in notebook
    assert notebook.count("data:image/png;base64,") == 2
    for page in ("start-player", "start-designer", "start-analyst", "rules", "method"):
        assert (site / f"{page}.html").is_file()


def help_of(*names: str) -> str:
    """What ``cbj NAMES... --help`` prints."""
    result = CliRunner().invoke(cli, [*names, "--help"], prog_name="cbj")
    assert result.exit_code == 0, result.output
    return result.output


def listed(help_text: str, heading: str) -> list[str]:
    """The first word of each line of one section of a help text (its commands or options)."""
    section = help_text.split(f"\n{heading}:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0].rstrip(",") for line in section.splitlines() if line[:3].strip()]


def sections(text: str) -> dict[str, str]:
    """The reference's sections by heading: ``advise`` -> its text."""
    parts = re.split(r"^## cbj (.+)$", text, flags=re.MULTILINE)
    return {
        name: body.split("\n## ", 1)[0] for name, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def commands_of(*names: str) -> list[tuple[str, ...]]:
    """Every command ``cbj NAMES --help`` lists, and their subcommands, as ``--help`` does."""
    found = []
    for name in listed(help_of(*names), "Commands"):
        found.append((*names, name))
        if "\nCommands:\n" in help_of(*names, name):
            found.extend(commands_of(*names, name))
    return found


def flags(help_text: str) -> set[str]:
    """Every option flag a help text lists (``-o``, ``--output``, ``--no-cache``, ...)."""
    section = help_text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    return {
        flag.rstrip(",")
        for line in section.splitlines()
        if line.startswith("  -")
        for flag in line.split("  ")[1].split()
        if flag.startswith("-")
    }


def test_the_command_reference_has_every_command_and_option_cbj_help_lists() -> None:
    text = sections(reference())
    names = [" ".join(path) for path in commands_of()]
    assert list(text) == names
    for path in commands_of():
        body = text[" ".join(path)]
        missing = {
            f for f in flags(help_of(*path)) if not re.search(rf"(?<![\w-]){f}(?![\w-])", body)
        }
        assert missing == set(), (path, missing)


def test_a_shared_option_is_described_once_with_its_help() -> None:
    text = reference()
    shared = text.split("## Options shared by many commands", 1)[1]
    decks = "- `--decks TEXT`: Decks in the shoe (1-8). \\[default: 6\\]\n"
    assert shared.count(decks) == 1 and text.count(decks) == 1
    assert SHARED > 1


def test_a_new_command_appears_in_the_reference_with_no_edit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(solver.cli.COMMANDS, "zz-new", "A new command.")
    monkeypatch.setitem(ELSEWHERE, "zz-new", ("tests.test_site", "new_command", "A new command."))
    body = sections(reference())["zz-new"]
    assert "A new command, whole." in body and "`--brand-new INTEGER`: Planted." in body


@click.command()
@click.option("--brand-new", type=int, help="Planted.")
def new_command(brand_new: int) -> None:
    """A new command, whole."""


def console_blocks() -> list[tuple[str, str, str]]:
    """Every ``console`` block of the README and docs/: ``(file, command, output)``."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for block in re.findall(r"^```console\n(.*?)^```$", path.read_text(), re.M | re.S):
            for run in block.split("$ ")[1:]:
                command, _, output = run.partition("\n")
                found.append((path.name, command, output))
    return found


@pytest.mark.parametrize(("page", "command", "shown"), console_blocks())
def test_every_console_block_prints_what_it_shows(
    page: str, command: str, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(command)
    assert words[0] == "cbj", f"{page}: a console block runs cbj: {command}"
    status, out, err = run_cli(words[1:], capsys)
    assert status == 0, err
    assert out == shown, f"{page}: $ {command}"


def test_console_blocks_are_found() -> None:
    pages = {page for page, _, _ in console_blocks()}
    assert {"README.md", "start-player.md", "start-designer.md"} <= pages


def test_the_readme_s_python_example_runs() -> None:
    """The README's doctest (pytest collects the ``.md`` files of docs/, not the README)."""
    ran = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert ran.failed == 0 and ran.attempted >= 4


def test_the_docstring_markup_becomes_markdown() -> None:
    assert doctest.testmod(griffe_markup).failed == 0
    text = "Run :func:`~solver.api.game.solve`::\n\n    >>> indented\n"
    assert griffe_markup.markdown(text) == "Run `solve`:\n\n    >>> indented\n"


def test_the_python_reference_names_every_public_module() -> None:
    text = site_hooks.python_reference()
    homes = vars(solver)["_HOMES"]
    prefixes = [prefix for prefix, _ in site_hooks.SECTIONS]
    for module in homes:
        assert f"::: {module}\n" in text or not module.startswith(tuple(prefixes)), module
    # Every home module is under a section, so none is left out.
    assert all(m.startswith(tuple(prefixes)) for m in homes)


@pytest.mark.site
def test_progress_true_draws_the_notebooks_own_bar_in_a_jupyter_kernel() -> None:
    """Under Jupyter, ``progress=True`` is tqdm's notebook widget (ipywidgets, in the
    ``notebook`` extra), not text on stderr: run in a kernel, as the site's notebook is."""
    import jupytext

    code = "import solver\ngame = solver.solve(decks=1, progress=True, cache=solver.MemoryCache())"
    notebook = jupytext.reads(f"```python\n{code}\n```\n", fmt="md")
    site_hooks.execute(notebook, ROOT)
    outputs = notebook.cells[0].outputs
    widget = "application/vnd.jupyter.widget-view+json"
    widgets = [o for o in outputs if widget in o.get("data", {})]
    assert len(widgets) == 1, outputs
    assert not [o for o in outputs if o.get("name") == "stderr"], outputs


@pytest.mark.site
@pytest.mark.parametrize("width", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_site_opened_from_disk_finds_risk_of_ruin_with_its_search_box(
    site: Path, chromium: Any, width: dict[str, int]
) -> None:
    """The site reads offline: its search works on file:// pages, and nothing is fetched."""
    context = chromium.new_context(viewport=width)
    fetched: list[str] = []

    def only_files(route: Any) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            fetched.append(route.request.url)
            route.abort()

    context.route("**/*", only_files)
    page = context.new_page()
    page.goto((site / "rules.html").as_uri())
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # a phone: the search opens from the header's button
        page.locator("label.md-header__button[for='__search']").click()
    box.press_sequentially("risk of ruin")
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=30_000)
    assert "risk of ruin" in first.inner_text().lower()
    assert (
        first.locator("a").first.get_attribute("href").startswith((site / "session.html").as_uri())
    )
    assert fetched == []
    context.close()
