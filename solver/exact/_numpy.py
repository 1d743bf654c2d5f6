"""The exact side's kernels in numpy: the twin of ``solver/exact/_native.c``.

Every function here has the compiled one's name and signature and fills the same output
arrays with the same numbers: float results are the same bits (the compiled code adds its
terms in the order these numpy calls add them), exact ones the same integers.  Which twin
runs is chosen once, in :mod:`solver.exact.kernel`; callers never ask.  The inputs are
those the callers hand to either twin (see each function's caller); unlike the compiled
twin, these do not check every index before they run (numpy raises IndexError instead).
The functions live in three files by what they compute, as the C does: the dealer's
(:mod:`solver.exact._numpy_dealer`), the exact residues' (:mod:`solver.exact._numpy_modular`)
and the player's (:mod:`solver.exact._numpy_player`).
"""

from solver.exact._numpy_dealer import (
    dealer_ends,
    dealer_float,
    distinct_sizes,
    final_hands,
    fold,
    shoe_groups,
    shoe_summary,
)
from solver.exact._numpy_modular import dealer_residues, extend, player_exact, stand_modular
from solver.exact._numpy_player import chart_walk, hand_space, rows, solve_float, solve_hands

__all__ = [
    "chart_walk",
    "dealer_ends",
    "dealer_float",
    "dealer_residues",
    "distinct_sizes",
    "extend",
    "final_hands",
    "fold",
    "hand_space",
    "player_exact",
    "rows",
    "shoe_groups",
    "shoe_summary",
    "solve_float",
    "solve_hands",
    "stand_modular",
]
