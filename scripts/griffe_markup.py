"""A Griffe extension for the site's Python reference: the package's docstrings as Markdown.

The docstrings are written for ``help()`` and doctest, in reStructuredText's inline markup:
``:mod:`solver.exact```-style roles, ``double backquotes``, a ``::`` before a literal
block, and doctests.  For mkdocstrings (which reads Markdown) a role becomes a code span (a
``~`` keeps the last part of the name), a doctest a ``pycon`` code block, and ``::`` a
colon.

>>> print(markdown(":class:`~fractions.Fraction` and :mod:`solver.exact`::"))
`Fraction` and `solver.exact`:
>>> markdown("One line.\\n\\n>>> 1 + 1\\n2\\n\\nMore.").splitlines()
['One line.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|exc|obj|const):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    short, name = match.groups()
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


def markdown(text: str) -> str:
    """A docstring's reStructuredText inline markup and doctests as Markdown."""
    text = ROLE.sub(_role, text)
    text = re.sub(r"(\S)::$", r"\1:", text, flags=re.MULTILINE)
    lines: list[str] = []
    in_doctest = False
    for line in text.split("\n"):
        if line.startswith(">>>") and not in_doctest:
            lines.append("```pycon")
            in_doctest = True
        elif in_doctest and not line.strip():
            lines.append("```")
            in_doctest = False
        lines.append(line)
    if in_doctest:
        lines.append("```")
    return "\n".join(lines)


class ReStructuredMarkup(griffe.Extension):
    """Rewrite each docstring's markup for Markdown as the package is loaded."""

    def on_instance(self, *, obj: griffe.Object, **_: Any) -> None:
        """Called for every module, class, function and attribute Griffe finds."""
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
