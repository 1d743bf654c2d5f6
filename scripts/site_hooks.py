"""MkDocs hooks for the documentation site (``mkdocs.yml``): the pages written at build time.

- ``commands.md``, the command reference, from ``cbj``'s own click commands
  (:func:`solver.cli.reference.reference`);
- ``python-reference.md``, the Python reference: every public name of ``solver``, by its
  home module (``solver._HOMES``), rendered by mkdocstrings from the docstrings;
- every page that is a Jupytext notebook (its front matter has ``jupyter:``) is run by a
  Jupyter kernel (nbclient) and shown with its outputs: a cell that fails fails the build.

So a command, an option or a public name added to the package appears on the site with no
edit, and the notebook's figures are always today's.
"""

from __future__ import annotations

import html
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

#: The sections of the Python reference: a prefix of the home modules, and its heading.
SECTIONS = (
    ("solver.api", "Commands as functions"),
    ("solver.results", "Results"),
    ("solver.model", "Rules, cards and errors"),
    ("solver.store", "Stores"),
    ("solver.present", "Plots and files"),
)
#: The tables and Jupyter display every result shares (not a public name of ``solver``).
FRAMES = "solver.results.frames"


def python_reference() -> str:
    """The Python reference page: one mkdocstrings block per home module of ``solver``."""
    import solver

    homes: dict[str, str] = vars(solver)["_HOMES"]  # beyond the types __init__.pyi gives
    lines = [
        "# Python reference",
        "",
        "Every public name of the `solver` package (what `import solver` gives), from its",
        "docstring, under the module it lives in; this page is written from the package's",
        "own list of names each time the site is built.  [From Python](api.md) shows them at",
        "work, and [Command reference](commands.md) lists the same commands as `cbj` options.",
        "",
    ]
    for prefix, heading in SECTIONS:
        lines += [f"## {heading}", ""]
        for module, names in sorted(homes.items()):
            if module == prefix or module.startswith(prefix + "."):
                members = ", ".join(sorted(names.split()))
                lines += [f"::: {module}", "    options:", f"      members: [{members}]", ""]
        if prefix == "solver.results":
            lines += [
                f"::: {FRAMES}",
                "    options:",
                "      members: [Tabular, Shown, TABLES]",
                "",
            ]
    return "\n".join(lines)


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    """Add the generated pages."""
    from solver.cli.reference import reference

    files.append(File.generated(config, "commands.md", content=reference()))
    files.append(File.generated(config, "python-reference.md", content=python_reference()))
    return files


def on_page_markdown(markdown: str, page: Page, **_: Any) -> str:
    """A Jupytext notebook's page, run and shown with its outputs; any other page as it is."""
    if "jupyter" not in page.meta or page.file.abs_src_path is None:
        return markdown
    return run_notebook(Path(page.file.abs_src_path))


def run_notebook(path: Path) -> str:
    """Run a Jupytext Markdown notebook in a fresh kernel; its Markdown with the outputs."""
    import jupytext

    notebook = jupytext.read(path)
    execute(notebook, path.parent)
    parts = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            parts.append(f"```python\n{cell.source}\n```")
            parts.extend(output_markdown(output) for output in cell.get("outputs", []))
        else:
            parts.append(cell.source)
    return "\n\n".join(part for part in parts if part) + "\n"


def execute(notebook: Any, folder: Path) -> None:
    """Run every cell of ``notebook`` in a fresh Python kernel started in ``folder``.

    The kernel talks over local sockets in a private folder (IPC), not TCP: over TCP it
    warns on every build that the traffic is not encrypted.
    """
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory(prefix="cbj-kernel-") as sockets:
        manager = KernelManager(
            kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "kernel")
        )
        client = NotebookClient(
            notebook, timeout=300, km=manager, resources={"metadata": {"path": folder}}
        )
        try:
            client.execute()
        finally:  # a manager given to nbclient is the caller's to shut down
            if manager.has_kernel:
                manager.shutdown_kernel()


def output_markdown(output: dict[str, Any]) -> str:
    """One output of a cell: HTML as it is, a picture inline, text as a text block."""
    if output["output_type"] == "stream":
        return f"```text\n{output['text'].rstrip()}\n```"
    data = output.get("data", {})
    if "text/html" in data:
        return f'<div class="notebook-output" markdown="0">\n{data["text/html"].strip()}\n</div>'
    if "image/png" in data:
        alt = html.escape(data.get("text/plain", "a plot"), quote=True)
        source = f"data:image/png;base64,{data['image/png']}"
        return f'<img class="notebook-output" alt="{alt}" src="{source}">'
    if "text/plain" in data:
        return f"```text\n{data['text/plain'].rstrip()}\n```"
    return ""
