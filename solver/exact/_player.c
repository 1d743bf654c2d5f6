/*
 * The player's hands (hand_space, solver/exact/player_hands.py), the player's float
 * standing and backward induction over a hand space in one call (solve_hands), a fixed
 * play's walk over it (chart_walk) and float rows as tuples (rows).  Twins:
 * solver/exact/_numpy.py.
 */
#include "_native.h"

enum {
    S_DEALER, S_HANDS, S_CHILDREN, S_DRAWS, S_SIZES, S_BEST, S_OWN_21, S_BEATS, S_LABELS,
    S_TOTAL, S_STAND_VEC, S_STAND, S_HIT, S_HITTING, S_PLAYED, S_VALUE, N_SOLVE
};

/* The most cards a hand of solve_hands holds (a hard total of at most 21). */
#define MOST_CARDS 21

/* Codes of the dealer's results in solve_hands's labels: bust, natural, else a total. */
#define LABEL_BUST (-1)
#define LABEL_NATURAL (-2)

/* Standing's class (0 win, 1 push, 2 lose) for a hand of best total `total` whose 21, if
 * any, a dealer natural beats (`beaten`), against dealer result `label` (clauses 7-9, as
 * solver/exact/player_hands.py's showdown_classes). */
static inline int64_t
showdown(int64_t total, int beaten, int64_t label)
{
    if (label == LABEL_BUST) {
        return 0;
    }
    if (label == LABEL_NATURAL) {
        return total < 21 || beaten ? 2 : 1;
    }
    return total > label ? 0 : (total == label ? 1 : 2);
}

/* Check solve_hands's inputs against each other (NULL when they fit); `hards` gets each
 * hand's hard total. */
static const char *
check_solve(const Buffer *b, Py_ssize_t n, Py_ssize_t results, int64_t *hards)
{
    Py_ssize_t rows, columns, table_rows, table_columns;
    if (!shape2(&b[S_DEALER], &rows, &columns) || rows != n || columns != results ||
        length(&b[S_HANDS]) != 10 * n || length(&b[S_CHILDREN]) != 10 * n ||
        length(&b[S_DRAWS]) != 10 * n || length(&b[S_STAND_VEC]) != 3 * n ||
        length(&b[S_STAND]) != n || length(&b[S_HIT]) != n || length(&b[S_HITTING]) != n ||
        length(&b[S_PLAYED]) != 3 * (n + 1) || length(&b[S_VALUE]) != n + 1) {
        return "the arrays' sizes do not match";
    }
    if (!shape2(&b[S_BEST], &table_rows, &table_columns) || table_rows != 22 ||
        table_columns != 2 || length(&b[S_OWN_21]) != 44 ||
        length(&b[S_BEATS]) < MOST_CARDS + 2) {
        return "best and own_21 must be (22, 2), beats cover 22 cards";
    }
    const int64_t *hands = b[S_HANDS].view.buf, *sizes = b[S_SIZES].view.buf;
    const int64_t *best = b[S_BEST].view.buf;
    if (!within(b[S_CHILDREN].view.buf, 10 * n, n + 1) ||
        !within(sizes, n, MOST_CARDS + 1) || !within(hands, 10 * n, MOST_CARDS + 1) ||
        !within(best, 44, 22)) {
        return "an index is out of range";
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t hard = 0;
        for (int v = 0; v < 10; v++) {
            hard += (v + 1) * hands[10 * i + v];
        }
        if (hard > 21) {
            return "a hand's hard total is above 21";
        }
        hards[i] = hard;
    }
    return NULL;
}

/* Standing's (win, push, lose) and value for every hand: for hand i, the classes against
 * each dealer result (tabulated once by best total and whether a natural beats it) and
 * the sums of dealer[i, j] * (class == k), as numpy's sum along a row adds them (below
 * eight results, one after another from -0.0: the three sums in one pass). */
static void
stand_hands(const Buffer *b, Py_ssize_t n, Py_ssize_t results, const int64_t *hards,
            double *terms, int64_t *classes)
{
    const double *dealer = b[S_DEALER].view.buf;
    const int64_t *hands = b[S_HANDS].view.buf, *sizes = b[S_SIZES].view.buf;
    const int64_t *best = b[S_BEST].view.buf, *own_21 = b[S_OWN_21].view.buf;
    const int64_t *beats = b[S_BEATS].view.buf, *labels = b[S_LABELS].view.buf;
    double *stand_vec = b[S_STAND_VEC].view.buf, *stand = b[S_STAND].view.buf;
    for (int64_t at = 0; at < 44; at++) {
        for (Py_ssize_t j = 0; j < results; j++) {
            classes[at * results + j] = showdown(at / 2, (int)(at % 2), labels[j]);
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t at = 2 * hards[i] + (hands[10 * i] > 0);
        const int64_t total = best[at];
        const int64_t cards_21 = own_21[at] ? sizes[i] : sizes[i] + 1;
        const int beaten = total == 21 && beats[cards_21];
        const int64_t *row = classes + (2 * total + beaten) * results;
        const double *chances = dealer + i * results;
        double *sums = stand_vec + 3 * i;
        if (results < 8) {
            double win = -0.0, push = -0.0, lose = -0.0;
            for (Py_ssize_t j = 0; j < results; j++) {
                win += chances[j] * (double)(row[j] == 0);
                push += chances[j] * (double)(row[j] == 1);
                lose += chances[j] * (double)(row[j] == 2);
            }
            sums[0] = win, sums[1] = push, sums[2] = lose;
        } else {
            for (int64_t k = 0; k < 3; k++) {
                for (Py_ssize_t j = 0; j < results; j++) {
                    terms[j] = chances[j] * (double)(row[j] == k);
                }
                sums[k] = pairwise(terms, results, 1);
            }
        }
        stand[i] = sums[0] - sums[2];
    }
}

/* The float backward induction, hands in their own order: `order` lists them by
 * size (counted), and sizes are taken from the largest down to 1, each hand's chances of
 * drawing value v being draws[i, v] / max(total - size, 1) as numpy divides them. */
static void
induct_hands(const Buffer *b, Py_ssize_t n, int64_t total, Py_ssize_t *order)
{
    const int64_t *children = b[S_CHILDREN].view.buf, *draws = b[S_DRAWS].view.buf;
    const int64_t *sizes = b[S_SIZES].view.buf;
    const double *stand = b[S_STAND].view.buf, *stand_vec = b[S_STAND_VEC].view.buf;
    double *hit = b[S_HIT].view.buf, *played = b[S_PLAYED].view.buf;
    double *value = b[S_VALUE].view.buf;
    int64_t *hitting = b[S_HITTING].view.buf;
    Py_ssize_t first[MOST_CARDS + 2] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        first[sizes[i] + 1]++;
    }
    for (int m = 0; m <= MOST_CARDS; m++) {
        first[m + 1] += first[m];
    }
    Py_ssize_t placed[MOST_CARDS + 1];
    memcpy(placed, first, sizeof placed);
    for (Py_ssize_t i = 0; i < n; i++) {
        order[placed[sizes[i]]++] = i;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        hit[i] = 0.0;
        hitting[i] = 0;
        value[i] = 0.0;
        played[3 * i] = played[3 * i + 1] = played[3 * i + 2] = 0.0;
    }
    value[n] = -1.0; /* the busted hand */
    played[3 * n] = played[3 * n + 1] = 0.0;
    played[3 * n + 2] = 1.0;
    for (int m = MOST_CARDS; m >= 1; m--) {
        for (Py_ssize_t r = first[m]; r < first[m + 1]; r++) {
            const Py_ssize_t i = order[r];
            const int64_t left = total - m > 1 ? total - m : 1;
            const int64_t *kid = children + 10 * i, *count = draws + 10 * i;
            double w[10], terms[10];
            for (int v = 0; v < 10; v++) {
                w[v] = (double)count[v] / (double)left;
                terms[v] = w[v] * value[kid[v]];
            }
            const double h = sum_ten(terms);
            double outcome[3];
            for (int k = 0; k < 3; k++) {
                double sum = 0.0;
                for (int v = 0; v < 10; v++) {
                    sum += w[v] * played[3 * kid[v] + k];
                }
                outcome[k] = sum;
            }
            const int choose = h > stand[i];
            hit[i] = h;
            hitting[i] = choose;
            value[i] = choose ? h : stand[i];
            for (int k = 0; k < 3; k++) {
                played[3 * i + k] = choose ? outcome[k] : stand_vec[3 * i + k];
            }
        }
    }
}

/* solve_hands' work on its arrays (taken or borrowed, checked here): NULL, or the problem
 * ("" with MemoryError set). */
static const char *
solve_hands_core(const Buffer *buffers, long long total)
{
    const Py_ssize_t n = length(&buffers[S_SIZES]), results = length(&buffers[S_LABELS]);
    /* Each hand's hard total, then (as scratch) the order by size; a row of terms, and the
     * classes by (best total, beaten) and dealer result. */
    int64_t *hards = PyMem_Malloc(sizeof(int64_t) * (n ? n : 1));
    Py_ssize_t *order = PyMem_Malloc(sizeof(Py_ssize_t) * (n ? n : 1));
    double *terms = PyMem_Malloc(8 * (results ? results : 1));
    int64_t *classes = PyMem_Malloc(8 * 44 * (results ? results : 1));
    const char *problem = NULL;
    if (!hards || !order || !terms || !classes) {
        problem = (PyErr_NoMemory(), "");
    } else {
        problem = check_solve(buffers, n, results, hards);
    }
    if (!problem) {
        Py_BEGIN_ALLOW_THREADS;
        stand_hands(buffers, n, results, hards, terms, classes);
        induct_hands(buffers, n, (int64_t)total, order);
        Py_END_ALLOW_THREADS;
    }
    PyMem_Free(hards);
    PyMem_Free(order);
    PyMem_Free(terms);
    PyMem_Free(classes);
    return problem;
}

/*
 * solve_hands(dealer, hands, children, draws, sizes, best, own_21, beats, labels, total,
 *             stand_vec, stand, hit, hitting, played, value)
 *
 * solver/exact/player.py's solve_float after the dealer's distributions, in one call and
 * in the hand space's own order: standing's classes against each dealer result (labels:
 * -1 bust, -2 natural, else the dealer's total; best[hard, ace] the hand's best total,
 * own_21[hard, ace] whether its own cards make it, beats[cards] whether a natural beats a
 * 21 of that many cards), standing's sums by class, then the backward induction over
 * the hands by size (hit[i] = sum_v chances[i, v] * value[children[i, v]], the (win,
 * push, lose) of hitting likewise from played; hitting[i] when hit[i] > stand[i]; sums
 * in numpy's order: its pairwise sum along a row of ten, einsum's left to right).  The busted hand n has value -1 and
 * outcomes (0, 0, 1); a hand of no cards is left at zeros, as on numpy.  Every sum adds
 * in numpy's order, so the floats are numpy's bits.
 */
PyObject *
kernel_solve_hands(PyObject *self, PyObject *args)
{
    static const Arg spec[N_SOLVE] = {
        {"dealer", 'd', 0},
        {"hands", 'q', 0},
        {"children", 'q', 0},
        {"draws", 'q', 0},
        {"sizes", 'q', 0},
        {"best", 'q', 0},
        {"own_21", 'q', 0},
        {"beats", 'q', 0},
        {"labels", 'q', 0},
        {"total", 'n', 0},
        {"stand_vec", 'd', 1},
        {"stand", 'd', 1},
        {"hit", 'd', 1},
        {"hitting", 'q', 1},
        {"played", 'd', 1},
        {"value", 'd', 1},
    };
    Buffer buffers[N_SOLVE];
    Scalar scalars[N_SOLVE];
    (void)self;
    if (take_args(args, spec, N_SOLVE, buffers, scalars) < 0) {
        return NULL;
    }
    const char *problem = solve_hands_core(buffers, scalars[S_TOTAL].integer);
    release(buffers, N_SOLVE);
    if (problem) {
        if (*problem) {
            PyErr_SetString(PyExc_ValueError, problem);
        }
        return NULL;
    }
    Py_RETURN_NONE;
}

enum {
    H_UNIVERSE, H_CHILDREN_IN, H_KEYS_IN, H_SIZES_IN, H_LIMIT, H_ROOTS, H_HANDS, H_KEYS,
    H_CHILDREN, H_DRAWS, H_SIZES, H_POSITION, N_SPACE
};

/* Whether universe hand `hand` holds one of the roots: a one-card root's value (`single`),
 * or every card of a larger root. */
static int
holds_root(const int64_t *hand, const int single[10], const int64_t *roots, Py_ssize_t count)
{
    for (int v = 0; v < 10; v++) {
        if (single[v] && hand[v] > 0) {
            return 1;
        }
    }
    for (Py_ssize_t r = 0; r < count; r++) {
        const int64_t *root = roots + 10 * r;
        int all = 1;
        for (int v = 0; v < 10 && all; v++) {
            all = hand[v] >= root[v];
        }
        if (all) {
            return 1;
        }
    }
    return 0;
}

/* hand_space's work on its arrays (taken or borrowed, checked here): the hands found in
 * *found; NULL, or the problem ("" with MemoryError set). */
static const char *
hand_space_core(const Buffer *b, Py_ssize_t *found)
{
    const Py_ssize_t u = length(&b[H_KEYS_IN]), count = length(&b[H_ROOTS]) / 10;
    const int64_t *universe = b[H_UNIVERSE].view.buf, *children_in = b[H_CHILDREN_IN].view.buf;
    const int64_t *keys_in = b[H_KEYS_IN].view.buf, *sizes_in = b[H_SIZES_IN].view.buf;
    const int64_t *limit = b[H_LIMIT].view.buf, *all_roots = b[H_ROOTS].view.buf;
    const char *problem = NULL;
    if (length(&b[H_UNIVERSE]) != 10 * u || length(&b[H_CHILDREN_IN]) != 10 * u ||
        length(&b[H_SIZES_IN]) != u || length(&b[H_LIMIT]) != 10 ||
        length(&b[H_ROOTS]) != 10 * count || length(&b[H_HANDS]) != 10 * u ||
        length(&b[H_KEYS]) != u || length(&b[H_CHILDREN]) != 10 * u ||
        length(&b[H_DRAWS]) != 10 * u || length(&b[H_SIZES]) != u ||
        length(&b[H_POSITION]) != u + 1) {
        problem = "the arrays' sizes do not match";
    } else if (!within(children_in, 10 * u, u + 1)) {
        problem = "an index is out of range";
    }
    if (problem) {
        return problem;
    }
    int64_t *hands = b[H_HANDS].view.buf, *keys = b[H_KEYS].view.buf;
    int64_t *children = b[H_CHILDREN].view.buf, *draws = b[H_DRAWS].view.buf;
    int64_t *sizes = b[H_SIZES].view.buf, *position = b[H_POSITION].view.buf;
    /* One-card roots as a mask of values; the others kept in order after them. */
    int single[10] = {0};
    Py_ssize_t larger = 0;
    int64_t *roots = PyMem_Malloc(8 * 10 * (count ? count : 1));
    if (!roots) {
        return (PyErr_NoMemory(), "");
    }
    for (Py_ssize_t r = 0; r < count; r++) {
        const int64_t *root = all_roots + 10 * r;
        int64_t cards = 0, value = 0;
        for (int v = 0; v < 10; v++) {
            cards += root[v];
            value = root[v] ? v : value;
        }
        if (cards == 1 && root[value] == 1) {
            single[value] = 1;
        } else {
            memcpy(roots + 10 * larger++, root, 8 * 10);
        }
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t h = 0; h < u; h++) {
        const int64_t *hand = universe + 10 * h;
        int fits = 1;
        for (int v = 0; v < 10 && fits; v++) {
            fits = hand[v] <= limit[v];
        }
        position[h] = -1;
        if (fits && holds_root(hand, single, roots, larger)) {
            position[h] = n;
            memcpy(hands + 10 * n, hand, 8 * 10);
            for (int v = 0; v < 10; v++) {
                draws[10 * n + v] = limit[v] - hand[v];
            }
            keys[n] = keys_in[h];
            sizes[n] = sizes_in[h];
            n++;
        }
    }
    for (Py_ssize_t h = 0; h < u; h++) {
        position[h] = position[h] < 0 ? n : position[h];
    }
    position[u] = n; /* a bust */
    for (Py_ssize_t h = 0, i = 0; h < u; h++) {
        if (position[h] < n) {
            for (int v = 0; v < 10; v++) {
                children[10 * i + v] = position[children_in[10 * h + v]];
            }
            i++;
        }
    }
    PyMem_Free(roots);
    *found = n;
    return NULL;
}

/*
 * hand_space(universe, children_in, keys_in, sizes_in, limit, roots,
 *            hands, keys, children, draws, sizes, position) -> n
 *
 * solver/exact/player_hands.py's hand_space after its checks: the hands of `universe`
 * (every composition, sorted by key, with its children there, the universe's size U for a
 * bust) that fit in `limit` and hold a root, in the universe's order: their counts, keys,
 * children (renumbered, n for a bust or a hand not chosen), the cards left once each is
 * out, and sizes.  The outputs have U rows, of which the first n are filled; position (U
 * + 1) gets each universe hand's place, n if not chosen.
 */
PyObject *
kernel_hand_space(PyObject *self, PyObject *args)
{
    static const Arg spec[N_SPACE] = {
        {"universe", 'q', 0},
        {"children_in", 'q', 0},
        {"keys_in", 'q', 0},
        {"sizes_in", 'q', 0},
        {"limit", 'q', 0},
        {"roots", 'q', 0},
        {"hands", 'q', 1},
        {"keys", 'q', 1},
        {"children", 'q', 1},
        {"draws", 'q', 1},
        {"sizes", 'q', 1},
        {"position", 'q', 1},
    };
    Buffer b[N_SPACE];
    (void)self;
    if (take_args(args, spec, N_SPACE, b, NULL) < 0) {
        return NULL;
    }
    Py_ssize_t n = 0;
    const char *problem = hand_space_core(b, &n);
    release(b, N_SPACE);
    if (problem) {
        if (*problem) {
            PyErr_SetString(PyExc_ValueError, problem);
        }
        return NULL;
    }
    return PyLong_FromSsize_t(n);
}

/*
 * rows(array, order)
 *
 * The rows order[0], order[1], ... of a two-dimensional float64 array as a tuple of
 * tuples of floats: tuple(map(tuple, array[order].tolist())) without the lists between.
 * The rows, holding floats only, are not tracked by the garbage collector.
 */
PyObject *
kernel_rows(PyObject *self, PyObject *args)
{
    static const Arg spec[2] = {
        {"array", 'd', 0},
        {"order", 'q', 0},
    };
    Buffer buffers[2];
    (void)self;
    if (take_args(args, spec, 2, buffers, NULL) < 0) {
        return NULL;
    }
    Py_ssize_t count, width, n = length(&buffers[1]);
    const int64_t *order = buffers[1].view.buf;
    if (!shape2(&buffers[0], &count, &width) || !within(order, n, count)) {
        return refuse(buffers, 2, "array must be two-dimensional, order its rows");
    }
    const double *values = buffers[0].view.buf;
    /* No collection while the rows are made: each would only find them untracked. */
    int collecting = PyGC_Disable();
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *row = PyTuple_New(width);
        if (!row) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, row);
        for (Py_ssize_t j = 0; j < width; j++) {
            PyObject *number = PyFloat_FromDouble(values[order[i] * width + j]);
            if (!number) {
                Py_CLEAR(out);
                break;
            }
            PyTuple_SET_ITEM(row, j, number);
        }
        if (out) {
            PyObject_GC_UnTrack(row); /* floats only: never in a cycle */
        }
    }
    if (collecting) {
        PyGC_Enable();
    }
    release(buffers, 2);
    return out;
}

enum {
    F_UNIVERSE, F_CHILDREN_IN, F_KEYS_IN, F_SIZES_IN, F_LIMIT, F_ROOTS, F_WAYS, F_FOLDS,
    F_TAKE, F_TABLE, F_LENGTHS, F_WIDE, F_STARTS, F_RESULTS, F_WIDTH, F_BEST, F_OWN_21,
    F_BEATS, F_LABELS, F_DEPTH, F_PARENTS, F_HELD, F_BOUNDS, F_GROUP, F_GROUP_SIZES,
    F_GROUPED, F_HANDS, F_KEYS, F_CHILDREN, F_DRAWS, F_SIZES, F_STAND, F_HIT, F_HITTING,
    F_PLAYED, N_FLOAT
};

/* What solve_float holds while it works: each shoe's size, the fewest of each value, the
 * counts less those, the groups' held counts shifted back, the distinct sizes and each
 * shoe's place among them, the falling factorials, the dealer's distributions, standing's
 * (win, push, lose) and every hand's value. */
typedef struct {
    int64_t *shoe_sizes, least[10], *shifted, *held, *distinct, *column, *position;
    double *falling, *dealer, *stand_vec, *value;
} Scratch;

static void
free_scratch(Scratch *k)
{
    void *all[] = {k->shoe_sizes, k->shifted, k->held,  k->distinct, k->column, k->position,
                   k->falling,    k->dealer,  k->stand_vec, k->value};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        PyMem_Free(all[i]);
    }
}

/* The shoes' sizes, the fewest of each value and the counts less them, for n > 0 shoes of
 * `draws`: NULL, or what is wrong with them. */
static const char *
shift_shoes(Scratch *k, const int64_t *draws, Py_ssize_t n, int64_t depth)
{
    int64_t most[10];
    for (int v = 0; v < 10; v++) {
        k->least[v] = most[v] = draws[v];
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        int64_t size = 0;
        for (int v = 0; v < 10; v++) {
            const int64_t count = draws[10 * s + v];
            size += count;
            k->least[v] = count < k->least[v] ? count : k->least[v];
            most[v] = count > most[v] ? count : most[v];
        }
        k->shoe_sizes[s] = size;
        if (size < depth) {
            return "a shoe is smaller than the dealer's deepest hand";
        }
    }
    for (int v = 0; v < 10; v++) {
        if (most[v] - k->least[v] >= MOST_SHIFTED || k->least[v] < 0) {
            return "the shoes' counts must differ by less than 2**15";
        }
    }
    for (Py_ssize_t s = 0; s < n && k->shifted; s++) {
        for (int v = 0; v < 10; v++) {
            k->shifted[10 * s + v] = draws[10 * s + v] - k->least[v];
        }
    }
    return NULL;
}

/* The dealer's distributions for the n shoes of the hand space (see solve_float): the
 * shoes grouped here unless `grouped` (then read from the group arrays, stride u). */
static const char *
price_shoes(Scratch *k, const Buffer *b, PyObject *folds, Py_ssize_t n, Py_ssize_t u,
            int64_t depth, Py_ssize_t outcomes, Py_ssize_t width, int grouped)
{
    const char *problem = shift_shoes(k, b[F_DRAWS].view.buf, n, depth);
    if (problem) {
        return problem;
    }
    const int64_t *parents = b[F_PARENTS].view.buf, *bounds = b[F_BOUNDS].view.buf;
    int64_t *held = b[F_HELD].view.buf, *sizes = b[F_GROUP_SIZES].view.buf;
    if (!grouped && shoe_groups_core(k->shifted, n, u, b[F_PARENTS].view.buf, held,
                                     b[F_BOUNDS].view.buf, b[F_GROUP].view.buf, sizes)) {
        return (PyErr_NoMemory(), "");
    }
    for (int f = 0; f < 10; f++) { /* the held counts, shifted back */
        if (sizes[2 * f] > n || sizes[2 * f + 1] > sizes[2 * f] || sizes[2 * f + 1] < 0 ||
            (f > 0 && !within(parents + f * u, sizes[2 * f], sizes[2 * f - 2]))) {
            return "the groups do not match the hand space";
        }
        for (int64_t i = 0; i < sizes[2 * f + 1]; i++) {
            k->held[f * u + i] = held[f * u + i] + k->least[9 - f];
        }
    }
    if (!within(b[F_GROUP].view.buf, n, sizes[18]) || !within(parents, sizes[0], 1)) {
        return "the groups do not match the hand space";
    }
    const Py_ssize_t count = distinct_sizes_core(k->shoe_sizes, n, k->distinct, k->column,
                                                 &problem);
    if (count < 0) {
        return problem ? problem : (PyErr_NoMemory(), "");
    }
    k->falling = PyMem_Malloc(8 * (size_t)((depth + 1) * count));
    if (!k->falling) {
        return (PyErr_NoMemory(), "");
    }
    /* falling[L, c] = N (N - 1) ... (N - L + 1) for N = distinct[c], one rounding a
     * factor, as numpy's cumulative product takes it */
    for (Py_ssize_t c = 0; c < count; c++) {
        k->falling[c] = 1.0;
        for (int64_t cards = 1; cards <= depth; cards++) {
            const double factor = (double)(k->distinct[c] - cards + 1);
            k->falling[cards * count + c] =
                cards == 1 ? factor : k->falling[(cards - 1) * count + c] * factor;
        }
    }
    Buffer tail[N_TAIL];
    borrow(&tail[T_OUT], k->dealer, n * outcomes, n, outcomes);
    borrow(&tail[T_FINAL], b[F_GROUP].view.buf, n, 0, 0);
    tail[T_LENGTHS] = b[F_LENGTHS];
    tail[T_WIDE] = b[F_WIDE];
    borrow(&tail[T_FALLING], k->falling, (depth + 1) * count, depth + 1, count);
    borrow(&tail[T_COLUMN], k->column, n, 0, 0);
    tail[T_STARTS] = b[F_STARTS];
    tail[T_RESULTS] = b[F_RESULTS];
    return dealer_float_grouped(&b[F_WAYS], folds, parents, k->held, bounds, u, sizes,
                                &b[F_TABLE], &b[F_TAKE], tail, width);
}

/* The player's hands of the space: their buffers for hand_space_core (position borrowed). */
static void
space_buffers(Buffer *space, const Buffer *b, int64_t *position, Py_ssize_t u)
{
    static const int from[N_SPACE - 1] = {F_UNIVERSE, F_CHILDREN_IN, F_KEYS_IN, F_SIZES_IN,
                                          F_LIMIT,    F_ROOTS,       F_HANDS,   F_KEYS,
                                          F_CHILDREN, F_DRAWS,       F_SIZES};
    for (int i = 0; i < N_SPACE - 1; i++) {
        space[i] = b[from[i]];
    }
    borrow(&space[H_POSITION], position, u + 1, 0, 0);
}

/* A hand space kept from an earlier call (`kept` hands in hands, keys, children and sizes,
 * as hand_space wrote them for a shoe of the same class): only the draws are this shoe's,
 * the limit less each hand.  NULL, or what is wrong (*n the hands). */
static const char *
kept_space(const Buffer *b, Py_ssize_t u, Py_ssize_t kept, Py_ssize_t *n)
{
    const int64_t *limit = b[F_LIMIT].view.buf, *hands = b[F_HANDS].view.buf;
    int64_t *draws = b[F_DRAWS].view.buf;
    if (kept > u || length(&b[F_LIMIT]) != 10 || length(&b[F_HANDS]) != 10 * u ||
        length(&b[F_DRAWS]) != 10 * u || length(&b[F_CHILDREN]) != 10 * u ||
        length(&b[F_SIZES]) != u) {
        return "a kept hand space must fit the universe's rows";
    }
    if (!within(b[F_CHILDREN].view.buf, 10 * kept, kept + 1)) {
        return "an index is out of range";
    }
    for (Py_ssize_t i = 0; i < 10 * kept; i++) {
        draws[i] = limit[i % 10] - hands[i];
        if (draws[i] < 0) {
            return "a kept hand does not fit in the shoe";
        }
    }
    *n = kept;
    return NULL;
}

/* solve_hands' buffers over the space's first n hands and the dealer's distributions. */
static void
solve_buffers(Buffer *solve, const Buffer *b, const Scratch *k, Py_ssize_t n,
              Py_ssize_t outcomes)
{
    borrow(&solve[S_DEALER], k->dealer, n * outcomes, n, outcomes);
    borrow(&solve[S_HANDS], b[F_HANDS].view.buf, 10 * n, 0, 0);
    borrow(&solve[S_CHILDREN], b[F_CHILDREN].view.buf, 10 * n, 0, 0);
    borrow(&solve[S_DRAWS], b[F_DRAWS].view.buf, 10 * n, 0, 0);
    borrow(&solve[S_SIZES], b[F_SIZES].view.buf, n, 0, 0);
    solve[S_BEST] = b[F_BEST];
    solve[S_OWN_21] = b[F_OWN_21];
    solve[S_BEATS] = b[F_BEATS];
    solve[S_LABELS] = b[F_LABELS];
    borrow(&solve[S_TOTAL], NULL, 0, 0, 0);
    borrow(&solve[S_STAND_VEC], k->stand_vec, 3 * n, 0, 0);
    borrow(&solve[S_STAND], b[F_STAND].view.buf, n, 0, 0);
    borrow(&solve[S_HIT], b[F_HIT].view.buf, n, 0, 0);
    borrow(&solve[S_HITTING], b[F_HITTING].view.buf, n, 0, 0);
    borrow(&solve[S_PLAYED], b[F_PLAYED].view.buf, 3 * (n + 1), 0, 0);
    borrow(&solve[S_VALUE], k->value, n + 1, 0, 0);
    for (int i = 0; i < N_SOLVE; i++) {
        solve[i].held = 0; /* the caller's, or scratch */
    }
}

/*
 * solve_float(universe, children_in, keys_in, sizes_in, limit, roots, ways, folds, take,
 *             table, lengths, wide, starts, results, width, best, own_21, beats, labels,
 *             depth, parents, held, bounds, group, group_sizes, grouped, hands, keys,
 *             children, draws, sizes, stand, hit, hitting, played) -> n
 *
 * A Bonus card's whole float solve in one call: hand_space (universe ... roots, into
 * hands ... sizes), then, for the n hands found, the dealer's distributions for their
 * shoes (solver/exact/dealer.py's dealer_probabilities: the shoes' summary and groups,
 * their distinct sizes and falling factorials, then dealer_float's fold and tail, with
 * ways, folds (for each value, tens first, the final hands' order, drawn, starts, widths
 * and size), take, table, lengths, wide, starts, results and width as it takes them; the
 * shoe groups as shoe_groups gives them for the counts less the fewest of each value, each
 * level a row of the universe's length, written here unless `grouped`, when they are read:
 * they depend on the hand space's hands only; `grouped` is then the number of hands of the
 * space kept from the call that wrote them, which hands ... sizes hold already: only the
 * draws are written, the limit less each hand), then
 * solve_hands (best ... labels, the shoe's total from limit) into stand, hit, hitting and
 * played (busted hand at n).  The outputs have the universe's rows (played one more).
 * Every shoe must hold the dealer's deepest hand (depth cards).  The same numbers as
 * those calls in turn, on either twin.
 */
PyObject *
kernel_solve_float(PyObject *self, PyObject *args)
{
    static const Arg spec[N_FLOAT] = {
        {"universe", 'q', 0}, {"children_in", 'q', 0}, {"keys_in", 'q', 0},
        {"sizes_in", 'q', 0}, {"limit", 'q', 0},       {"roots", 'q', 0},
        {"ways", 'd', 0},     {"folds", 'O', 0},       {"take", 'q', 0},
        {"table", 'd', 0},    {"lengths", 'q', 0},     {"wide", 'q', 0},
        {"starts", 'q', 0},   {"results", 'q', 0},     {"width", 'n', 0},
        {"best", 'q', 0},     {"own_21", 'q', 0},      {"beats", 'q', 0},
        {"labels", 'q', 0},   {"depth", 'n', 0},       {"parents", 'q', 1},
        {"held", 'q', 1},     {"bounds", 'q', 1},      {"group", 'q', 1},
        {"group_sizes", 'q', 1}, {"grouped", 'n', 0},  {"hands", 'q', 1},
        {"keys", 'q', 1},     {"children", 'q', 1},    {"draws", 'q', 1},
        {"sizes", 'q', 1},    {"stand", 'd', 1},       {"hit", 'd', 1},
        {"hitting", 'q', 1},  {"played", 'd', 1}};
    Buffer b[N_FLOAT];
    Scalar a[N_FLOAT];
    (void)self;
    if (take_args(args, spec, N_FLOAT, b, a) < 0) {
        return NULL;
    }
    const Py_ssize_t u = length(&b[F_KEYS_IN]), outcomes = length(&b[F_LABELS]);
    const int64_t depth = a[F_DEPTH].integer;
    Scratch k;
    memset(&k, 0, sizeof k);
    const char *problem = NULL;
    if (length(&b[F_STAND]) != u || length(&b[F_HIT]) != u || length(&b[F_HITTING]) != u ||
        length(&b[F_PLAYED]) != 3 * (u + 1) || length(&b[F_PARENTS]) != 10 * u ||
        length(&b[F_HELD]) != 10 * u || length(&b[F_BOUNDS]) != 10 * (u + 1) ||
        length(&b[F_GROUP]) != u || length(&b[F_GROUP_SIZES]) != 20 || depth < 0 ||
        depth > 64 || outcomes < 1) {
        problem = "the outputs must have the universe's rows, depth lie in [0, 64]";
    }
    k.position = PyMem_Malloc(8 * (size_t)(u + 1));
    Py_ssize_t n = 0;
    if (!problem && !k.position) {
        problem = (PyErr_NoMemory(), "");
    }
    if (!problem && a[F_GROUPED].integer > 0) {
        problem = kept_space(b, u, (Py_ssize_t)a[F_GROUPED].integer, &n);
    } else if (!problem) {
        Buffer space[N_SPACE];
        space_buffers(space, b, k.position, u);
        problem = hand_space_core(space, &n);
    }
    const int64_t *limit = b[F_LIMIT].view.buf;
    if (!problem && n > 0) {
        const size_t m = (size_t)n;
        k.shoe_sizes = PyMem_Malloc(8 * m);
        k.shifted = a[F_GROUPED].integer ? NULL : PyMem_Malloc(8 * 10 * m);
        k.held = PyMem_Malloc(8 * 10 * (size_t)u);
        k.distinct = PyMem_Malloc(8 * m);
        k.column = PyMem_Malloc(8 * m);
        k.dealer = PyMem_Malloc(8 * m * (size_t)outcomes);
        k.stand_vec = PyMem_Malloc(8 * 3 * m);
        k.value = PyMem_Malloc(8 * (m + 1));
        if (!k.shoe_sizes || (!k.shifted && !a[F_GROUPED].integer) || !k.held ||
            !k.distinct || !k.column || !k.dealer || !k.stand_vec || !k.value) {
            problem = (PyErr_NoMemory(), "");
        }
    }
    if (!problem && n > 0) {
        const Py_ssize_t width = (Py_ssize_t)a[F_WIDTH].integer;
        const int grouped = a[F_GROUPED].integer != 0;
        problem = price_shoes(&k, b, a[F_FOLDS].object, n, u, depth, outcomes, width, grouped);
    }
    if (!problem && n > 0) {
        int64_t total = 0;
        for (int v = 0; v < 10; v++) {
            total += limit[v];
        }
        Buffer solve[N_SOLVE];
        solve_buffers(solve, b, &k, n, outcomes);
        problem = solve_hands_core(solve, total);
    }
    free_scratch(&k);
    release(b, N_FLOAT);
    if (problem) {
        if (*problem) {
            PyErr_SetString(PyExc_ValueError, problem);
        }
        return NULL;
    }
    return PyLong_FromSsize_t(n);
}

enum {
    W_VALUES, W_HIT, W_REACH, W_ORDER, W_BOUNDS, W_HITS, W_DRAWS, W_CHILDREN, W_SIZES,
    W_STAND, W_LEFT, W_ROOTS, W_WEIGHTS, N_WALK
};

/* Check chart_walk's inputs against each other: NULL when they fit. */
static const char *
check_walk(const Buffer *b, Py_ssize_t n, Py_ssize_t levels, long long left)
{
    Py_ssize_t rows, columns;
    const int64_t *bounds = b[W_BOUNDS].view.buf, *sizes = b[W_SIZES].view.buf;
    const int64_t *hits = b[W_HITS].view.buf;
    if (length(&b[W_VALUES]) != n + 1 || length(&b[W_STAND]) != n ||
        length(&b[W_HITS]) != n || length(&b[W_ORDER]) != n ||
        (length(&b[W_HIT]) != 0 && length(&b[W_HIT]) != n) ||
        (length(&b[W_REACH]) != 0 && length(&b[W_REACH]) != n + 1)) {
        return "values and reach must hold one more entry than the hands (reach and hit "
               "may hold none), hit one per hand";
    }
    if (!shape2(&b[W_DRAWS], &rows, &columns) || rows != n || columns != 10 ||
        !shape2(&b[W_CHILDREN], &rows, &columns) || rows != n || columns != 10) {
        return "draws and children must be (hands, 10)";
    }
    if (levels < 0 || bounds[0] != 0 || bounds[levels] != n ||
        length(&b[W_ROOTS]) != length(&b[W_WEIGHTS])) {
        return "bounds must run from 0 to the hands, weights one per root";
    }
    for (Py_ssize_t k = 0; k < levels; k++) {
        if (bounds[k + 1] < bounds[k]) {
            return "bounds must not decrease";
        }
    }
    if (!within(b[W_ORDER].view.buf, n, n) || !within(b[W_CHILDREN].view.buf, 10 * n, n + 1) ||
        !within(b[W_ROOTS].view.buf, length(&b[W_ROOTS]), n)) {
        return "an index is out of range";
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (hits[i] && sizes[i] >= left) {
            return "a hand that hits must leave a card in the shoe";
        }
    }
    return NULL;
}

/* Hitting hand i once, its children valued by `values`: their sum in numpy's order along
 * the row (an accumulate from 0.0, a leading -0.0 made 0.0) over the cards left. */
static inline double
hit_once(const Buffer *b, int64_t i, const double *values, long long left)
{
    const int64_t *count = (const int64_t *)b[W_DRAWS].view.buf + 10 * i;
    const int64_t *kid = (const int64_t *)b[W_CHILDREN].view.buf + 10 * i;
    double sum = (double)count[0] * values[kid[0]] + 0.0;
    for (int v = 1; v < 10; v++) {
        sum += (double)count[v] * values[kid[v]];
    }
    return sum / (double)(left - ((const int64_t *)b[W_SIZES].view.buf)[i]);
}

/* The hands' values under the play: standing's where a hand stands, else hitting's from
 * its children (hard totals above its own, so valued before it), level by level; then,
 * when asked, every hand's value of hitting once (0 where no card is left to draw). */
static void
walk_values(const Buffer *b, Py_ssize_t n, Py_ssize_t levels, long long left)
{
    double *values = b[W_VALUES].view.buf;
    const double *stand = b[W_STAND].view.buf;
    const int64_t *order = b[W_ORDER].view.buf, *bounds = b[W_BOUNDS].view.buf;
    const int64_t *hits = b[W_HITS].view.buf, *sizes = b[W_SIZES].view.buf;
    values[n] = -1.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!hits[i]) {
            values[i] = stand[i];
        }
    }
    for (Py_ssize_t k = 0; k < levels; k++) {
        for (int64_t r = bounds[k]; r < bounds[k + 1]; r++) {
            const int64_t i = order[r];
            if (hits[i]) {
                values[i] = hit_once(b, i, values, left);
            }
        }
    }
    if (length(&b[W_HIT]) == n) {
        double *hit = b[W_HIT].view.buf;
        for (Py_ssize_t i = 0; i < n; i++) {
            hit[i] = sizes[i] < left ? hit_once(b, i, values, left) : 0.0;
        }
    }
}

/* Each hand's chance of being reached under the play from the roots, the lowest hard
 * totals first: each level's shares summed into `passed` (from 0.0, in the order of its
 * rows and their cards, as numpy's bincount adds them), then added to the reach; `listed`
 * names the entries a level touched (`marked`), so that only those are added and reset. */
static void
walk_reach(const Buffer *b, Py_ssize_t n, Py_ssize_t levels, long long left, double *passed,
           int64_t *listed, char *marked)
{
    double *reach = b[W_REACH].view.buf;
    const int64_t *order = b[W_ORDER].view.buf, *bounds = b[W_BOUNDS].view.buf;
    const int64_t *hits = b[W_HITS].view.buf, *draws = b[W_DRAWS].view.buf;
    const int64_t *children = b[W_CHILDREN].view.buf, *sizes = b[W_SIZES].view.buf;
    const int64_t *roots = b[W_ROOTS].view.buf;
    const double *weights = b[W_WEIGHTS].view.buf;
    for (Py_ssize_t i = 0; i <= n; i++) {
        reach[i] = passed[i] = 0.0;
        marked[i] = 0;
    }
    for (Py_ssize_t r = 0; r < length(&b[W_ROOTS]); r++) {
        reach[roots[r]] += weights[r];
    }
    for (Py_ssize_t k = levels - 1; k >= 0; k--) {
        Py_ssize_t count = 0;
        for (int64_t r = bounds[k]; r < bounds[k + 1]; r++) {
            const int64_t i = order[r];
            if (!hits[i]) {
                continue;
            }
            const double share = reach[i] / (double)(left - sizes[i]);
            for (int v = 0; v < 10; v++) {
                const int64_t kid = children[10 * i + v];
                if (!marked[kid]) {
                    marked[kid] = 1;
                    listed[count++] = kid;
                }
                passed[kid] += (double)draws[10 * i + v] * share;
            }
        }
        for (Py_ssize_t t = 0; t < count; t++) {
            const int64_t kid = listed[t];
            reach[kid] += passed[kid];
            passed[kid] = 0.0;
            marked[kid] = 0;
        }
    }
}

/*
 * chart_walk(values, hit, reach, order, bounds, hits, draws, children, sizes, stand,
 *            left, roots, weights)
 *
 * A fixed play over a hand space (solver/exact/protection.py's walk_values, and
 * solver/exact/dealt_shoes.py's _reach): hits[i] whether hand i draws (each such hand
 * leaves a card: sizes[i] < left, the cards in the shoe); the hands by level, order[
 * bounds[k]:bounds[k + 1]] the hands of the k-th highest hard total.  values[i] is
 * stand[i] where the hand stands, else sum_v draws[i, v] * values[children[i, v]] /
 * (left - sizes[i]) (the terms added one after another from 0.0), and values[n] = -1 (a
 * bust).  When hit holds n entries (none: left alone), hit[i] is hand i's value of
 * hitting once under the play, the same sum (0 where sizes[i] >= left).  When reach
 * holds n + 1 entries (none: left alone), reach[i] is the chance of
 * reaching hand i from the roots (root r reached with weights[r]), the bust last.  Every
 * sum adds in the numpy twin's order, so the floats are its bits.
 */
PyObject *
kernel_chart_walk(PyObject *self, PyObject *args)
{
    static const Arg spec[N_WALK] = {
        {"values", 'd', 1}, {"hit", 'd', 1},   {"reach", 'd', 1},    {"order", 'q', 0},
        {"bounds", 'q', 0}, {"hits", 'q', 0},  {"draws", 'q', 0},    {"children", 'q', 0},
        {"sizes", 'q', 0},  {"stand", 'd', 0}, {"left", 'n', 0},     {"roots", 'q', 0},
        {"weights", 'd', 0},
    };
    Buffer b[N_WALK];
    Scalar scalars[N_WALK];
    (void)self;
    if (take_args(args, spec, N_WALK, b, scalars) < 0) {
        return NULL;
    }
    const Py_ssize_t n = length(&b[W_SIZES]), levels = length(&b[W_BOUNDS]) - 1;
    const long long left = scalars[W_LEFT].integer;
    const char *problem = check_walk(b, n, levels, left);
    if (problem) {
        return refuse(b, N_WALK, problem);
    }
    double *passed = NULL;
    int64_t *listed = NULL;
    char *marked = NULL;
    const int reached = length(&b[W_REACH]) == n + 1;
    if (reached) {
        passed = PyMem_Malloc(8 * (size_t)(n + 1));
        listed = PyMem_Malloc(8 * (size_t)(n + 1));
        marked = PyMem_Malloc((size_t)(n + 1));
        if (!passed || !listed || !marked) {
            PyMem_Free(passed);
            PyMem_Free(listed);
            PyMem_Free(marked);
            release(b, N_WALK);
            return PyErr_NoMemory();
        }
    }
    Py_BEGIN_ALLOW_THREADS;
    walk_values(b, n, levels, left);
    if (reached) {
        walk_reach(b, n, levels, left, passed, listed, marked);
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(passed);
    PyMem_Free(listed);
    PyMem_Free(marked);
    release(b, N_WALK);
    Py_RETURN_NONE;
}
