"""Standard blackjack's dealer, as others published it, through ``dealer_bonus must_use``.

A dealer who must use the Bonus card counts it in every total, as a standard dealer counts
its up card: with the Bonus card as the up card (taken out of the shoe), the dealer
standing on 17 (soft 17 included) and a natural being the first own card with the Bonus
card (``dealer_natural bonus_card``), the dealer's distribution is standard blackjack's
before the peek.  Each table in ``tests/data/`` names its source on its first line; every
figure in it is reproduced here to the precision it is printed with.

The published figures were computed in floating point: each is the exact value rounded
to the printed place, give or take that rounding (16/51 = 0.3137254..., the chance of a
blackjack under an ace, is printed 0.313726), so a figure must lie within one unit of its
last printed place.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from solver.exact.dealer import dealer_distribution
from solver.model.cards import Shoe
from solver.model.rules import DealerBonus, DealerNatural, Rules

DATA = Path(__file__).parent / "data"
#: The column names of the published tables, as results of ``cbj dealer``.
RESULTS = {"blackjack": "natural", "BJ": "natural"}
UP_CARDS = {"A": 1, **{str(v): v for v in range(2, 11)}}

Distribution = dict[str, Fraction]


def standard_dealer(decks: int) -> Rules:
    """The rules under which this game's dealer is standard blackjack's (stands on soft 17)."""
    return Rules(
        decks=decks,
        dealer_stands_on=17,
        dealer_bonus=DealerBonus.MUST_USE,
        dealer_natural=DealerNatural.BONUS_CARD,
    )


@cache
def before_the_peek(decks: int, up: int, rules: Rules | None = None) -> Distribution:
    """The dealer's final result under up card ``up``, taken out of a full shoe."""
    shoe = list(Shoe.full(decks).value_counts())
    shoe[up - 1] -= 1
    return dealer_distribution(rules or standard_dealer(decks), up, tuple(shoe))


def after_the_peek(decks: int, up: int) -> Distribution:
    """The same, given that the dealer has no blackjack."""
    shown = before_the_peek(decks, up)
    left = 1 - shown["natural"]
    return {result: p / left for result, p in shown.items() if result != "natural"}


def all_up_cards(decks: int, peeked: bool) -> Distribution:
    """The dealer's final result over every up card (the tables' row ``All``)."""
    full = Shoe.full(decks).value_counts()
    mixed: Distribution = {}
    for up in range(1, 11):
        weight = Fraction(full[up - 1], sum(full))
        shown = before_the_peek(decks, up)
        for result, p in shown.items():
            if not (peeked and result == "natural"):
                mixed[result] = mixed.get(result, Fraction(0)) + weight * p
    if peeked:
        left = sum(mixed.values(), Fraction(0))
        return {result: p / left for result, p in mixed.items()}
    return mixed


def read_table(name: str) -> tuple[str, list[dict[str, str]]]:
    """A table's source line and its rows (as printed: text cells)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    source = lines[0]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    return source, rows


def unit(printed: str, significant: bool) -> Fraction:
    """One unit of a figure's last printed place (of its sixth significant digit if the
    table prints six significant digits with trailing zeros dropped, as C's ``%g``)."""
    figure = Decimal(printed.rstrip("%"))
    place = figure.adjusted() - 5 if significant else figure.as_tuple().exponent
    scale = Fraction(1, 100) if printed.endswith("%") else Fraction(1)
    return scale * Fraction(10) ** int(place)


def value(printed: str) -> Fraction:
    return Fraction(printed.rstrip("%")) / (100 if printed.endswith("%") else 1)


def misses(expected: Distribution, row: dict[str, str], significant: bool) -> list[str]:
    """The printed figures of ``row`` that ``expected`` does not reproduce."""
    wrong = []
    for column, printed in row.items():
        if column in ("up", "decks", "outcome"):
            continue
        exact = expected.get(RESULTS.get(column, column), Fraction(0))
        if printed in ("0", "---"):  # none: BlackjackInfo prints a dash
            good = exact == 0
        else:
            good = abs(exact - value(printed)) <= unit(printed, significant)
        if not good:
            wrong.append(f"{column}: printed {printed}, exact {float(exact):.8g}")
    return wrong


def wizard_2b(name: str, decks: int) -> Iterator[tuple[str, Distribution, dict[str, str]]]:
    """Each row of a table of the Wizard's appendix 2B with the exact figures it shows."""
    for row in read_table(name)[1]:
        up = row["up"]
        exact = all_up_cards(decks, False) if up == "All" else before_the_peek(decks, UP_CARDS[up])
        yield up, exact, row


TABLES_2B = {"wizard-of-odds-2b-1-deck-s17.csv": 1, "wizard-of-odds-2b-2-decks-s17.csv": 2}


def test_every_table_names_its_source_on_its_first_line() -> None:
    tables = sorted(DATA.glob("*.csv"))
    assert len(tables) == 4
    for path in tables:
        source, rows = read_table(path.name)
        assert source.startswith("# source: ") and "http" in source and rows, path.name


@pytest.mark.parametrize("name", sorted(TABLES_2B))
def test_the_wizards_tables_before_the_peek(name: str) -> None:
    rows = list(wizard_2b(name, TABLES_2B[name]))
    assert {up: misses(exact, row, significant=True) for up, exact, row in rows} == {
        up: [] for up, _, _ in rows
    }
    if name.startswith("wizard-of-odds-2b-1-deck"):
        assert [up for up, _, _ in rows] == [*UP_CARDS, "All"]  # every up card


def test_the_wizards_tables_after_the_peek() -> None:
    rows = read_table("wizard-of-odds-2a-s17.csv")[1]
    assert len(rows) == 21
    wrong = {}
    for row in rows:
        decks, up = int(row["decks"]), row["up"]
        exact = all_up_cards(decks, True) if up == "All" else after_the_peek(decks, UP_CARDS[up])
        wrong[(decks, up)] = misses(exact, row, significant=False)
    assert wrong == {key: [] for key in wrong}


def test_blackjackinfos_table() -> None:
    rows = read_table("blackjackinfo-1-deck-s17.csv")[1]
    wrong = {}
    for up in UP_CARDS:
        peeked = after_the_peek(1, UP_CARDS[up])
        exact = {**peeked, "natural": before_the_peek(1, UP_CARDS[up])["natural"]}
        column = {row["outcome"]: row[up] for row in rows}
        wrong[up] = misses(exact, column, significant=False)
    assert wrong == {up: [] for up in UP_CARDS}


def test_a_dealer_who_may_choose_is_not_the_published_dealer() -> None:
    # The check can fail: the default dealer (who may leave the Bonus card out) misses
    # most of the figures, and so does a must-use dealer standing on 18.
    chooser = Rules(decks=1, dealer_stands_on=17, dealer_natural=DealerNatural.BONUS_CARD)
    on_18 = Rules(decks=1, dealer_bonus=DealerBonus.MUST_USE, dealer_stands_on=18)
    for rules in (chooser, on_18):
        shown = [
            misses(before_the_peek(1, UP_CARDS[up], rules), row, significant=True)
            for up, _, row in wizard_2b("wizard-of-odds-2b-1-deck-s17.csv", 1)
            if up != "All"
        ]
        assert sum(map(len, shown)) > 20
