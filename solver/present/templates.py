"""HTML from Jinja2 templates, escaped by default: the one place pages and reports are drawn.

Every template lives in ``solver/present/templates/`` (a folder per module that draws it) and
autoescapes: a value put into a page is escaped unless it is already :class:`Markup` (HTML
another template drew).  So :func:`render` and :func:`macro` return ``Markup``, and a fragment
passed from one template into another is inserted as it is, once.  Undefined names are
errors, not blanks, so a misspelt variable fails its test instead of vanishing from a page.

>>> str(render_string("<b>{{ x }}</b>", x="<script>"))
'<b>&lt;script&gt;</b>'
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

__all__ = ["Markup", "escape", "macro", "render", "render_string"]


@cache
def environment() -> Environment:
    """The one Jinja2 environment: the package's templates, autoescaped, strict."""
    return Environment(
        loader=PackageLoader("solver.present", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def render(name: str, /, **context: Any) -> Markup:
    """The template ``name`` (a path under ``templates/``) drawn with ``context``."""
    return Markup(environment().get_template(name).render(**context))


def macro(name: str, macro_name: str, /, *args: Any, **kwargs: Any) -> Markup:
    """One macro of the template ``name`` called with these arguments."""
    module = environment().get_template(name).module
    return Markup(getattr(module, macro_name)(*args, **kwargs))


def render_string(source: str, /, **context: Any) -> Markup:
    """A template given as text (for doctests and one-line fragments) drawn with ``context``."""
    return Markup(environment().from_string(source).render(**context))
