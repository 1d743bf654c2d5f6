/*
 * The dealer's fold (solver/exact/dealer.py, _fold), every card value's step, in floats or
 * in integers modulo a prime below 2**29; and dealer_float, the fold in floats with the rest
 * of the dealer's distributions taken from each last row as it is made.  Every output entry
 * of the fold adds its products in the order numpy's loop adds them (rank 0 first, then
 * rank 1, ...), each product rounded once, so with -ffp-contract=off (no fused multiply-add)
 * the float results are the same bits as the numpy twin's (solver/exact/_numpy.py).
 */
#include "_native.h"

/* One card value's step of the fold: the arrays of solver/exact/dealer.py's Fold and the
 * shoe groups' parents, held and bounds for that value. */
enum { ORDER, DRAWN, STARTS, WIDTHS, PARENT, HELD, BOUNDS, N_STEP };

typedef struct {
    Buffer arrays[N_STEP];
    Py_ssize_t size, columns, ranks, blocks, groups_in, groups_out;
} Step;

static const int64_t *
ints(const Step *step, int which)
{
    return step->arrays[which].view.buf;
}

/* Take step `item` (order, drawn, starts, widths, parent, held, bounds, size): its arrays
 * and size, checked later by check_step; NULL on success. */
static const char *
take_step(PyObject *item, Step *step)
{
    static const char *names[N_STEP] = {"order",  "drawn", "starts", "widths",
                                        "parent", "held",  "bounds"};
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != N_STEP + 1) {
        return "each step is a tuple (order, drawn, starts, widths, parent, held, bounds, size)";
    }
    for (int i = 0; i < N_STEP; i++) {
        if (take_buffer(PyTuple_GET_ITEM(item, i), &step->arrays[i], 0, 'q', names[i]) < 0) {
            return "";
        }
    }
    step->size = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, N_STEP));
    if (step->size == -1 && PyErr_Occurred()) {
        return "";
    }
    return NULL;
}

/* Check a step against the stage before (groups_in groups of `columns` hands) and the
 * table; NULL when it fits. */
static const char *
check_step(Step *step, Py_ssize_t groups_in, Py_ssize_t columns, Py_ssize_t table_rows,
           Py_ssize_t table_columns)
{
    const int64_t *order = ints(step, ORDER), *drawn = ints(step, DRAWN);
    const int64_t *starts = ints(step, STARTS), *widths = ints(step, WIDTHS);
    const int64_t *parent = ints(step, PARENT), *held = ints(step, HELD);
    const int64_t *bounds = ints(step, BOUNDS);
    step->columns = columns;
    step->groups_in = groups_in;
    step->ranks = length(&step->arrays[STARTS]);
    step->blocks = length(&step->arrays[BOUNDS]) - 1;
    step->groups_out = length(&step->arrays[PARENT]);
    Py_ssize_t ranks = step->ranks, blocks = step->blocks;
    if (length(&step->arrays[ORDER]) != columns || length(&step->arrays[DRAWN]) != columns ||
        length(&step->arrays[WIDTHS]) != ranks) {
        return "order, drawn, starts and widths do not match the hands";
    }
    if (ranks == 0 ? columns != 0 || step->size != 0 : widths[0] != step->size) {
        return "the first rank must hold one hand of each target";
    }
    if (blocks < 0 || length(&step->arrays[HELD]) != blocks || bounds[0] != 0 ||
        bounds[blocks] != step->groups_out) {
        return "held and bounds do not match parent";
    }
    if (!within(order, columns, columns) || !within(drawn, columns, table_rows) ||
        !within(parent, step->groups_out, groups_in) || !within(held, blocks, table_columns)) {
        return "an index is out of range";
    }
    for (Py_ssize_t k = 0; k < ranks; k++) {
        if (starts[k] < 0 || widths[k] < 0 || widths[k] > step->size ||
            starts[k] + widths[k] > columns) {
            return "a rank runs past the hands";
        }
    }
    for (Py_ssize_t b = 0; b < blocks; b++) {
        if (bounds[b + 1] < bounds[b]) {
            return "bounds must not decrease";
        }
    }
    return NULL;
}

/* One output group's row of a float step: o[t] = sum over ranks k <= kept of in[s_k + t] *
 * f[s_k + t] (in: the parent's row in the step's order; f: the group's block's factors
 * table[drawn, held]), added rank after rank as numpy adds them. */
static void
row_float(const Step *step, Py_ssize_t kept, const double *restrict in,
          const double *restrict f, double *restrict o)
{
    const int64_t *starts = ints(step, STARTS), *widths = ints(step, WIDTHS);
    const Py_ssize_t size = step->size;
    /* Ranks 0 and 1 in one pass: each product rounded, then their sum, as numpy does. */
    const Py_ssize_t both = kept >= 1 ? (Py_ssize_t)widths[1] : 0;
    const double *restrict in_1 = in + (kept >= 1 ? starts[1] : 0);
    const double *restrict f_1 = f + (kept >= 1 ? starts[1] : 0);
    for (Py_ssize_t t = 0; t < both; t++) {
        o[t] = in[t] * f[t] + in_1[t] * f_1[t];
    }
    for (Py_ssize_t t = both; t < size; t++) {
        o[t] = in[t] * f[t];
    }
    for (Py_ssize_t k = 2; k <= kept; k++) {
        const double *restrict in_k = in + starts[k];
        const double *restrict f_k = f + starts[k];
        const Py_ssize_t w = (Py_ssize_t)widths[k];
        for (Py_ssize_t t = 0; t < w; t++) {
            o[t] += in_k[t] * f_k[t];
        }
    }
}

/* row_float modulo a prime below 2**29.  Residues below 2**29 make each product below
 * 2**58, and at most 32 of them add up below 2**63; unsigned, so that wrong inputs give
 * wrong residues, never undefined behaviour.  The factors and the parent's row come as
 * 32-bit residues: a product of two is one widening multiply, which the compiler
 * vectorises (64 by 64 bits it builds from three). */
static void
row_modulo(const Step *step, Py_ssize_t kept, const uint32_t *restrict in,
           const uint32_t *restrict f, uint64_t *restrict o, int64_t prime, double reciprocal)
{
    const int64_t *starts = ints(step, STARTS), *widths = ints(step, WIDTHS);
    const Py_ssize_t size = step->size;
    /* Ranks 0 and 1 in one pass (the sum is exact: the order of integer terms is free). */
    const Py_ssize_t both = kept >= 1 ? (Py_ssize_t)widths[1] : 0;
    const uint32_t *restrict in_1 = in + (kept >= 1 ? starts[1] : 0);
    const uint32_t *restrict f_1 = f + (kept >= 1 ? starts[1] : 0);
    for (Py_ssize_t t = 0; t < both; t++) {
        o[t] = (uint64_t)in[t] * f[t] + (uint64_t)in_1[t] * f_1[t];
    }
    for (Py_ssize_t t = both; t < size; t++) {
        o[t] = (uint64_t)in[t] * f[t];
    }
    for (Py_ssize_t k = 2; k <= kept; k++) {
        const uint32_t *restrict in_k = in + starts[k];
        const uint32_t *restrict f_k = f + starts[k];
        const Py_ssize_t w = (Py_ssize_t)widths[k];
        for (Py_ssize_t t = 0; t < w; t++) {
            o[t] += (uint64_t)in_k[t] * f_k[t];
        }
    }
    /* The quotient from a reciprocal rounded low by 2**-40 is never too large and (the
     * sums' quotients being below 2**34) at most one too small: one correction. */
    const double low = reciprocal * (1.0 - 0x1p-40);
    const uint64_t p = (uint64_t)prime;
    for (Py_ssize_t t = 0; t < size; t++) {
        const uint64_t x = o[t] & INT64_MAX;
        const uint64_t r = x - (uint64_t)(int64_t)((double)(int64_t)x * low) * p;
        o[t] = r >= p ? r - p : r;
    }
}

/* What the walk over the shoe groups keeps for one step: its output groups sorted by
 * parent (children[first_child[p]] up to children[first_child[p + 1]] come from input
 * group p), each output group's block of bounds, each block's factors (`columns` apart),
 * and the rows in flight (the parent's row in the step's order, one output row).  The
 * factors and the ordered row are doubles for floats, 32-bit residues modulo a prime. */
typedef struct {
    Py_ssize_t *first_child, *children, *block;
    char *factors, *ordered, *row;
} Level;

/* The dealer's tail, priced shoe by shoe from the fold's last rows (see dealer_float). */
typedef struct Tail Tail;
static void tail_group(const Tail *tail, Py_ssize_t group, const double *sums);

typedef struct {
    const Step *steps;
    const Level *levels;
    Py_ssize_t count, finals;
    const int64_t *take;
    char *result;
    int64_t prime;
    double reciprocal;
    const Tail *tail; /* NULL: the last rows go to result; else to the tail, via taken */
    double *taken;
} Walk;

/* The ranks an output group of `block` adds: those its held count of the value can fill
 * (the others' products are exact zeros, left out as on numpy). */
static Py_ssize_t
kept_ranks(const Step *step, Py_ssize_t block)
{
    const int64_t held = ints(step, HELD)[block];
    return held < step->ranks - 1 ? (Py_ssize_t)held : step->ranks - 1;
}

/* Fill a level's tables for step `step` (from groups_in groups); 0, or -1 out of memory. */
static int
prepare_level(Level *level, const Step *step, const char *table, Py_ssize_t table_columns,
              int64_t prime)
{
    const Py_ssize_t columns = step->columns, groups = step->groups_out;
    const int64_t *parent = ints(step, PARENT), *bounds = ints(step, BOUNDS);
    const int64_t *drawn = ints(step, DRAWN), *held = ints(step, HELD);
    level->first_child = PyMem_Calloc(step->groups_in + 1, sizeof(Py_ssize_t));
    level->children = PyMem_Malloc(sizeof(Py_ssize_t) * (groups ? groups : 1));
    level->block = PyMem_Malloc(sizeof(Py_ssize_t) * (groups ? groups : 1));
    Py_ssize_t factor_count = step->blocks * columns;
    level->factors = PyMem_Malloc(8 * (size_t)(factor_count > 0 ? factor_count : 1));
    level->ordered = PyMem_Malloc(8 * (columns ? columns : 1));
    level->row = PyMem_Malloc(8 * (step->size ? step->size : 1));
    if (!level->first_child || !level->children || !level->block || !level->factors ||
        !level->ordered || !level->row) {
        return -1;
    }
    for (Py_ssize_t g = 0; g < groups; g++) {
        level->first_child[parent[g] + 1]++;
    }
    for (Py_ssize_t p = 0; p < step->groups_in; p++) {
        level->first_child[p + 1] += level->first_child[p];
    }
    Py_ssize_t *placed = PyMem_Malloc(sizeof(Py_ssize_t) * (step->groups_in + 1));
    if (!placed) {
        return -1;
    }
    memcpy(placed, level->first_child, sizeof(Py_ssize_t) * (step->groups_in + 1));
    for (Py_ssize_t g = 0; g < groups; g++) {
        level->children[placed[parent[g]]++] = g;
    }
    PyMem_Free(placed);
    const double reciprocal = prime ? 1.0 / (double)prime : 0.0;
    for (Py_ssize_t b = 0; b < step->blocks; b++) {
        for (int64_t g = bounds[b]; g < bounds[b + 1]; g++) {
            level->block[g] = b;
        }
        for (Py_ssize_t j = 0; j < columns; j++) {
            Py_ssize_t at = drawn[j] * table_columns + held[b];
            if (prime == 0) {
                ((double *)level->factors)[b * columns + j] = ((const double *)table)[at];
            } else {
                ((uint32_t *)level->factors)[b * columns + j] =
                    (uint32_t)reduce(((const int64_t *)table)[at], prime, reciprocal);
            }
        }
    }
    return 0;
}

static void
free_level(Level *level)
{
    PyMem_Free(level->first_child);
    PyMem_Free(level->children);
    PyMem_Free(level->block);
    PyMem_Free(level->factors);
    PyMem_Free(level->ordered);
    PyMem_Free(level->row);
}

/* Step i for the children of input group `group`, whose row (8-byte items) is `in`, then
 * each child's descendants, depth first: a group's rows stay in cache through every step
 * below it, where a step at a time passed each stage through memory whole.  The last
 * step's rows go to the result, columns take[0..finals). */
static void
walk(const Walk *w, Py_ssize_t i, Py_ssize_t group, const char *in)
{
    const Step *step = &w->steps[i];
    const Level *level = &w->levels[i];
    const int64_t *order = ints(step, ORDER);
    const Py_ssize_t columns = step->columns;
    const uint64_t *from = (const uint64_t *)in;
    if (w->prime == 0) {
        uint64_t *ordered = (uint64_t *)level->ordered;
        for (Py_ssize_t j = 0; j < columns; j++) {
            ordered[j] = from[order[j]]; /* the float's bits moved as they are */
        }
    } else {
        uint32_t *ordered = (uint32_t *)level->ordered;
        for (Py_ssize_t j = 0; j < columns; j++) {
            ordered[j] = (uint32_t)from[order[j]]; /* a residue below 2**29 */
        }
    }
    for (Py_ssize_t c = level->first_child[group]; c < level->first_child[group + 1]; c++) {
        const Py_ssize_t g = level->children[c], b = level->block[g];
        const Py_ssize_t kept = kept_ranks(step, b);
        if (w->prime == 0) {
            const double *f = (const double *)level->factors + b * columns;
            row_float(step, kept, (const double *)level->ordered, f, (double *)level->row);
        } else {
            const uint32_t *f = (const uint32_t *)level->factors + b * columns;
            row_modulo(step, kept, (const uint32_t *)level->ordered, f, (uint64_t *)level->row,
                       w->prime, w->reciprocal);
        }
        if (i + 1 < w->count) {
            walk(w, i + 1, g, level->row);
        } else {
            const uint64_t *last = (const uint64_t *)level->row;
            uint64_t *into = w->tail ? (uint64_t *)w->taken
                                     : (uint64_t *)w->result + g * w->finals;
            for (Py_ssize_t k = 0; k < w->finals; k++) {
                into[k] = last[w->take[k]];
            }
            if (w->tail) {
                tail_group(w->tail, g, w->taken); /* while the row is in cache */
            }
        }
    }
}

/*
 * fold(out, ways, steps, table, final, prime)
 *
 * The dealer's whole fold (solver/exact/dealer.py, _fold): starting from one group
 * holding `ways`, each step of `steps` (tens first) multiplies every hand by
 * table[drawn, held] and adds the hands that merge (see row_float); then out[g, i] =
 * the last stage's column final[i] of group g.  prime == 0: float64 arrays; else int64
 * residues below prime (< 2**29), every sum reduced modulo prime.  The groups are walked
 * depth first (see walk); every entry is the same sum, in the same order, as a stage at
 * a time would give.
 */
static const char *tail_ready(Tail *tail, Py_ssize_t groups, Py_ssize_t pairs);

/* The fold over `count` steps taken (not yet checked), its rows going to out (groups x
 * finals), or (floats, out NULL) to `tail`, made ready here for the fold's groups (see
 * dealer_float); NULL, or the problem ("" with an exception set). */
static const char *
fold_steps(Step *steps, Py_ssize_t count, Buffer *out, const Buffer *ways,
           const Buffer *table, const Buffer *final, long long prime, Tail *tail)
{
    if (prime < 0 || prime >= (1LL << 29) || (tail && prime)) {
        return "prime must be 0 (floats) or below 2**29";
    }
    Py_ssize_t table_rows = table->view.ndim == 2 ? table->view.shape[0] : 0;
    Py_ssize_t table_columns = table_rows ? table->view.shape[1] : 0;
    if (table_rows * table_columns != length(table)) {
        return "table must be two-dimensional";
    }
    if (prime > 0 && (!within(table->view.buf, length(table), prime) ||
                      !within(ways->view.buf, length(ways), prime))) {
        return "table and ways must hold residues modulo prime";
    }
    Level *levels = PyMem_Calloc(count ? count : 1, sizeof(Level));
    double *taken = NULL;
    const char *problem = levels ? NULL : (PyErr_NoMemory(), "");
    Py_ssize_t groups = 1, columns = length(ways), ready = 0;
    for (; !problem && ready < count; ready++) {
        Step *step = &steps[ready];
        problem = check_step(step, groups, columns, table_rows, table_columns);
        if (!problem && prime > 0 && step->ranks > 32) {
            problem = "at most 32 ranks modulo a prime";
        }
        if (!problem &&
            prepare_level(&levels[ready], step, table->view.buf, table_columns, prime) < 0) {
            problem = (PyErr_NoMemory(), "");
        }
        groups = step->groups_out;
        columns = step->size;
    }
    Py_ssize_t finals = length(final);
    if (!problem && (!within(final->view.buf, finals, columns) ||
                     (!tail && length(out) != groups * finals))) {
        problem = "out must be (groups, len(final)), final columns of the last stage";
    }
    if (!problem && tail) {
        taken = PyMem_Malloc(8 * (finals ? finals : 1));
        problem = taken ? tail_ready(tail, groups, finals) : (PyErr_NoMemory(), "");
    }
    if (!problem) {
        Walk w = {steps,  levels, count, finals, final->view.buf, tail ? NULL : out->view.buf,
                  prime,  prime ? 1.0 / (double)prime : 0.0,    tail, taken};
        Py_BEGIN_ALLOW_THREADS;
        if (count > 0) {
            walk(&w, 0, 0, ways->view.buf);
        } else {
            const uint64_t *only = ways->view.buf;
            uint64_t *into = tail ? (uint64_t *)taken : (uint64_t *)w.result;
            for (Py_ssize_t k = 0; k < finals; k++) {
                into[k] = only[w.take[k]];
            }
            if (tail) {
                tail_group(tail, 0, taken);
            }
        }
        Py_END_ALLOW_THREADS;
    }
    for (Py_ssize_t i = 0; i < ready && levels; i++) {
        free_level(&levels[i]);
    }
    PyMem_Free(levels);
    PyMem_Free(taken);
    return problem;
}

/* fold's work from its Python arguments (see fold_steps). */
static PyObject *
run_fold(PyObject *out_object, PyObject *ways_object, PyObject *steps_object,
         PyObject *table_object, PyObject *final_object, long long prime, Tail *tail)
{
    char number = prime == 0 ? 'd' : 'q';
    Buffer held_buffers[4];
    memset(held_buffers, 0, sizeof held_buffers);
    Buffer *out = &held_buffers[0], *ways = &held_buffers[1], *table = &held_buffers[2];
    Buffer *final = &held_buffers[3];
    PyObject *sequence = NULL;
    Step *steps = NULL;
    Py_ssize_t count = 0;
    const char *problem = NULL;
    if ((!tail && take_buffer(out_object, out, 1, number, "out") < 0) ||
        take_buffer(ways_object, ways, 0, number, "ways") < 0 ||
        take_buffer(table_object, table, 0, number, "table") < 0 ||
        take_buffer(final_object, final, 0, 'q', "final") < 0) {
        goto done;
    }
    sequence = PySequence_Fast(steps_object, "steps must be a sequence");
    if (!sequence) {
        goto done;
    }
    count = PySequence_Fast_GET_SIZE(sequence);
    if (count > 64) {
        problem = "at most 64 steps";
        count = 0;
        goto done;
    }
    steps = PyMem_Calloc(count ? count : 1, sizeof(Step));
    if (!steps) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count && !problem; i++) {
        problem = take_step(PySequence_Fast_GET_ITEM(sequence, i), &steps[i]);
    }
    if (!problem) {
        problem = fold_steps(steps, count, out, ways, table, final, prime, tail);
    }
done:
    if (problem && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, problem);
    }
    for (Py_ssize_t i = 0; i < count && steps; i++) {
        release(steps[i].arrays, N_STEP);
    }
    PyMem_Free(steps);
    Py_XDECREF(sequence);
    release(held_buffers, 4);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

PyObject *
kernel_fold(PyObject *self, PyObject *args)
{
    enum { OUT, WAYS, STEPS, TABLE, FINAL, PRIME, N_FOLD };
    static const Arg spec[N_FOLD] = {{"out", 'O', 1},   {"ways", 'O', 0},  {"steps", 'O', 0},
                                     {"table", 'O', 0}, {"final", 'O', 0}, {"prime", 'n', 0}};
    Buffer none[N_FOLD];
    Scalar a[N_FOLD];
    (void)self;
    if (take_args(args, spec, N_FOLD, none, a) < 0) {
        return NULL;
    }
    return run_fold(a[OUT].object, a[WAYS].object, a[STEPS].object, a[TABLE].object,
                    a[FINAL].object, a[PRIME].integer, NULL);
}


/* The rest of dealer_probabilities after the fold (see dealer_float): its arrays, each
 * shoe size's divisors (sizes x pairs), a row of chances and one of `width` pairs (those no
 * shoe reaches left 0), and the shoes of each final group, members[first[g]..first[g+1]). */
struct Tail {
    Buffer buffers[N_TAIL];
    Py_ssize_t shoes, outcomes, pairs, width, segments, sizes, falling_rows;
    int direct;
    double *divisors, *chances, *row;
    Py_ssize_t *first, *members;
};

static const char *check_tail(Tail *t, Py_ssize_t width);

/* Take the tail's arrays and check those that do not depend on the fold; -1 on error. */
static int
take_tail(PyObject **objects, Py_ssize_t width, Tail *t)
{
    static const char *names[N_TAIL] = {"out",     "final",  "lengths", "wide",
                                        "falling", "column", "starts",  "results"};
    static const char kinds[N_TAIL] = {'d', 'q', 'q', 'q', 'd', 'q', 'q', 'q'};
    memset(t, 0, sizeof *t);
    for (int i = 0; i < N_TAIL; i++) {
        if (take_buffer(objects[i], &t->buffers[i], i == T_OUT, kinds[i], names[i]) < 0) {
            return -1;
        }
    }
    const char *problem = check_tail(t, width);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return -1;
    }
    return 0;
}

/* Check the tail's arrays (taken or borrowed) against each other; NULL when they fit. */
static const char *
check_tail(Tail *t, Py_ssize_t width)
{
    const Buffer *b = t->buffers;
    t->width = width;
    t->pairs = length(&b[T_LENGTHS]);
    t->segments = length(&b[T_STARTS]);
    const int64_t *lengths = b[T_LENGTHS].view.buf, *wide = b[T_WIDE].view.buf;
    const int64_t *column = b[T_COLUMN].view.buf, *starts = b[T_STARTS].view.buf;
    const int64_t *results = b[T_RESULTS].view.buf;
    const char *problem = NULL;
    if (!shape2(&b[T_OUT], &t->shoes, &t->outcomes) ||
        !shape2(&b[T_FALLING], &t->falling_rows, &t->sizes)) {
        problem = "out and falling must be two-dimensional";
    } else if (t->outcomes < 1 || length(&b[T_FINAL]) != t->shoes ||
               length(&b[T_COLUMN]) != t->shoes || length(&b[T_WIDE]) != t->pairs ||
               length(&b[T_RESULTS]) != t->segments || width < t->pairs ||
               (t->segments == 0) != (width == 0)) {
        problem = "the arrays' sizes do not match";
    } else if (!within(column, t->shoes, t->sizes) ||
               !within(lengths, t->pairs, t->falling_rows) || !within(wide, t->pairs, width) ||
               !within(starts, t->segments, width) ||
               !within(results, t->segments, t->outcomes)) {
        problem = "an index is out of range";
    } else if (t->segments > 0 && starts[0] != 0) {
        problem = "the first result must start at pair 0";
    } else {
        for (Py_ssize_t r = 0; r + 1 < t->segments; r++) {
            if (starts[r + 1] <= starts[r]) {
                problem = "starts must increase";
            }
        }
    }
    return problem;
}

/* Check the tail against the fold's last stage (`groups` groups of `pairs` columns) and
 * fill its tables; NULL when ready ("" with MemoryError set). */
static const char *
tail_ready(Tail *t, Py_ssize_t groups, Py_ssize_t pairs)
{
    const int64_t *final = t->buffers[T_FINAL].view.buf;
    const int64_t *lengths = t->buffers[T_LENGTHS].view.buf;
    const int64_t *wide = t->buffers[T_WIDE].view.buf;
    const double *falling = t->buffers[T_FALLING].view.buf;
    if (pairs != t->pairs) {
        return "the fold's columns do not match the pairs";
    }
    if (!within(final, t->shoes, groups)) {
        return "an index is out of range";
    }
    const Py_ssize_t sizes = t->sizes;
    t->divisors = PyMem_Malloc(8 * (sizes * pairs + pairs + t->width + 1));
    t->first = PyMem_Calloc(groups + 2, sizeof(Py_ssize_t));
    t->members = PyMem_Malloc(sizeof(Py_ssize_t) * (t->shoes ? t->shoes : 1));
    if (!t->divisors || !t->first || !t->members) {
        PyErr_NoMemory();
        return "";
    }
    t->chances = t->divisors + sizes * pairs;
    t->row = t->chances + pairs;
    for (Py_ssize_t w = 0; w < t->width; w++) {
        t->row[w] = 0.0;
    }
    for (Py_ssize_t c = 0; c < sizes; c++) {
        for (Py_ssize_t j = 0; j < pairs; j++) {
            t->divisors[c * pairs + j] = falling[lengths[j] * sizes + c];
        }
    }
    t->direct = t->width == pairs;
    for (Py_ssize_t j = 0; j < pairs && t->direct; j++) {
        t->direct = wide[j] == j;
    }
    /* The shoes of each group, in order (counted). */
    for (Py_ssize_t s = 0; s < t->shoes; s++) {
        t->first[final[s] + 2]++;
    }
    for (Py_ssize_t g = 0; g < groups; g++) {
        t->first[g + 2] += t->first[g + 1];
    }
    for (Py_ssize_t s = 0; s < t->shoes; s++) {
        t->members[t->first[final[s] + 1]++] = s;
    }
    return NULL;
}

static void
free_tail(Tail *t)
{
    release(t->buffers, N_TAIL);
    PyMem_Free(t->divisors);
    PyMem_Free(t->first);
    PyMem_Free(t->members);
}

/* Shoe s's distribution from its group's sums by (result, length) pair (see dealer_float). */
static void
tail_shoe(const Tail *t, Py_ssize_t s, const double *restrict sums)
{
    const int64_t *column = t->buffers[T_COLUMN].view.buf;
    const int64_t *wide = t->buffers[T_WIDE].view.buf, *starts = t->buffers[T_STARTS].view.buf;
    const int64_t *results = t->buffers[T_RESULTS].view.buf;
    const Py_ssize_t pairs = t->pairs, outcomes = t->outcomes, width = t->width;
    double *row = t->row;
    const double *restrict divisor = t->divisors + column[s] * pairs;
    double *restrict quotient = t->direct ? row : t->chances;
    for (Py_ssize_t j = 0; j < pairs; j++) {
        quotient[j] = sums[j] / divisor[j];
    }
    for (Py_ssize_t j = 0; j < pairs && !t->direct; j++) {
        row[wide[j]] = t->chances[j];
    }
    double *o = (double *)t->buffers[T_OUT].view.buf + s * outcomes;
    for (Py_ssize_t k = 0; k < outcomes; k++) {
        o[k] = 0.0;
    }
    for (Py_ssize_t r = 0; r < t->segments; r++) {
        Py_ssize_t start = starts[r], stop = r + 1 < t->segments ? starts[r + 1] : width;
        double total = row[start];
        if (stop - start > 1) {
            total += pairwise(row + start + 1, stop - start - 1, 1);
        }
        o[results[r]] = 0.0 + total;
    }
    double rest = 0.0;
    if (t->shoes == 1) {
        /* One shoe: numpy sums the lone column as a row, pairwise. */
        rest = pairwise(o + 1, outcomes - 1, 1);
    } else {
        for (Py_ssize_t k = 1; k < outcomes; k++) {
            rest = k == 1 ? o[1] : rest + o[k];
        }
    }
    o[0] = 1.0 - rest;
}

static void
tail_group(const Tail *t, Py_ssize_t group, const double *sums)
{
    for (Py_ssize_t m = t->first[group]; m < t->first[group + 1]; m++) {
        tail_shoe(t, t->members[m], sums);
    }
}

/*
 * dealer_float(ways, steps, table, take, out, final, lengths, wide, falling, column,
 *              starts, results, width)
 *
 * solver/exact/dealer.py's dealer_probabilities in floats: the fold (see fold; ways, steps,
 * table and take as its ways, steps, table and final), each last row handed straight, while
 * in cache, to the shoes of its group (final[s] is shoe s's group): shoe s's chance of
 * (result, length) pair j is the row's column j / falling[lengths[j], column[s]], placed at
 * wide[j] of `width` pairs (the others 0); the pairs of a result, starts[r] up to
 * starts[r + 1], add up as numpy's reduceat adds them (the first, then the pairwise sum
 * of the rest) into out[s, results[r]]; then out[s, 0] = 1 less the rest, added one after
 * another as numpy sums down a column (pairwise, as numpy sums a row, when there is one
 * shoe: its iterator then sees one row).
 */
PyObject *
kernel_dealer_float(PyObject *self, PyObject *args)
{
    enum { WAYS, STEPS, TABLE, TAKE, TAIL, WIDTH = TAIL + N_TAIL, N_FLOAT };
    static const Arg spec[N_FLOAT] = {
        {"ways", 'O', 0},  {"steps", 'O', 0},   {"table", 'O', 0},   {"take", 'O', 0},
        {"out", 'O', 1},   {"final", 'O', 0},   {"lengths", 'O', 0}, {"wide", 'O', 0},
        {"falling", 'O', 0}, {"column", 'O', 0}, {"starts", 'O', 0}, {"results", 'O', 0},
        {"width", 'n', 0}};
    Buffer none[N_FLOAT];
    Scalar a[N_FLOAT];
    (void)self;
    if (take_args(args, spec, N_FLOAT, none, a) < 0) {
        return NULL;
    }
    PyObject *objects[N_TAIL];
    for (int i = 0; i < N_TAIL; i++) {
        objects[i] = a[TAIL + i].object; /* taken and checked by take_tail */
    }
    const Py_ssize_t width = (Py_ssize_t)a[WIDTH].integer;
    PyObject *ways = a[WAYS].object, *steps = a[STEPS].object, *table = a[TABLE].object;
    PyObject *take = a[TAKE].object;
    Tail tail;
    PyObject *done = NULL;
    if (take_tail(objects, width, &tail) == 0) {
        done = run_fold(NULL, ways, steps, table, take, 0, &tail);
    }
    free_tail(&tail);
    return done;
}

/*
 * dealer_float's work for shoes grouped already (solve_float): the steps made from `folds`
 * (for each value, tens first, the final hands' (order, drawn, starts, widths, size)) and
 * the groups (level f's parents, held counts and bounds at f * stride, f * stride and
 * f * (stride + 1); group_sizes[2 f], group_sizes[2 f + 1] its groups and distinct
 * counts), the tail's arrays in `tail` (N_TAIL, held by the caller).  NULL, or the problem
 * ("" with an exception set).
 */
const char *
dealer_float_grouped(const Buffer *ways, PyObject *folds, const int64_t *parents,
                     const int64_t *held, const int64_t *bounds, Py_ssize_t stride,
                     const int64_t *group_sizes, const Buffer *table, const Buffer *take,
                     const Buffer *tail, Py_ssize_t width)
{
    enum { FOLDED = 10 };
    if (!PyTuple_Check(folds) || PyTuple_GET_SIZE(folds) != FOLDED) {
        return "folds must be a tuple of ten (order, drawn, starts, widths, size)";
    }
    Step steps[FOLDED];
    memset(steps, 0, sizeof steps);
    const char *problem = NULL;
    for (Py_ssize_t f = 0; f < FOLDED && !problem; f++) {
        PyObject *item = PyTuple_GET_ITEM(folds, f);
        Step *step = &steps[f];
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 5) {
            problem = "each fold is a tuple (order, drawn, starts, widths, size)";
            break;
        }
        static const char *names[4] = {"order", "drawn", "starts", "widths"};
        for (int i = 0; i < 4 && !problem; i++) {
            if (take_buffer(PyTuple_GET_ITEM(item, i), &step->arrays[i], 0, 'q', names[i]) < 0) {
                problem = "";
            }
        }
        step->size = problem ? 0 : PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 4));
        if (!problem && step->size == -1 && PyErr_Occurred()) {
            problem = "";
        }
        const Py_ssize_t groups = group_sizes[2 * f], distinct = group_sizes[2 * f + 1];
        borrow(&step->arrays[PARENT], parents + f * stride, groups, 0, 0);
        borrow(&step->arrays[HELD], held + f * stride, distinct, 0, 0);
        borrow(&step->arrays[BOUNDS], bounds + f * (stride + 1), distinct + 1, 0, 0);
    }
    Tail t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < N_TAIL; i++) {
        t.buffers[i] = tail[i];
        t.buffers[i].held = 0; /* the caller's to release */
    }
    if (!problem) {
        problem = check_tail(&t, width);
    }
    if (!problem) {
        problem = fold_steps(steps, FOLDED, NULL, ways, table, take, 0, &t);
    }
    for (Py_ssize_t f = 0; f < FOLDED; f++) {
        release(steps[f].arrays, N_STEP);
    }
    free_tail(&t);
    return problem;
}
