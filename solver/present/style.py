"""One number style for everything a person reads: the terminal's tables, the report, the
workbench, charts and captions.

Each figure is written as the figure catalogue's :class:`~solver.results.figures.NumberFormat`
says (:func:`show`), the same in every output; a table cell keeps the plain number a CSV
writes (:class:`Cell`). True minus signs (U+2212), narrow no-break spaces (U+202F)
between thousands, odds as "1 in N". The narrow no-break space never lets a line break
inside a number ("100 / 000"), and a number copied out of a page or a PDF stays one
number.

>>> show("round_house_edge", Fraction(1, 80)), show("main_ev", -0.5)
('1.2500%', '\u22120.500000')
>>> show("session_ahead", 5.6e-05), show("session_mean", -1850.72)
('5.60e\u221205', '\u22121\u202f850.72')

>>> edge_percent(Fraction(-1, 400)) == MINUS + "0.2500%"
True
>>> one_in(Fraction(1, 12345)) == "1 in 12" + GROUP_SPACE + "300"
True
>>> significant_percent(Fraction(1, 30000))
'0.0033%'
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from solver.model.numbers import signed as plain_signed
from solver.results.figures import NumberFormat, Style, figure

MINUS = "\u2212"
#: Between groups of three digits: NARROW NO-BREAK SPACE.
GROUP_SPACE = "\u202f"


def minus(text: str) -> str:
    """``text`` with its hyphen-minus signs replaced by true minus signs."""
    return text.replace("-", MINUS)


def minus_numbers(text: str) -> str:
    """``text`` with the hyphen-minus before each number made a true minus sign, and the
    hyphens of words left alone.

    >>> minus_numbers("level-2: -0.45 [-0.7, +0.1]") == f"level-2: {MINUS}0.45 [{MINUS}0.7, +0.1]"
    True
    """
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)


def thousands(value: int) -> str:
    """An integer with narrow no-break spaces between groups of three digits."""
    return minus(f"{value:,}".replace(",", GROUP_SPACE))


def long_count(value: int) -> str:
    """A whole number too long for one line (dozens of digits): thin spaces between groups
    of three, where a narrow screen may break it.

    >>> long_count(1234567) == "1\u2009234\u2009567"
    True
    """
    return f"{value:,}".replace(",", "\u2009")


def signed(value: Fraction | float, places: int = 4) -> str:
    """:func:`solver.model.numbers.signed` in this style: four places, a true minus sign.

    The terminal's six places with an ASCII sign are for scripts; a person reading the
    report wants fewer digits and the true minus sign every other number here has.

    >>> signed(Fraction(-1, 8)) == MINUS + "0.1250"
    True
    """
    return minus(plain_signed(value, places))


def amount(value: Fraction | float, places: int = 1) -> str:
    """A signed amount with narrow no-break spaces between thousands and a true minus sign.

    >>> amount(1234.5) == "+1" + GROUP_SPACE + "234.5" and amount(-7) == MINUS + "7.0"
    True
    """
    return minus(f"{float(value):+,.{places}f}".replace(",", GROUP_SPACE))


def edge_percent(value: Fraction | float, places: int = 4) -> str:
    """A house edge or EV as a percentage to four decimals: ``0.2500%``."""
    return minus(f"{float(value) * 100:.{places}f}%")


def signed_percent(value: Fraction | float, places: int = 4) -> str:
    """An EV as a signed percentage to four places, a true minus sign: ``+5.3833%``."""
    return minus(f"{float(value) * 100:+.{places}f}%")


def significant_percent(value: Fraction | float, digits: int = 2) -> str:
    """A small quantity as a percentage to ``digits`` significant figures: ``0.0033%``."""
    x = float(value) * 100
    if x == 0:
        return "0%"
    places = max(digits - 1 - math.floor(math.log10(abs(x))), 0)
    return minus(f"{x:.{places}f}%")


def one_in(probability: Fraction | float) -> str:
    """A probability as odds of "1 in N" (N to three significant figures, at least a unit)."""
    if probability <= 0:
        return "never"
    n = 1 / float(probability)
    if n < 10:
        return f"1 in {n:.2f}"
    if n < 100:
        return f"1 in {n:.1f}"
    rounded = round(n, 2 - math.floor(math.log10(n)))
    return f"1 in {thousands(round(rounded))}"


def stacked_table_css(table: str) -> str:
    """CSS, for inside a phone's media query, that stacks the rows of ``table`` (a selector).

    Each row becomes a card of "header: value" lines, the header taken from the cell's
    ``data-label``; the first cell heads the card. The header row stays for assistive
    technology, visually hidden. So a table of any width shows every column on a phone.
    """
    t = table
    return f"""
  {t}, {t} tbody, {t} tr, {t} td {{ display: block; width: 100%; }}
  {t} {{ position: relative; overflow: hidden; min-width: 0; }}
  {t} thead {{ display: block; position: absolute; width: 1px; height: 1px; overflow: hidden;
              clip-path: inset(50%); white-space: nowrap; }}
  {t} tr {{ border-top: 2px solid #c8d3e0; padding: .15rem 0; }}
  {t} td, {t} td.num {{ border: none; padding: .1rem .3rem; text-align: right;
                       white-space: normal; }}
  {t} td::before {{ content: attr(data-label); float: left; margin-right: .8rem;
                   font-weight: bold; text-align: left; }}
  {t} td:first-child {{ text-align: left; font-weight: bold; }}
  {t} td:first-child::before {{ content: none; }}
  {t} td:empty {{ display: none; }}
"""


# --- Figures as the catalogue writes them ------------------------------------------------

Number = Fraction | float | int


def _grouped(value: float, places: int, plus: bool) -> str:
    """``value`` to ``places`` with narrow-space thousands and a true minus; zero unsigned."""
    text = f"{value:{'+' if plus else ''},.{places}f}"
    if float(text.replace(",", "")) == 0:
        text = f"{0:{'+' if plus else ''}.{places}f}"
    return minus(text.replace(",", GROUP_SPACE))


def grouped(value: Number, places: int = 1) -> str:
    """An amount unsigned but for a minus, narrow-space thousands: ``1\u202f500.0``."""
    return _grouped(float(value), places, False)


def written(fmt: NumberFormat, value: Number, places: int | None = None) -> str:
    """``value`` as ``fmt`` writes it (``places`` for a figure whose places follow its
    lattice, a session's net results).

    >>> written(NumberFormat(Style.PROBABILITY, 6), Fraction(1, 3))
    '0.333333'
    >>> written(NumberFormat(Style.ODDS), 0.25)
    '1 in 4.00'
    """
    p = fmt.places if places is None else places
    style = fmt.style
    if style is Style.FRACTION:
        return minus(str(Fraction(value)))
    if style is Style.COUNT:
        return thousands(round(value))
    if style is Style.ODDS:
        return one_in(value)
    if style is Style.TO_ONE:
        return f"{_grouped(float(value), p, False)} to 1"
    if style is Style.PROBABILITY:
        x = float(value)
        if 0 < abs(x) < 0.001:
            return minus(f"{x:.2e}")
        return "0" if x == 0 else f"{x:.{p}f}"
    if style is Style.PERCENT:
        return _grouped(float(value) * 100, p, fmt.plus) + "%"
    if style is Style.SIGNIFICANT:
        text = significant_percent(value, p)
        return "+" + text if fmt.plus and not text.startswith(MINUS) else text
    return _grouped(float(value) * fmt.scale, p, fmt.plus)


def show(key: str, value: Number, places: int | None = None) -> str:
    """Figure ``key``'s ``value`` as every output writes it (the catalogue's format)."""
    return written(figure(key).fmt, value, places)


def show_range(key: str, low: Number, high: Number, places: int | None = None) -> str:
    """A range of figure ``key``: ``\u221225.5 to +24.0``."""
    return f"{show(key, low, places)} to {show(key, high, places)}"


def plain(text: str) -> int | float:
    """The number a written figure shows, for a CSV: no groups, %, "1 in" or "to 1".

    >>> plain("\u22121\u202f850.72"), plain("1 in 2.33"), plain("12.5%"), plain("1/2")
    (-1850.72, 2.33, 12.5, 0.5)
    """
    bare = (
        text.replace(GROUP_SPACE, "")
        .replace("\u2009", "")
        .replace(MINUS, "-")
        .removeprefix("1 in ")
        .removesuffix(" to 1")
        .removesuffix("%")
        .strip()
    )
    if "/" in bare:
        return float(Fraction(bare))
    number = float(bare)
    return int(number) if number.is_integer() and "." not in bare and "e" not in bare else number


def lattice_places(step: Fraction | float) -> int:
    """The decimal places that write every multiple of ``step`` exactly (at most 3).

    >>> lattice_places(Fraction(1, 2)), lattice_places(Fraction(1, 4)), lattice_places(1)
    (1, 2, 0)
    """
    step = Fraction(step).limit_denominator(1000)
    for places in range(4):
        if (step * 10**places).denominator == 1:
            return places
    return 3


class Cell(str):
    """A table cell: its text as every output shows it, and the plain numbers a CSV writes
    for it, each under its column's header and a suffix (a range's ``low`` and ``high``).

    >>> c = cell("round_house_edge", Fraction(1, 80))
    >>> str(c), c.plain, c.unit
    ('1.2500%', (1.25,), '%')
    """

    plain: tuple[int | float | str, ...]
    parts: tuple[str, ...]
    unit: str

    def __new__(
        cls,
        text: str,
        plain: tuple[int | float | str, ...] = (),
        parts: tuple[str, ...] = ("",),
        unit: str = "",
    ) -> Cell:
        made = super().__new__(cls, text)
        made.plain, made.parts, made.unit = plain or (text,), parts, unit
        return made


def cell(key: str, value: Number | None, places: int | None = None) -> Cell | str:
    """Figure ``key``'s ``value`` as a table cell (a dash where there is none)."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    text = show(key, value, places)
    return Cell(text, (plain(text),), unit=figure(key).fmt.unit)


def range_cell(key: str, low: Number, high: Number, places: int | None = None) -> Cell:
    """A range of figure ``key`` as a cell: two columns in a CSV, ``low`` and ``high``."""
    a, b = show(key, low, places), show(key, high, places)
    return Cell(f"{a} to {b}", (plain(a), plain(b)), (" low", " high"), figure(key).fmt.unit)


def interval_cell(key: str, value: Number, low: Number, high: Number) -> Cell:
    """Figure ``key`` with its 95% interval: ``+0.0723 (+0.0520 to +0.0925)``; three
    columns in a CSV."""
    v, a, b = show(key, value), show(key, low), show(key, high)
    return Cell(
        f"{v} ({a} to {b})",
        (plain(v), plain(a), plain(b)),
        ("", " 95% low", " 95% high"),
        figure(key).fmt.unit,
    )


def count_cell(n: int) -> Cell:
    """A whole number that is no figure (rounds, seats) as a cell: grouped, plain in CSV."""
    return Cell(thousands(n), (n,))


def exact_cell(value: object) -> Cell | str:
    """A figure's exact fraction for an ``exact`` column: a true minus sign where a person
    reads it, the fraction as typed (``-45/311``) in a CSV; a dash where there is none (a
    square root, a float).

    >>> c = exact_cell(Fraction(-45, 311))
    >>> str(c) == MINUS + "45/311", c.plain
    (True, ('-45/311',))
    """
    if isinstance(value, dict):
        value = value.get("exact")
        text = str(value) if value is not None else ""
    else:
        text = str(value) if isinstance(value, Fraction | int) else ""
    return Cell(minus(text), (text,)) if text else "-"


def number_cell(value: Fraction | float) -> Cell:
    """A number that is no figure (a Bonus ratio, a depth) as a cell: ``1/2`` or ``0.25``
    as typed, its float in a CSV."""
    text = str(value) if isinstance(value, Fraction) else f"{value:g}"
    return Cell(minus(text), (float(value),))


def decimals(value: Fraction | float, places: int = 2) -> str:
    """An amount to two decimals, or below 0.1 to two significant figures (where two
    decimals would keep one digit of it, or none); 0 is ``0``.

    >>> decimals(0.2456), decimals(Fraction(1, 800)), decimals(0), decimals(1.5)
    ('0.25', '0.0013', '0', '1.50')
    >>> decimals(-0.031) == MINUS + "0.031"
    True
    """
    x = float(value)
    if x == 0:
        return "0"
    shown = max(places, 1 - math.floor(math.log10(abs(x))))
    if shown > places and abs(float(f"{x:.{shown}f}")) >= 10 ** (2 - shown):
        shown -= 1  # rounding carried it to the next power of ten: 0.0000999 is 0.00010
    return minus(f"{x:.{shown}f}")
