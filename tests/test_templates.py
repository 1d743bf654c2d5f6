"""HTML is drawn by templates only (issue 48): no tag in a Python string of present/ or web/.

Every page of the workbench and every report is drawn by a Jinja2 template that escapes what it
is given (:mod:`solver.present.templates`).  A tag written in Python, in an f-string, a
``%``-format, a ``.format`` or a plain string joined to others, would be markup built by hand,
where one forgotten ``escape`` lets a field's ``<script>`` through.  This scans the syntax tree
of every module in the two folders for a string (docstrings aside) holding a tag, and proves
the scan on planted examples.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.present.templates import render_string

PACKAGE = Path(__file__).resolve().parents[1] / "solver"
FOLDERS = ("present", "web")
#: An opening, closing or self-closing tag or a doctype: ``<b``, ``</td``, ``<!DOCTYPE``; not a
#: regular expression's named group or look-behind (``(?P<name>``, ``(?<!``), nor a Markdown
#: page's ``<!-- comment -->`` (the docs' generated tables are marked so).
TAG = re.compile(r"(?<!\?P)<(/?[A-Za-z][A-Za-z0-9-]*[\s>/]|!DOCTYPE)", re.IGNORECASE)
#: Modules still drawing HTML in Python, each to be moved into templates; empty when done.
NOT_YET: frozenset[str] = frozenset()


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (left alone: doctests show HTML)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def tags_in(source: str) -> Iterator[tuple[int, str]]:
    """Each string of ``source`` (docstrings aside) holding a tag: its line and its text.

    >>> list(tags_in('x = f"<td>{v}</td>"'))
    [(1, '<td>{}</td>')]
    >>> list(tags_in('x = "a < b" + f"{n}<{m}"'))
    []
    """
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)  # read here, as one text
            text = "".join(
                str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in skip:
                continue
            text = node.value
        else:
            continue
        if TAG.search(text):
            yield node.lineno, text


def _scan() -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for folder in FOLDERS:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            hits = list(tags_in(path.read_text()))
            if hits:
                found[path.relative_to(PACKAGE).as_posix()] = hits
    return found


@pytest.mark.parametrize(
    "planted",
    [
        'x = f"<td>{v}</td>"',
        'x = "<b>" + name + "</b>"',
        'x = "<li>%s</li>" % name',
        'x = "<p>{}</p>".format(name)',
        'x = "".join(f"<option value={v!r}>" for v in vs)',
        "x = '<!DOCTYPE html><title>t</title>'",
        'x = "<br/>"',
    ],
)
def test_the_scan_finds_planted_markup(planted: str) -> None:
    assert list(tags_in(planted))


@pytest.mark.parametrize(
    "innocent",
    [
        '"""A docstring may show <b>markup</b> in its doctest."""',
        'x = "1 < 2 and 3 > 2"',
        'x = f"{a}<{b}"',
        'x = "<= 3 rounds"',
        'pattern = r"(?P<name>\\w+)(?<!x)"',
        'marker = "<!-- written by a script -->"',
    ],
)
def test_the_scan_leaves_text_alone(innocent: str) -> None:
    assert not list(tags_in(innocent))


def test_no_html_is_drawn_in_python() -> None:
    found = _scan()
    drawn = {name: hits for name, hits in found.items() if name not in NOT_YET}
    assert not drawn, "markup outside the templates:\n" + "\n".join(
        f"{name}:{line}: {text[:60]!r}" for name, hits in drawn.items() for line, text in hits
    )
    assert not NOT_YET - set(found), (
        f"moved to templates, drop from NOT_YET: {NOT_YET - set(found)}"
    )


def test_templates_escape_what_they_are_given() -> None:
    assert str(render_string("<p>{{ v }}</p>", v="<script>alert(1)</script>")) == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
    )
