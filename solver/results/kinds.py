"""Kinds of kept result, the key each is kept under, and what a store is: one fetch-or-compute.

A store (the disk cache, a memory store, the workbench's) keeps results of any
:class:`Kind` under a :class:`Key` and answers one question, :meth:`Store.fetch`: the
result kept for this kind and key, or ``compute()`` (then kept).  A kind is declared once,
beside its result type (:data:`~solver.results.game.GAME` beside
:class:`~solver.results.game.GameResult`, say), and a new kind needs no change to any
store:

>>> from solver.model.rules import Rules
>>> WIDGET: Kind[int] = Kind("widget", int)
>>> class Shelf:  # the smallest store there is: a dictionary
...     def __init__(self) -> None:
...         self.kept: dict[tuple[str, str], object] = {}
...     def fetch(self, kind, key, compute):
...         place = (kind.name, key.text())
...         if place not in self.kept:
...             self.kept[place] = compute()
...         return self.kept[place]
>>> store: Store = Shelf()
>>> store.fetch(WIDGET, Key(Rules()), lambda: 7), store.fetch(WIDGET, Key(Rules()), lambda: 8)
(7, 7)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from solver.model.cards import Card
from solver.model.rules import Rules

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Kind(Generic[T]):
    """A kind of result a store keeps: its name, part of every key, and its type.

    ``shape`` is the result's type as written (a class, or a hint such as
    ``tuple[Variant, ...]``): a store that writes plain data reads an entry back into the
    classes ``shape`` names, and those only.
    """

    name: str
    shape: Any = field(compare=False)


@dataclass(frozen=True, slots=True)
class Key:
    """Everything a kept result depends on but the code: the rules, the cards out of the
    shoe, exact or float, and any other settings (a simulation's rounds and seed, say).

    The removed cards are a set to a key (sorted in :meth:`canonical`): a result carries
    them in the caller's order.
    """

    rules: Rules
    removed: tuple[Card, ...] = ()
    exact: bool = False
    settings: Mapping[str, Any] | None = field(default=None, hash=False)

    def canonical(self) -> dict[str, Any]:
        """The key as plain JSON values, in canonical form."""
        document: dict[str, Any] = {
            "rules": self.rules.canonical(),
            "removed": sorted(str(c) for c in self.removed),
            "exact": self.exact,
        }
        if self.settings is not None:
            document["settings"] = dict(self.settings)
        return document

    def refuses(self, value: object) -> str | None:
        """Why ``value`` cannot be a result kept under this key, or ``None``: it names other
        rules, other removed cards or the other arithmetic than the key does.

        >>> from solver.model.rules import Rules
        >>> from solver.results.charts import Chart
        >>> chart = Chart(Rules(decks=6), {}, 0, 0, ())
        >>> Key(Rules(decks=1)).refuses(chart), Key(Rules(decks=6)).refuses(chart)
        ('it holds a result for other rules', None)
        """
        rules, removed = getattr(value, "rules", None), getattr(value, "removed", None)
        exact = getattr(value, "exact", None)
        if isinstance(rules, Rules) and rules != self.rules:
            return "it holds a result for other rules"
        if isinstance(removed, tuple) and sorted(map(str, removed)) != sorted(
            map(str, self.removed)
        ):
            return "it holds a result for other removed cards"
        if isinstance(exact, bool) and exact != self.exact:
            return "it holds a result of the other arithmetic"
        return None

    def text(self) -> str:
        """:meth:`canonical` as compact JSON text, keys sorted: equal keys, equal text."""
        return json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))


class Store(Protocol):
    """Somewhere results are kept between calls (a disk cache, say): all that the solvers,
    the studies and the API's commands ask of a store."""

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result of ``kind`` kept under ``key``, or ``compute()`` (then kept)."""
        ...
