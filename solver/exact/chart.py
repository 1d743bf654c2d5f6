"""The printable chart: the best strategy that looks only at (own total, soft or hard, Bonus card).

Composition-dependent play (:mod:`solver.exact.player`) is exact but cannot be printed.  A chart
gives one action per *cell*: the hard total 2..21 or soft total 11..21 of the player's own
cards, against each Bonus card value.  The Bonus card is known before the player acts, so
each Bonus column is chosen on its own.

Finding the best column exactly.  Drawing always raises a hand's hard total, so cells are
settled from hard total 21 downwards; once every cell above is fixed, each hand in a cell
has an exact stand value and an exact hit value.  If every hand of the cell prefers the
same action, that action is best whatever the cells below decide (they only change how
often each hand is reached, never its value).  Only a *mixed* cell, where some hands
prefer to hit and others to stand, depends on how play reaches it; the search branches on
both actions there and keeps the column with the highest exact expected value.  So the
result is the best chart, not just a local optimum.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from solver.exact.dealer_hands import dealer_ends
from solver.exact.game import solutions_of, solve_game
from solver.exact.modular import padded_falling
from solver.exact.player import Number, PlayerSolution
from solver.exact.values import ExactValues
from solver.model.cards import VALUES, ValueCounts, value_label
from solver.model.cells import (
    ROWS,
    Action,
    Actions,
    Cell,
    cell_name,
    cell_of,
)
from solver.model.errors import StrategyError
from solver.model.hands import hand_of, is_player_blackjack
from solver.model.process import check_stop
from solver.model.rules import Rules
from solver.results.charts import CHART, Chart, ExceptionHand
from solver.results.game import GameResult
from solver.results.kinds import Key, Store


@dataclass
class _Column:
    """Exact integer workspace for one Bonus card.

    A hand of ``m`` cards has its values as numerators over ``denominator[m]``, with
    ``denominator[m] = (cards left) * denominator[m + 1]`` so hitting needs no division.
    Cells are visited in ``order``: hard total descending, so a hand's children (which
    always have a higher hard total) are valued before it.  ``optimal`` holds the
    composition-dependent optimum's numerators.  Hand ``i`` draws ``counts[k]`` cards
    that make hand ``kids[k]`` for ``k`` from ``starts[i]`` to ``starts[i + 1]``, and
    ``busts[i]`` cards that bust it.
    """

    solution: PlayerSolution
    cells: list[Cell]
    members: dict[Cell, list[int]]
    order: list[Cell]
    stand: list[int]
    optimal: list[int]
    denominator: list[int]
    sizes: list[int]
    counts: list[int]
    kids: list[int]
    starts: list[int]
    busts: list[int]

    @classmethod
    def of(cls, solution: PlayerSolution, bonus: int) -> _Column:
        """Build the workspace from an exact solution of the Bonus card.

        A lone card that makes a blackjack with the Bonus card is paid at once, so it
        belongs to no cell.
        """
        space = solution.space
        total = sum(space.shoe)
        # Stand values are counts over the dealer's depth: make room for them too.
        top = int(space.sizes.max()) + dealer_ends(solution.rules, bonus).depth
        denominator = [padded_falling(total - m, top - m) for m in range(top + 1)]
        sizes = space.sizes.tolist()
        stand = _scaled(solution.stand, sizes, denominator)
        hit = _scaled(solution.hit, sizes, denominator)
        optimal = [max(s, h) for s, h in zip(stand, hit, strict=True)]
        cells = [cell_of(tuple(h)) for h in space.hands.tolist()]
        members: dict[Cell, list[int]] = {}
        for i, cell in enumerate(cells):
            lone = sizes[i] == 1 and is_player_blackjack(int(space.hands[i].argmax()) + 1, bonus)
            if not lone:
                members.setdefault(cell, []).append(i)
        order = sorted(members, key=lambda c: (-_hard_total(c), c))
        bust = space.children == len(stand)
        kept = (space.draws > 0) & ~bust
        starts = [0, *np.cumsum(kept.sum(axis=1)).tolist()]
        return cls(
            solution,
            cells,
            members,
            order,
            stand,
            optimal,
            denominator,
            sizes,
            counts=space.draws[kept].tolist(),
            kids=space.children[kept].tolist(),
            starts=starts,
            busts=np.where(bust, space.draws, 0).sum(axis=1).tolist(),
        )

    def draws(self, i: int) -> Iterator[tuple[int, int]]:
        """(cards left, hand they make) for each value that does not bust hand ``i``."""
        a, b = self.starts[i], self.starts[i + 1]
        return zip(self.counts[a:b], self.kids[a:b], strict=True)

    def hit(self, i: int, values: list[int]) -> int:
        """Numerator of hitting hand ``i`` once, its children then worth ``values``."""
        out = -self.busts[i] * self.denominator[self.sizes[i] + 1]
        for count, child in self.draws(i):
            out += count * values[child]
        return out

    def values(self, actions: dict[Cell, Action]) -> list[int]:
        """Numerators of every hand's value when the column follows ``actions``."""
        values = [0] * (len(self.stand) + 1)
        for cell in self.order:
            hit = actions.get(cell) is Action.HIT
            for i in self.members[cell]:
                values[i] = self.hit(i, values) if hit else self.stand[i]
        return values

    def fraction(self, i: int, values: list[int]) -> Fraction:
        """Hand ``i``'s value as a fraction."""
        return Fraction(values[i], self.denominator[self.sizes[i]])


def _scaled(values: Sequence[Number], sizes: list[int], denominator: list[int]) -> list[int]:
    """Each exact value's numerator over ``denominator`` of its hand's size.

    An exact solve's values are held as numerators over these very denominators: those
    are taken as they are, and only other values are made fractions and scaled.
    """
    held: dict[int, int] = {}
    if isinstance(values, ExactValues):
        numerators, denominators = values.raw()
        held = {
            i: n
            for i, (n, d) in enumerate(zip(numerators[0], denominators, strict=True))
            if d == denominator[sizes[i]]
        }
    out = []
    for i, m in enumerate(sizes):
        if i in held:
            out.append(held[i])
            continue
        value = values[i]
        if not isinstance(value, Fraction):
            raise TypeError("the chart search needs an exact solution")
        scaled = value * denominator[m]
        if scaled.denominator != 1:
            raise ArithmeticError("a value does not fit the common denominator")
        out.append(scaled.numerator)
    return out


def _hard_total(cell: Cell) -> int:
    return cell[1] - 10 if cell[0] else cell[1]


def best_column(column: _Column, roots: dict[int, int]) -> dict[Cell, Action]:
    """Exactly best actions for one Bonus card (see the module docstring).

    ``roots`` maps each starting hand's index to its weight (cards of that value left);
    ties between whole columns keep the first found, which stands wherever it can.
    """
    best_value: int | None = None
    best_actions: dict[Cell, Action] = {}

    def search(k: int, values: list[int], chosen: dict[Cell, Action]) -> None:
        nonlocal best_value, best_actions
        if k == len(column.order):
            value = sum(w * values[i] for i, w in roots.items())
            if best_value is None or value > best_value:
                best_value, best_actions = value, dict(chosen)
            return
        cell = column.order[k]
        hits = {i: column.hit(i, values) for i in column.members[cell]}
        prefer_hit = [hits[i] > column.stand[i] for i in column.members[cell]]
        if all(prefer_hit):
            options = [Action.HIT]
        elif not any(prefer_hit):
            options = [Action.STAND]
        else:
            options = [Action.STAND, Action.HIT]
        for action in options:
            branch = list(values) if len(options) > 1 else values
            for i in column.members[cell]:
                branch[i] = hits[i] if action is Action.HIT else column.stand[i]
            chosen[cell] = action
            search(k + 1, branch, chosen)
        del chosen[cell]

    search(0, [0] * (len(column.stand) + 1), {})
    return best_actions


def _roots(solution: PlayerSolution, bonus: int) -> dict[int, int]:
    """Starting hands (one own card, not a blackjack) and how many cards make each."""
    space = solution.space
    return {
        space.index(hand_of([p])): int(space.shoe[p - 1])
        for p in VALUES
        if space.shoe[p - 1] > 0 and not is_player_blackjack(p, bonus)
    }


def best_chart(rules: Rules, game: GameResult[Fraction] | None = None) -> Chart:
    """The best chart under ``rules``, its exact EV, and where perfect play departs from it."""
    game = game if game is not None else solve_game(rules, exact=True)
    if not game.exact:
        raise TypeError("best_chart needs an exact solve (solve_game(..., exact=True))")
    actions: dict[tuple[Cell, int], Action] = {}
    expected = Fraction(0)
    exceptions: list[ExceptionHand] = []
    probability = {(s.player, s.bonus): Fraction(s.probability) for s in game.starts}
    for bonus, solution in solutions_of(game).items():
        check_stop()  # a stopped job stops between two Bonus cards' columns
        column = _Column.of(solution, bonus)
        roots = _roots(solution, bonus)
        chosen = best_column(column, roots)
        for cell in ROWS:
            actions[(cell, bonus)] = chosen.get(cell, Action.NONE)
        values = column.values(chosen)
        for p in VALUES:
            weight = probability.get((p, bonus))
            if weight is None:
                continue
            if is_player_blackjack(p, bonus):
                expected += weight * rules.blackjack_pays
            else:
                expected += weight * column.fraction(solution.space.index(hand_of([p])), values)
        exceptions += _exceptions(column, chosen, values, bonus, probability)
    for cell in ROWS:
        for bonus in VALUES:
            actions.setdefault((cell, bonus), Action.NONE)
    exceptions.sort(key=lambda e: (-(e.frequency * e.gain), e.bonus, e.hand))
    return Chart(rules, actions, expected, Fraction(game.expected_value), tuple(exceptions))


def reached(
    column: _Column,
    chosen: Mapping[Cell, Action],
    bonus: int,
    probability: Mapping[tuple[int, int], Fraction],
) -> Iterator[tuple[Cell, int, int, int]]:
    """Every hand of ``column`` that play by ``chosen`` reaches: its cell, its index and the
    probability of reaching it as ``(numerator, denominator)`` integers, parents first.

    A hand of ``m`` cards is reached with probability ``reach[i] / (scale * falling[m])``:
    ``scale`` is a common denominator of the starting hands' probabilities (``probability``
    by (player's card, Bonus card) values) and ``falling[m]`` the product of the cards left
    at each draw, so reaching adds integers.
    """
    space = column.solution.space
    starts = {
        space.index(hand_of([p])): probability[(p, bonus)]
        for p in VALUES
        if (p, bonus) in probability and not is_player_blackjack(p, bonus)
    }
    scale = lcm(*(r.denominator for r in starts.values()))
    reach = {i: r.numerator * (scale // r.denominator) for i, r in starts.items()}
    total = sum(space.shoe)
    falling = [1, 1]
    for m in range(1, max(column.sizes) + 1):
        falling.append(falling[m] * (total - m))
    for cell in reversed(column.order):  # hard total ascending: parents before children
        hit = chosen.get(cell) is Action.HIT
        for i in column.members[cell]:
            r = reach.get(i)
            if not r:
                continue
            if hit:
                for count, child in column.draws(i):
                    reach[child] = reach.get(child, 0) + r * count
            yield cell, i, r, scale * falling[column.sizes[i]]


def _exceptions(
    column: _Column,
    chosen: dict[Cell, Action],
    values: list[int],
    bonus: int,
    probability: dict[tuple[int, int], Fraction],
) -> list[ExceptionHand]:
    """Hands reached under the chart where the composition-dependent optimum acts otherwise."""
    solution = column.solution
    found = []
    for cell, i, r, denominator in reached(column, chosen, bonus, probability):
        hit = chosen.get(cell) is Action.HIT
        if solution.hitting[i] != hit:
            gain = column.optimal[i] - values[i]
            if gain > 0:
                m = column.sizes[i]
                hand = tuple(int(n) for n in solution.space.hands[i])
                action = Action.HIT if hit else Action.STAND
                found.append(
                    ExceptionHand(
                        bonus,
                        hand,
                        action,
                        Fraction(r, denominator),
                        Fraction(gain, column.denominator[m]),
                    )
                )
    return found


def stored_chart(rules: Rules, game: GameResult[Fraction], cache: Store | None = None) -> Chart:
    """:func:`best_chart`, kept in ``cache`` under ``rules`` when the game is of a full shoe."""
    if cache is None or game.removed:
        return best_chart(rules, game)
    return cache.fetch(CHART, Key(rules, exact=True), lambda: best_chart(rules, game))


def strategy_source(
    game: GameResult[Fraction],
    kind: str,
    cache: Store | None = None,
    chart: Actions | None = None,
) -> dict[tuple[int, ValueCounts], bool]:
    """Hit (True) or stand for every (Bonus value, own hand), for the simulator to play.

    ``optimal`` is the composition-dependent play of ``game`` (an exact solve), ``chart``
    the best printable chart under its rules (kept in ``cache``, if given); a ``chart``
    given (one read from a file, ``chart:FILE``) is played as it is.
    """
    if chart is not None:
        verify_chart(game, chart, kind)
    elif kind == "chart":
        chart = stored_chart(game.rules, game, cache)
    table: dict[tuple[int, ValueCounts], bool] = {}
    for bonus, solution in solutions_of(game).items():
        for i, row in enumerate(solution.space.hands.tolist()):
            hand = tuple(row)
            if chart is None:
                table[(bonus, hand)] = solution.hitting[i]
            else:
                table[(bonus, hand)] = chart.action(cell_of(hand), bonus) is Action.HIT
    return table


def exact_main(
    game: GameResult[Fraction], kind: str, cache: Store | None = None
) -> tuple[Fraction, dict[str, Fraction] | None]:
    """Exact main-wager EV of a strategy, and its outcome probabilities where known."""
    if kind == "chart":
        return stored_chart(game.rules, game, cache).expected_value, None
    return game.expected_value, dict(game.outcomes)


def _columns(game: GameResult[Fraction]) -> dict[int, _Column]:
    """The exact workspace of every Bonus card of ``game`` (an exact solve)."""
    if not game.exact:
        raise TypeError("a chart's value needs an exact solve (solve_game(..., exact=True))")
    return {bonus: _Column.of(solution, bonus) for bonus, solution in solutions_of(game).items()}


def verify_chart(
    game: GameResult[Fraction],
    chart: Actions,
    name: str = "chart",
    columns: dict[int, _Column] | None = None,
) -> dict[int, _Column]:
    """Raise :class:`StrategyError` unless ``chart`` says H or S wherever a hand arises.

    Returns the columns of ``game`` (built here when not given).
    """
    columns = _columns(game) if columns is None else columns
    for bonus, column in columns.items():
        for cell in ROWS:
            if cell in column.members and chart.action(cell, bonus) is Action.NONE:
                raise StrategyError(
                    f"{name}: {cell_name(cell)} v {value_label(bonus)} is '-', but such hands "
                    "arise: write H (hit) or S (stand)"
                )
    return columns
