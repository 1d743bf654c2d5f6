/*
 * The exact side's compiled kernels, twin of solver/exact/_numpy.py (optional: where it is
 * not built, solver/exact/kernel.py runs the numpy twin): this file is the module, its
 * methods kept in the files named in _native.h by what they compute, over the helpers
 * there (arguments taken by a table of names and kinds, index checks, modular reductions,
 * numpy's orders of summation).
 */
#include "_native.h"

static PyMethodDef methods[] = {
    {"rows", kernel_rows, METH_VARARGS,
     "rows(array, order, /)\n--\n\n"
     "Rows of a float array, in a given order, as a tuple of tuples of floats."},
    {"dealer_float", kernel_dealer_float, METH_VARARGS,
     "dealer_float(ways, steps, table, take, out, final, lengths, wide, falling, column, starts, results, width, /)\n--\n\n"
     "The dealer's float distributions: the fold, each row priced for its shoes as it is "
     "made (see solver/exact/dealer.py, dealer_probabilities)."},
    {"shoe_summary", kernel_shoe_summary, METH_VARARGS,
     "shoe_summary(counts, sizes, least, most, /)\n--\n\n"
     "Each shoe's size and the fewest and most cards of each value (see "
     "solver/exact/dealer.py, dealer_probabilities)."},
    {"shoe_groups", kernel_shoe_groups, METH_VARARGS,
     "shoe_groups(counts, parents, held, bounds, final, sizes, /)\n--\n\n"
     "The shoes grouped value by value for the fold (see solver/exact/dealer.py, "
     "_groups_of)."},
    {"distinct_sizes", kernel_distinct_sizes, METH_VARARGS,
     "distinct_sizes(sizes, distinct, column, /)\n--\n\n"
     "The distinct shoe sizes and each shoe's place among them (see solver/exact/dealer.py, "
     "_distinct_sizes)."},
    {"hand_space", kernel_hand_space, METH_VARARGS,
     "hand_space(universe, children_in, keys_in, sizes_in, limit, roots, hands, keys, children, draws, sizes, position, /)\n--\n\n"
     "The player's hands reachable from some roots in one shoe (see "
     "solver/exact/player_hands.py, hand_space)."},
    {"chart_walk", kernel_chart_walk, METH_VARARGS,
     "chart_walk(values, hit, reach, order, bounds, hits, draws, children, sizes, stand, left, roots, weights, /)\n--\n\n"
     "A fixed play's values over a hand space, level by level, each hand's value of "
     "hitting once and its chance of being reached (see solver/exact/protection.py, "
     "walk_reach)."},
    {"solve_hands", kernel_solve_hands, METH_VARARGS,
     "solve_hands(dealer, hands, children, draws, sizes, best, own_21, beats, labels, total, stand_vec, stand, hit, hitting, played, value, /)\n--\n\n"
     "solve_float after the dealer's distributions: standing's classes and sums, then the "
     "backward induction (see solver/exact/player.py)."},
    {"dealer_residues", kernel_dealer_residues, METH_VARARGS,
     "dealer_residues(out, sums, final, lengths, results, sizes, column, primes, depth, /)\n--\n\n"
     "The dealer's residues from the modular folds' sums (see solver/exact/dealer.py, "
     "dealer_residues)."},
    {"extend", kernel_extend, METH_VARARGS,
     "extend(out, residues, primes, more, /)\n--\n\n"
     "Integers given by residues, modulo more primes (see solver/exact/modular.py, extend)."},
    {"stand_modular", kernel_stand_modular, METH_VARARGS,
     "stand_modular(out, dealer, classes, lift, primes, /)\n--\n\n"
     "Standing's numerators modulo each prime (see solver/exact/player.py, "
     "solve_exact_modular)."},
    {"player_exact", kernel_player_exact, METH_VARARGS,
     "player_exact(numerators, hitting, sizes, draws, kids, left, sums, lift, bust, scale, primes, tolerance, /)\n--\n\n"
     "The player's whole exact pass modulo each prime (see solver/exact/player.py, "
     "solve_exact_modular)."},
    {"solve_float", kernel_solve_float, METH_VARARGS,
     "solve_float(universe, children_in, keys_in, sizes_in, limit, roots, ways, folds, take, "
     "table, lengths, wide, starts, results, width, best, own_21, beats, labels, depth, "
     "parents, held, bounds, group, group_sizes, grouped, hands, keys, children, draws, sizes, "
     "stand, hit, hitting, played, /)\n--\n\n"
     "A Bonus card's whole float solve: the hand space, the dealer's distributions for its "
     "shoes and the player's solve (see solver/exact/player.py, solve_player)."},
    {"dealer_ends", kernel_dealer_ends, METH_VARARGS,
     "dealer_ends(codes, order, drawn, widths, stages, final, results, lengths, /)\n--\n\n"
     "The dealer's final hands folded a card value at a time (see "
     "solver/exact/dealer_hands.py, _ends_of)."},
    {"final_hands", kernel_final_hands, METH_VARARGS,
     "final_hands(outcomes, codes, ways, starts, depths, /)\n--\n\n"
     "Every final dealer hand for the ten Bonus cards, merged and sorted (see "
     "solver/exact/dealer_hands.py, final_hands)."},
    {"fold", kernel_fold, METH_VARARGS,
     "fold(out, ways, steps, table, final, prime, /)\n--\n\n"
     "The dealer's fold over every card value (see solver/exact/dealer.py, _fold)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "solver.exact._native",
    "The exact side's compiled kernels (see solver/exact/kernel.py).", -1, methods,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    return PyModule_Create(&module);
}
