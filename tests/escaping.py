"""A script planted in every field of every workbench page, for the escaping tests (issue 48).

The unit twin (tests/test_web_escaping.py) reads the raw HTML the app sends; the browser
test (tests/test_escaping_browser.py) loads the same addresses in Chromium.  The value
closes an attribute of either quote and opens a script, so it must be escaped in a field's
value as in text; the excerpt an error repeats is harmless by its own rule
(:func:`solver.web.form.excerpt`), so the value shows whole only in the fields.
"""

from __future__ import annotations

from html.parser import HTMLParser

from solver.present.workbench import PAGES

#: The planted value: it sets ``window.__pwned`` if it ever runs.
PAYLOAD = "\"'><script>window.__pwned=1</script>"
#: What the page would hold if the value went in unescaped.
RAW = "<script>window.__pwned"
#: Each page's asks beside its fields: the Paytable page reads its own fields only when
#: solving or searching, and a Practice page's POST plays (a GET only shows the form).
ASKS: dict[str, tuple[dict[str, str], ...]] = {
    "/paytable": ({"mode": "solve"}, {"mode": "search"}),
    "/practice": ({}, {"play": "start"}),
}
#: Every page of the workbench's navigation, by its path.
PATHS = tuple(path for path, _ in PAGES)
#: The controls whose value the page shows as the user typed it (a hidden field may hold the
#: server's own instead: a Practice session's state).
TYPED = ("text", "search", "textarea")


class Controls(HTMLParser):
    """The named controls of a page: each one's kind (its type, ``textarea`` or ``select``)
    and the value it shows (a text area's text; a drop-down's, none)."""

    def __init__(self) -> None:
        super().__init__()
        self.kinds: dict[str, str] = {}
        self.values: dict[str, str] = {}
        self._area: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {k: v or "" for k, v in attrs}
        name = given.get("name", "")
        if tag == "input" and name and given.get("type", "text") not in ("file", "submit"):
            self.kinds[name] = given.get("type", "text")
            self.values[name] = given.get("value", "")
        elif tag in ("textarea", "select") and name:
            self.kinds[name] = tag
            if tag == "textarea":
                self._area, self.values[name] = name, ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._area = None

    def handle_data(self, data: str) -> None:
        if self._area is not None:
            self.values[self._area] += data


def controls(page: str) -> Controls:
    """The named controls of ``page`` (its HTML)."""
    found = Controls()
    found.feed(page)
    found.close()
    return found


def planted(names: list[str] | tuple[str, ...]) -> dict[str, str]:
    """The payload in each of the fields ``names``."""
    return dict.fromkeys(names, PAYLOAD)
