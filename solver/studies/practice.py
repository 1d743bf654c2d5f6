"""The practice table's dealing and settling: rounds from a shuffled shoe, drills, the showdown.

Every card comes from the session's shoe: each is drawn at random from the cards still in
it, which deals exactly as a shoe shuffled once and dealt from the top.  The random draws of
a round are seeded by the session's seed, the round's number and what is drawn (the deal,
the n-th hit, the dealer's cards), so a session replays card for card from its seed and the
same decisions.  The shoe is reshuffled before a round once its penetration is dealt.

A drill (:class:`~solver.results.practice.Drill`) other than the plain deal picks a cell and
a Bonus card by its weights (or, drilling the player's mistakes, the review that is due),
then deals a hand that reaches that cell: a Bonus card of that value and the player's
cards drawn from the shoe, played on by the printed chart until the hand is in the cell
(the chart's own way of getting there, so each hand of the cell comes up as often as it
does in play), tried again from the same shoe when it does not get there.

Which cells are worth drilling rests on what the player sees: the kind of hand (hard or
soft) and its best total, the Bonus card counted where it helps (:func:`player_view`).  A
cell's play is *obvious* when the chart plays every cell the player sees alike the same
way (it stands on every hard 20 or 21, with or without the Bonus card; it hits every hard
total of 16 or less): a player who knows what to do at that total cannot get it wrong, so
playing it the other way is not a mistake players make.  Where the chart plays the same
view both ways, depending on the cards, the other play is a plausible mistake.

Each round is settled by the independent simulator's own code (:func:`solver.sim.deal.play_round`
on the round's cards in the order dealt), as the report's worked examples are.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from solver.exact.chart import verify_chart
from solver.exact.chart_costs import stored_costs
from solver.exact.game import solve_game
from solver.exact.practice import grade_play
from solver.model.cards import RANKS, SUITS, Card, Shoe
from solver.model.cells import Action, Actions, Cell, cell_of
from solver.model.chart_file import ChartGrid
from solver.model.errors import PracticeError
from solver.model.hands import (
    best_total,
    best_total_of,
    hand_of,
    hard_total,
    is_player_blackjack,
)
from solver.model.rules import Rules
from solver.results.charts import ChartCosts
from solver.results.practice import (
    DEFAULT_PENETRATION,
    Drill,
    Grade,
    Hand,
    Play,
    PracticeSetup,
    PracticeState,
    Settlement,
)
from solver.results.practice_history import PracticeHistory, read_history
from solver.results.practice_state import PracticeTurn, read_state
from solver.results.practice_stats import Schedule
from solver.results.run import Run
from solver.sim.deal import Shoes, Table, card_code, play_round, settle
from solver.studies.verification import Draws, dealer_natural, dealer_total

#: The rows each drill of one kind of total deals (a lone card, a hard 21 and a soft 21 are
#: left out: the first is always dealt as it comes, the others always stand).
DRILL_ROWS = {Drill.HARD: (False, range(4, 21)), Drill.SOFT: (True, range(12, 21))}
#: Hands tried for a drill's cell in the shoe as it is, then in a fresh shoe (the rarest
#: cell a drill deals, a soft 12, takes about 170 from a full shoe; a drill takes the cards it
#: needs, and the soft totals' drill uses up the aces long before the cut card).
ATTEMPTS = 600
FRESH_ATTEMPTS = 4000
#: Cards set aside for the dealer's draw (no dealer hand needs more).
DEALER_CARDS = 23
#: A close call: the two plays differ by at most this much each time the cell comes up
#: (main-wager units); with the obvious cells left out, the drill deals no hard total of
#: 8 or less, or of 19 or more, under the default rules.
CLOSE_CALL = Fraction(1, 10)

Target = tuple[Cell, int]


def _rng(setup: PracticeSetup, number: int, what: str) -> random.Random:
    """The random draws of round ``number``'s ``what``: the same for the same seed."""
    return random.Random(f"{setup.seed}/{number}/{what}")


def _value(code: int) -> int:
    return min(code // 4 + 1, 10)


def _card(code: int) -> Card:
    return Card(RANKS[code // 4], SUITS[code % 4])


def _draw(left: list[int], rng: random.Random, value: int | None = None) -> int | None:
    """A random card (its code) out of ``left``, taken from it; of ``value`` if given.

    None when no such card is left.
    """
    codes = range(52) if value is None else [c for c in range(52) if _value(c) == value]
    total = sum(left[c] for c in codes)
    if total == 0:
        return None
    k = rng.randrange(total)
    for code in codes:
        if k < left[code]:
            left[code] -= 1
            return code
        k -= left[code]
    raise AssertionError("unreachable")  # pragma: no cover


def player_view(target: Target) -> tuple[bool, int]:
    """What the player sees of a cell: a soft hand or not, and its best total with the
    Bonus card counted where it helps.

    >>> player_view(((False, 8), 1)), player_view(((False, 16), 10)), player_view(((True, 18), 3))
    ((False, 19), (False, 16), (True, 21))
    """
    (soft, total), bonus = target
    return soft, best_total_of(total - 10 if soft else total, soft, bonus)


def obvious_cells(costs: ChartCosts) -> frozenset[Target]:
    """The cells play reaches whose play is obvious: the chart plays every cell of the same
    :func:`player_view` the same way."""
    plays: dict[tuple[bool, int], set[Action]] = {}
    for target in costs.frequencies:
        plays.setdefault(player_view(target), set()).add(costs.chart.action(*target))
    return frozenset(t for t in costs.frequencies if len(plays[player_view(t)]) == 1)


def plausible_weights(costs: ChartCosts) -> dict[Target, Fraction]:
    """The costliest-mistakes drill's weights: each cell's cost per round of the mistake
    players make there, the other play, where that mistake is plausible (the cell's play
    is not obvious); a cell where it is not is left out."""
    obvious = obvious_cells(costs)
    return {
        k: c.cost
        for k, c in costs.cells.items()
        if c.cost > 0 and k in costs.frequencies and k not in obvious
    }


def close_call_weights(
    costs: ChartCosts, threshold: Fraction = CLOSE_CALL
) -> dict[Target, Fraction]:
    """The close calls' weights: each cell whose two plays differ by at most ``threshold``
    each time it comes up and whose play is not obvious, weighted by how often it comes up."""
    obvious = obvious_cells(costs)
    found = {}
    for k, frequency in costs.frequencies.items():
        flip = costs.cells.get(k)  # within the threshold each time: cost <= threshold * often
        if frequency and flip is not None and abs(flip.cost) <= threshold * frequency:
            found[k] = frequency
    return {k: f for k, f in found.items() if k not in obvious}


def drill_weights(drill: Drill, costs: ChartCosts) -> dict[Target, float]:
    """Each cell's weight in a drill: the plausible mistake's cost per round (the costliest
    mistakes), how often it comes up (close calls), or 1 for each cell of the drill's rows
    that play reaches (a cell whose flip costs nothing is never reached by the chart).  The
    plain deal and the mistakes drill have none."""
    if drill is Drill.COSTLY:
        return {k: float(w) for k, w in plausible_weights(costs).items()}
    if drill is Drill.CLOSE:
        return {k: float(w) for k, w in close_call_weights(costs).items()}
    if drill not in DRILL_ROWS:
        return {}
    soft, totals = DRILL_ROWS[drill]
    return {
        (cell, b): 1.0
        for (cell, b), c in costs.cells.items()
        if cell[0] == soft and cell[1] in totals and c.cost > 0
    }


def _grown(
    left: list[int], rng: random.Random, target: Target, chart: Actions, attempts: int
) -> tuple[int, list[int]] | None:
    """A Bonus card and own cards (codes) that reach ``target``, taken from ``left``."""
    cell, bonus_value = target
    for _ in range(attempts):
        trial = list(left)
        bonus = _draw(trial, rng, bonus_value)
        first = _draw(trial, rng)
        if bonus is None or first is None:
            return None
        if is_player_blackjack(_value(first), bonus_value):
            continue
        own = [first]
        while True:
            hand = hand_of(_value(c) for c in own)
            if hard_total(hand) > 21:
                break
            here = cell_of(hand)
            if here == cell:
                left[:] = trial
                return bonus, own
            card = _draw(trial, rng) if chart.action(here, bonus_value) is Action.HIT else None
            if card is None:
                break
            own.append(card)
    return None


def pick_cell(rng: random.Random, drill: Drill, costs: ChartCosts) -> Target | None:
    """A cell and Bonus card value for a drill, by its weights (None when it has none)."""
    weights = drill_weights(drill, costs)
    cells = sorted(weights)
    if not cells:
        return None
    (target,) = rng.choices(cells, [weights[c] for c in cells])
    return target


def _plain(left: list[int], rng: random.Random) -> tuple[int, list[int]]:
    """The player's card, then the Bonus card: (Bonus card, [player's card]) as codes."""
    first, bonus = _draw(left, rng), _draw(left, rng)
    if first is None or bonus is None:  # pragma: no cover - a reshuffle leaves enough cards
        raise PracticeError("the shoe ran out of cards")
    return bonus, [first]


def start_state(setup: PracticeSetup, schedule: Schedule | None = None) -> PracticeState:
    """A new session: a full shoe, no round dealt yet; the review schedule carried from
    the player's history, if any."""
    return PracticeState(setup, Shoe.full(setup.rules.decks), schedule=schedule or Schedule())


def target_of(state: PracticeState, rng: random.Random, costs: ChartCosts) -> Target | None:
    """The cell the next round drills: the review due (drilling mistakes), a cell picked by
    the drill's weights, or None (a hand as dealt)."""
    drill = state.setup.drill
    if drill is Drill.MISTAKES:
        review = state.schedule.due()
        return None if review is None else review.key
    return None if drill is Drill.DEALT else pick_cell(rng, drill, costs)


def recorded(state: PracticeState, grade: Grade) -> PracticeState:
    """The state with one more decision graded: the score, the statistics and the review
    schedule."""
    decided = grade.decided
    return replace(
        state,
        score=state.score.graded(grade),
        stats=state.stats.graded(decided),
        schedule=state.schedule.graded(decided.key, decided.mistake),
    )


def deal(state: PracticeState, costs: ChartCosts) -> tuple[PracticeState, Settlement | None]:
    """The next round dealt (after a reshuffle when the penetration is reached): the state
    with its hand in play, or with the round settled at once if it is a blackjack."""
    if state.hand is not None:
        raise PracticeError("a round is in play: hit or stand before the next deal")
    setup = state.setup
    shoe, shoes = state.shoe, state.shoes
    if state.dealt >= setup.cut():
        shoe, shoes = Shoe.full(setup.rules.decks), shoes + 1
    number = state.rounds + 1
    rng = _rng(setup, number, "deal")
    left = list(shoe.counts)
    target = target_of(state, rng, costs)
    found = None if target is None else _grown(left, rng, target, costs.chart, ATTEMPTS)
    if target is not None and found is None:  # the drill has used up what this cell needs
        shoe, shoes = Shoe.full(setup.rules.decks), shoes + 1
        left = list(shoe.counts)
        found = _grown(left, rng, target, costs.chart, FRESH_ATTEMPTS)
    bonus, own = _plain(left, rng) if found is None else found
    hand = Hand(number, _card(bonus), tuple(_card(c) for c in own), len(own))
    dealt = replace(
        state, shoe=Shoe(shoe.decks, tuple(left)), shoes=shoes, rounds=number, hand=hand
    )
    if len(own) == 1 and is_player_blackjack(_value(own[0]), _value(bonus)):
        return settle_round(dealt)
    return dealt, None


def hit(state: PracticeState) -> tuple[PracticeState, Settlement | None]:
    """The hand with one more card; a bust settles the round."""
    hand = _in_play(state)
    left = list(state.shoe.counts)
    code = _draw(left, _rng(state.setup, hand.number, f"hit {len(hand.cards)}"))
    if code is None:  # pragma: no cover - a reshuffle leaves enough cards for any round
        raise PracticeError("the shoe ran out of cards")
    grown = replace(hand, cards=(*hand.cards, _card(code)))
    after = replace(state, shoe=Shoe(state.shoe.decks, tuple(left)), hand=grown)
    if hard_total(hand_of(grown.values)) > 21:
        return settle_round(after)
    return after, None


def stand(state: PracticeState) -> tuple[PracticeState, Settlement]:
    """The round played out: the dealer's draw and the showdown."""
    _in_play(state)
    return settle_round(state)


def _in_play(state: PracticeState) -> Hand:
    if state.hand is None:
        raise PracticeError("no round is in play: deal the next one")
    return state.hand


def settle_round(state: PracticeState) -> tuple[PracticeState, Settlement]:
    """The round in play settled by the simulator, on its cards in the order dealt and the
    dealer's drawn from the shoe; the state between rounds, its score updated."""
    hand = _in_play(state)
    rules = state.rules
    left = list(state.shoe.counts)
    rng = _rng(state.setup, hand.number, "dealer")
    ahead = [c for c in (_draw(left, rng) for _ in range(DEALER_CARDS)) if c is not None]
    order = (hand.cards[0], hand.bonus, *hand.cards[1:], *(_card(c) for c in ahead))
    codes = np.array([card_code(c) for c in order], dtype=np.uint8)
    table = Table.make(rules, Draws(len(hand.cards) - 1), codes, 1, None)
    shoes = Shoes(codes, 1, None, None)
    main, bonus = play_round(shoes, 1, table)
    seat = settle(main, bonus, rules)[0]
    dealer = tuple(_card(c) for c in ahead[: int(shoes.next[0]) - 1 - len(hand.cards)])
    left = list(state.shoe.counts)
    for card in dealer:
        left[card_code(card)] -= 1
    own = hand_of(hand.values)
    drawn = hand_of(c.points for c in dealer)
    b = hand.bonus.points
    settlement = Settlement(
        hand.number,
        hand.bonus,
        hand.cards,
        dealer,
        None if hard_total(own) > 21 else best_total(own, b),
        dealer_total(rules, b, drawn) if dealer else None,
        bool(dealer) and dealer_natural(rules, b, drawn),
        seat.main,
        seat.bonus,
        seat.main_net,
        seat.bonus_net,
        seat.round_net,
    )
    after = replace(
        state,
        shoe=Shoe(state.shoe.decks, tuple(left)),
        hand=None,
        score=state.score.settled(settlement),
    )
    return after, settlement


def seen_cards(state: PracticeState) -> tuple[Card, ...]:
    """The cards out of the shoe since its shuffle, besides the round in play's."""
    full = Shoe.full(state.rules.decks).counts
    out: list[Card] = []
    for code, (n, left) in enumerate(zip(full, state.shoe.counts, strict=True)):
        out.extend([_card(code)] * (n - left))
    hand = state.hand
    if hand is not None:
        for card in (hand.bonus, *hand.cards):
            out.remove(card)
    return tuple(out)


def practice_start(
    *,
    rules: Rules,
    seed: int | None,
    drill: str,
    penetration: Fraction | None,
    chart: ChartGrid | None,
    history: PracticeHistory | Mapping[str, Any] | None,
    run: Run,
) -> PracticeTurn:
    """A practice session under the rules, its first round dealt.

    ``seed`` makes the session replayable (a fresh one when None, shown in the state);
    ``drill`` is ``dealt``, ``hard``, ``soft``, ``costly``, ``close`` or ``mistakes``;
    ``penetration`` is the share of the shoe dealt before a reshuffle (3/4 when None);
    ``chart`` is the chart learned (the printed best chart when None); ``history`` is the
    player's practice history (or its JSON, checked), whose review schedule the session
    carries on.
    """
    chosen = secrets.randbelow(10**9) if seed is None else seed
    setup = PracticeSetup(rules, chosen, penetration or DEFAULT_PENETRATION, Drill(drill), chart)
    game = solve_game(rules, exact=True, cache=run.cache)
    costs = stored_costs(game, run.cache)
    if setup.chart is not None:
        verify_chart(game, setup.chart, setup.chart.name)
    past = history if isinstance(history, PracticeHistory | None) else read_history(history)
    schedule = None if past is None else past.schedule
    state, settled = deal(start_state(setup, schedule), costs)
    return PracticeTurn(state, None, settled)


def practice_play(*, state: PracticeState | Mapping[str, Any], play: str, run: Run) -> PracticeTurn:
    """One play of a session: ``hit`` or ``stand`` (graded), or ``deal`` the next round;
    ``state`` is the last turn's (or its JSON, read as untrusted input and checked)."""
    current = state if isinstance(state, PracticeState) else read_state(state)
    game = solve_game(current.rules, exact=True, cache=run.cache)
    costs = stored_costs(game, run.cache)
    if play == "deal":
        after, settled = deal(current, costs)
        return PracticeTurn(after, None, settled)
    hand = current.hand
    if hand is None:
        raise PracticeError("no round is in play: deal the next one")
    decided = Play(play)
    grade = grade_play(
        current.rules, costs, game, hand.bonus, hand.cards, seen_cards(current), decided,
        current.setup.chart,
    )  # fmt: skip
    graded = recorded(current, grade)
    after, settled = hit(graded) if decided is Play.HIT else stand(graded)
    return PracticeTurn(after, grade, settled)
