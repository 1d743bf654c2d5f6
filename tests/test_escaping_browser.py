"""A script typed into any field of any workbench page shows escaped in Chromium (issue 48).

Each page of the navigation is loaded in headless Chromium (tests/browsers.py) from the
session's ``cbj serve``, with the planted script (tests/escaping.py) in every field it has,
and again in its own fields alone (the rules valid, so each one's error is said), with each
of its asks (a Paytable solve and search; on the Practice page, its Start button pressed, the
play posted by the page's script).  The page must show the value whole as each text field's
value, hold no script element that carries it, never run it (``window.__pwned`` stays
undefined) and never have the Content-Security-Policy block it (it would say so in the
console).  The raw HTML's twin, for every field on its own, is tests/test_web_escaping.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest

from solver.web.form import RULE_FIELDS
from tests.browsers import DESKTOP
from tests.escaping import ASKS, PATHS, PAYLOAD, TYPED, planted

#: What the page shows, read in the browser: whether the script ran, the script elements
#: that carry it or have no source, and each typed field's value.
READ = """() => ({
  ran: typeof window.__pwned !== "undefined",
  scripts: Array.from(document.scripts)
    .filter((s) => !s.src || s.textContent.includes("__pwned")).length,
  planted: document.body.innerHTML.includes("<script>window.__pwned"),
  values: Object.fromEntries(
    Array.from(document.querySelectorAll("input[name], textarea[name]"))
      .filter((e) => TYPED.includes(e.type)).map((e) => [e.name, e.value])),
})""".replace("TYPED", repr(list(TYPED)))
#: Every named control of the page, and its type.
NAMES = """() => Array.from(document.querySelectorAll("input[name], textarea[name], select[name]"))
  .filter((e) => e.type !== "file" && e.type !== "submit").map((e) => e.name)"""


@pytest.fixture(scope="module")
def tab(chromium: Any) -> Iterator[Any]:
    """A tab at desktop width, with the console's messages of a blocked script."""
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.blocked = []
    page.on(
        "console",
        lambda m: page.blocked.append(m.text) if "Content Security Policy" in m.text else None,
    )
    yield page
    context.close()


def _shown_escaped(tab: Any, given: dict[str, str]) -> None:
    """The page in ``tab`` never ran the script, holds none, and shows each typed field of
    ``given`` whole."""
    tab.wait_for_load_state("networkidle")
    shown = tab.evaluate(READ)
    assert not shown["ran"] and not shown["planted"] and shown["scripts"] == 0
    typed = {n: v for n, v in shown["values"].items() if n in given}
    assert typed == dict.fromkeys(typed, PAYLOAD)
    assert tab.blocked == []


def _load(tab: Any, url: str, fields: dict[str, str]) -> None:
    tab.blocked.clear()
    tab.goto(url + "?" + urlencode(fields), wait_until="load")
    _shown_escaped(tab, fields)


@pytest.mark.parametrize("path", PATHS)
def test_a_script_in_every_field_shows_escaped(tab: Any, workbench: str, path: str) -> None:
    _load(tab, workbench + path, planted(RULE_FIELDS))  # the rules wrong: no work starts
    names = list(dict.fromkeys((*RULE_FIELDS, *tab.evaluate(NAMES))))
    own = [n for n in names if n not in RULE_FIELDS and "." not in n]  # Compare's: a.decks
    for ask in ASKS.get(path, ({},)):
        if "play" in ask:  # the page's script posts the play, and says what is wrong
            _load(tab, workbench + path, planted(names))
            with tab.expect_response(lambda r: "/api/practice" in r.url):
                tab.click("button[name=play][value=start]")
            tab.wait_for_function("() => [...document.querySelectorAll('p.error')]"
                                  ".some((p) => p.textContent !== '')")  # fmt: skip
            _shown_escaped(tab, planted(names))
            continue
        _load(tab, workbench + path, {**planted(names), **ask})
        if own:  # the rules valid: each field of the page's own said wrong, if it is
            _load(tab, workbench + path, {**planted(own), **ask})
