/*
 * The exact side's compiled kernels (optional: solver/exact/kernel.py falls back to numpy).
 *
 * fold: the dealer's fold (solver/exact/dealer.py, _fold), every card value's step, in floats
 * or in integers modulo a prime below 2**29; dealer_float: the fold in floats with the
 * rest of the dealer's distributions taken from each last row as it is made; shoe_summary
 * and distinct_sizes: the shoes' sizes and extremes for it; hand_space: the player's
 * hands (solver/exact/player_hands.py); solve_hands: the player's standing and backward
 * induction in floats (a hand space in one call); rows: float rows as tuples;
 * dealer_residues, extend and stand_modular: the exact path's residues (the dealer's after
 * the modular folds, their extension to more primes, standing's by showdown class);
 * player_exact: the player's backward induction modulo the exact path's primes (near-ties
 * decided exactly).
 * Every output entry of the fold adds its products in the order numpy's loop adds them
 * (rank 0 first, then rank 1, ...), each product rounded once, so with -ffp-contract=off
 * (no fused multiply-add) the float results are the same bits as numpy's.
 *
 * Arrays come through the buffer protocol (C-contiguous, 8-byte items), so the module
 * needs only Python's headers to build, not numpy's.  Every index is checked against
 * its array before the loops run: a bad call raises ValueError instead of reading past
 * an array.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    int held;
} Buffer;

/* Take a C-contiguous buffer of 8-byte items of the format kind ('d' float, 'q' int64). */
static int
take_buffer(PyObject *obj, Buffer *buffer, int writable, char kind, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    buffer->held = 0;
    if (PyObject_GetBuffer(obj, &buffer->view, flags) < 0) {
        return -1;
    }
    buffer->held = 1;
    const char *format = buffer->view.format ? buffer->view.format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') {
        format++;
    }
    int ok = buffer->view.itemsize == 8 &&
             (kind == 'd' ? strcmp(format, "d") == 0
                          : (strcmp(format, "q") == 0 || strcmp(format, "l") == 0));
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous %s array", name,
                     kind == 'd' ? "float64" : "int64");
        return -1;
    }
    return 0;
}

static void
release(Buffer *buffers, int count)
{
    for (int i = 0; i < count; i++) {
        if (buffers[i].held) {
            PyBuffer_Release(&buffers[i].view);
            buffers[i].held = 0;
        }
    }
}

static Py_ssize_t
length(const Buffer *buffer)
{
    return buffer->view.len / 8;
}

/* Whether every entry of an int64 array lies in [0, bound). */
static int
within(const int64_t *values, Py_ssize_t n, int64_t bound)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] < 0 || values[i] >= bound) {
            return 0;
        }
    }
    return 1;
}

/*
 * x mod p for 0 <= x < 2**63 and 0 < p < 2**29, without a division: the quotient from a
 * double reciprocal is off by at most one (x / p < 2**34, relative error near 2**-52),
 * which one correction puts right.
 */
static inline int64_t
reduce(int64_t x, int64_t p, double reciprocal)
{
    int64_t r = x - (int64_t)((double)x * reciprocal) * p;
    if (r < 0) {
        r += p;
    } else if (r >= p) {
        r -= p;
    }
    return r;
}

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

/* Take step `item` (order, drawn, starts, widths, parent, held, bounds, size) and check
 * it against the stage before (groups_in groups of `columns` hands); NULL on success. */
static const char *
take_step(PyObject *item, Step *step, Py_ssize_t groups_in, Py_ssize_t columns,
          Py_ssize_t table_rows, Py_ssize_t table_columns)
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

/* fold's work, its rows going to out, or (floats, out_object NULL) to `tail`, made ready
 * here for the fold's groups (see dealer_float). */
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
    Level *levels = NULL;
    Py_ssize_t count = 0;
    const char *problem = NULL;
    double *taken = NULL;
    if ((!tail && take_buffer(out_object, out, 1, number, "out") < 0) ||
        take_buffer(ways_object, ways, 0, number, "ways") < 0 ||
        take_buffer(table_object, table, 0, number, "table") < 0 ||
        take_buffer(final_object, final, 0, 'q', "final") < 0) {
        goto done;
    }
    if (prime < 0 || prime >= (1LL << 29) || (tail && prime)) {
        problem = "prime must be 0 (floats) or below 2**29";
        goto done;
    }
    Py_ssize_t table_rows = table->view.ndim == 2 ? table->view.shape[0] : 0;
    Py_ssize_t table_columns = table_rows ? table->view.shape[1] : 0;
    if (table_rows * table_columns != length(table)) {
        problem = "table must be two-dimensional";
        goto done;
    }
    if (prime > 0 && (!within(table->view.buf, length(table), prime) ||
                      !within(ways->view.buf, length(ways), prime))) {
        problem = "table and ways must hold residues modulo prime";
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
    levels = PyMem_Calloc(count ? count : 1, sizeof(Level));
    if (!steps || !levels) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t groups = 1, columns = length(ways);
    for (Py_ssize_t i = 0; i < count; i++) {
        problem = take_step(PySequence_Fast_GET_ITEM(sequence, i), &steps[i], groups, columns,
                            table_rows, table_columns);
        if (problem) {
            goto done;
        }
        if (prime > 0 && steps[i].ranks > 32) {
            problem = "at most 32 ranks modulo a prime";
            goto done;
        }
        if (prepare_level(&levels[i], &steps[i], table->view.buf, table_columns, prime) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        groups = steps[i].groups_out;
        columns = steps[i].size;
    }
    Py_ssize_t finals = length(final);
    if (!within(final->view.buf, finals, columns) ||
        (!tail && length(out) != groups * finals)) {
        problem = "out must be (groups, len(final)), final columns of the last stage";
        goto done;
    }
    if (tail) {
        taken = PyMem_Malloc(8 * (finals ? finals : 1));
        problem = taken ? tail_ready(tail, groups, finals) : (PyErr_NoMemory(), "");
        if (problem) {
            goto done;
        }
    }
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
done:
    if (problem && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, problem);
    }
    for (Py_ssize_t i = 0; i < count && steps; i++) {
        release(steps[i].arrays, N_STEP);
    }
    for (Py_ssize_t i = 0; i < count && levels; i++) {
        free_level(&levels[i]);
    }
    PyMem_Free(steps);
    PyMem_Free(levels);
    PyMem_Free(taken);
    Py_XDECREF(sequence);
    release(held_buffers, 4);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
fold(PyObject *self, PyObject *args)
{
    PyObject *out_object, *ways_object, *steps_object, *table_object, *final_object;
    long long prime;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOL", &out_object, &ways_object, &steps_object,
                          &table_object, &final_object, &prime)) {
        return NULL;
    }
    return run_fold(out_object, ways_object, steps_object, table_object, final_object, prime,
                    NULL);
}

/* numpy's order for summing ten floats along a row (its pairwise sum's eight-way block). */
static inline double
sum_ten(const double *x)
{
    double total = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    total += x[8];
    return total + x[9];
}

/* numpy's pairwise sum of n floats a[0], a[stride], ... (its reductions' inner loop): below
 * eight terms one after another from -0.0, up to 128 in eight running sums, more halved. */
static double
pairwise(const double *a, Py_ssize_t n, Py_ssize_t stride)
{
    if (n < 8) {
        double total = -0.0;
        for (Py_ssize_t i = 0; i < n; i++) {
            total += a[i * stride];
        }
        return total;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++) {
            r[j] = a[j * stride];
        }
        Py_ssize_t i = 8;
        for (; i < n - n % 8; i += 8) {
            for (int j = 0; j < 8; j++) {
                r[j] += a[(i + j) * stride];
            }
        }
        double total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) {
            total += a[i * stride];
        }
        return total;
    }
    Py_ssize_t half = n / 2;
    half -= half % 8;
    return pairwise(a, half, stride) + pairwise(a + half * stride, n - half, stride);
}

/* The two sizes of a two-dimensional buffer; 0 (and rows = columns = 0) if it is not. */
static int
shape2(const Buffer *buffer, Py_ssize_t *rows, Py_ssize_t *columns)
{
    *rows = buffer->view.ndim == 2 ? buffer->view.shape[0] : 0;
    *columns = buffer->view.ndim == 2 ? buffer->view.shape[1] : 0;
    return buffer->view.ndim == 2 && *rows * *columns == length(buffer);
}

enum { T_OUT, T_FINAL, T_LENGTHS, T_WIDE, T_FALLING, T_COLUMN, T_STARTS, T_RESULTS, N_TAIL };

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
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return -1;
    }
    return 0;
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
static PyObject *
dealer_float(PyObject *self, PyObject *args)
{
    PyObject *ways, *steps, *table, *take, *objects[N_TAIL];
    Py_ssize_t width;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOn", &ways, &steps, &table, &take,
                          &objects[T_OUT], &objects[T_FINAL], &objects[T_LENGTHS],
                          &objects[T_WIDE], &objects[T_FALLING], &objects[T_COLUMN],
                          &objects[T_STARTS], &objects[T_RESULTS], &width)) {
        return NULL;
    }
    Tail tail;
    PyObject *done = NULL;
    if (take_tail(objects, width, &tail) == 0) {
        done = run_fold(NULL, ways, steps, table, take, 0, &tail);
    }
    free_tail(&tail);
    return done;
}

/* The three sizes of a three-dimensional buffer; 0 (and every size 0) if it is not one. */
static int
shape3(const Buffer *buffer, Py_ssize_t *first, Py_ssize_t *second, Py_ssize_t *third)
{
    int three = buffer->view.ndim == 3;
    *first = three ? buffer->view.shape[0] : 0;
    *second = three ? buffer->view.shape[1] : 0;
    *third = three ? buffer->view.shape[2] : 0;
    return three && *first * *second * *third == length(buffer);
}

/* Whether each of `count` moduli lies in [2, bound]. */
static int
moduli_within(const int64_t *primes, Py_ssize_t count, int64_t bound)
{
    for (Py_ssize_t k = 0; k < count; k++) {
        if (primes[k] < 2 || primes[k] > bound) {
            return 0;
        }
    }
    return 1;
}

/* x mod p in [0, p), as Python's % gives it, for any x and p > 0. */
static inline int64_t
floor_mod(int64_t x, int64_t p)
{
    int64_t r = x % p;
    return r < 0 ? r + p : r;
}

/* reduce for the residues' sums below: x mod p for a modulus p in [2, 2**29] and x below
 * 2**62, where the quotient (below 2**34 in every use here) comes out right; input that
 * breaks this only gives a wrong residue (x is cut to 62 bits, so nothing overflows). */
static inline uint64_t
modulo(uint64_t x, uint64_t p, double reciprocal)
{
    return (uint64_t)reduce((int64_t)(x & (((uint64_t)1 << 62) - 1)), (int64_t)p, reciprocal);
}

enum { R_OUT, R_SUMS, R_FINAL, R_LENGTHS, R_RESULTS, R_SIZES, R_COLUMN, R_PRIMES, N_RESIDUE };

/*
 * dealer_residues(out, sums, final, lengths, results, sizes, column, primes, depth)
 *
 * The rest of solver/exact/dealer.py's dealer_residues after the modular folds, modulo
 * each prime q = primes[k]: shoe s's count of (result, length) pair j, sums[k, final[s],
 * j], is lifted to the common denominator by tail[lengths[j]] and added into out[k,
 * results[j], s], where tail[L] = padded_falling(N - L, depth - L) for the shoe's size N =
 * sizes[column[s]]; then out[k, 0, s] (bust) is tail[0] less the other results (every
 * hand ends).  Each entry is reduced into [0, q): the same integers as numpy's.  Residues
 * below primes of at most 2**29 keep each product below 2**58 and the sums of a shoe's
 * pairs far inside 64 bits; the arithmetic is unsigned, so wrong input only gives wrong
 * numbers, never a read outside an array.
 */
static PyObject *
dealer_residues(PyObject *self, PyObject *args)
{
    PyObject *objects[N_RESIDUE];
    Py_ssize_t depth;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOn", &objects[R_OUT], &objects[R_SUMS],
                          &objects[R_FINAL], &objects[R_LENGTHS], &objects[R_RESULTS],
                          &objects[R_SIZES], &objects[R_COLUMN], &objects[R_PRIMES], &depth)) {
        return NULL;
    }
    static const char *names[N_RESIDUE] = {"out",   "sums",  "final",  "lengths",
                                           "results", "sizes", "column", "primes"};
    Buffer buffers[N_RESIDUE];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_RESIDUE; i++) {
        if (take_buffer(objects[i], &buffers[i], i == R_OUT, 'q', names[i]) < 0) {
            release(buffers, N_RESIDUE);
            return NULL;
        }
    }
    Py_ssize_t primes, outcomes, shoes, folded, groups, pairs;
    Py_ssize_t distinct = length(&buffers[R_SIZES]);
    const int64_t *final = buffers[R_FINAL].view.buf, *lengths = buffers[R_LENGTHS].view.buf;
    const int64_t *results = buffers[R_RESULTS].view.buf, *sizes = buffers[R_SIZES].view.buf;
    const int64_t *column = buffers[R_COLUMN].view.buf, *prime = buffers[R_PRIMES].view.buf;
    const char *problem = NULL;
    if (!shape3(&buffers[R_OUT], &primes, &outcomes, &shoes) ||
        !shape3(&buffers[R_SUMS], &folded, &groups, &pairs)) {
        problem = "out and sums must be three-dimensional";
    } else if (outcomes < 1 || folded != primes || length(&buffers[R_PRIMES]) != primes ||
               length(&buffers[R_FINAL]) != shoes || length(&buffers[R_COLUMN]) != shoes ||
               length(&buffers[R_LENGTHS]) != pairs || length(&buffers[R_RESULTS]) != pairs ||
               depth < 0 || depth > 64) {
        problem = "the arrays' sizes do not match";
    } else if (!within(final, shoes, groups) || !within(column, shoes, distinct) ||
               !within(lengths, pairs, depth + 1) || !within(results, pairs, outcomes)) {
        problem = "an index is out of range";
    } else if (!moduli_within(prime, primes, (int64_t)1 << 29)) {
        problem = "primes must lie in [2, 2**29]";
    }
    if (problem) {
        release(buffers, N_RESIDUE);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    /* tails[L * distinct + c]: tail[L] for the shoe size sizes[c]; then one shoe's sums by
     * result and its lifted pairs; then each size's tail for each pair (distinct x pairs);
     * then the shoes in the order of their groups. */
    uint64_t *tails =
        PyMem_Malloc(8 * ((depth + 1) * distinct + outcomes + pairs + distinct * pairs));
    Py_ssize_t *by_group = PyMem_Malloc(sizeof(Py_ssize_t) * (groups + 1 + shoes));
    if (!tails || !by_group) {
        PyMem_Free(tails);
        PyMem_Free(by_group);
        release(buffers, N_RESIDUE);
        return PyErr_NoMemory();
    }
    uint64_t *totals = tails + (depth + 1) * distinct, *lifted = totals + outcomes;
    uint64_t *by_pair = lifted + pairs;
    const uint64_t *sums = buffers[R_SUMS].view.buf;
    uint64_t *out = buffers[R_OUT].view.buf;
    Py_BEGIN_ALLOW_THREADS;
    /* The shoes by group (a counting sort), so that the sums are read in order, a row
     * for each group's shoes together, rather than a row per shoe at random. */
    Py_ssize_t *first = by_group + shoes;
    for (Py_ssize_t g = 0; g <= groups; g++) {
        first[g] = 0;
    }
    for (Py_ssize_t s = 0; s < shoes; s++) {
        first[final[s] + 1]++;
    }
    for (Py_ssize_t g = 0; g < groups; g++) {
        first[g + 1] += first[g];
    }
    for (Py_ssize_t s = 0; s < shoes; s++) {
        by_group[first[final[s]]++] = s;
    }
    for (Py_ssize_t k = 0; k < primes; k++) {
        const uint64_t q = (uint64_t)prime[k];
        const double reciprocal = 1.0 / (double)q;
        for (Py_ssize_t c = 0; c < distinct; c++) {
            tails[depth * distinct + c] = 1;
            for (Py_ssize_t cards = depth - 1; cards >= 0; cards--) {
                /* padded_falling(n, d) = max(n, 1) padded_falling(n - 1, d - 1) */
                const int64_t n = sizes[c] - cards;
                const uint64_t factor = (uint64_t)(n > 1 ? n : 1) % q;
                tails[cards * distinct + c] = tails[(cards + 1) * distinct + c] * factor % q;
            }
            for (Py_ssize_t j = 0; j < pairs; j++) {
                by_pair[c * pairs + j] = tails[lengths[j] * distinct + c];
            }
        }
        for (Py_ssize_t c = 0; c < shoes; c++) {
            const Py_ssize_t s = by_group[c];
            const uint64_t *row = sums + (k * groups + final[s]) * pairs;
            const uint64_t *tail = tails + column[s], *lift = by_pair + column[s] * pairs;
            for (Py_ssize_t r = 0; r < outcomes; r++) {
                totals[r] = 0;
            }
            for (Py_ssize_t j = 0; j < pairs; j++) {
                lifted[j] = row[j] * lift[j];
            }
            /* A result's pairs are adjacent (sorted by result): each run is added in a
             * register, products below 2**58 reduced once every 15 (below 2**62). */
            for (Py_ssize_t j = 0; j < pairs;) {
                const int64_t r = results[j];
                uint64_t total = 0;
                for (Py_ssize_t run = 0; j < pairs && results[j] == r; j++, run++) {
                    total = run % 15 == 14 ? modulo(total, q, reciprocal) : total;
                    total += lifted[j];
                }
                totals[r] += modulo(total, q, reciprocal);
            }
            uint64_t *o = out + k * outcomes * shoes + s, rest = 0;
            for (Py_ssize_t r = 1; r < outcomes; r++) {
                o[r * shoes] = modulo(totals[r], q, reciprocal);
                rest += o[r * shoes];
            }
            o[0] = modulo(tail[0] + q - modulo(rest, q, reciprocal), q, reciprocal);
        }
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(tails);
    PyMem_Free(by_group);
    release(buffers, N_RESIDUE);
    Py_RETURN_NONE;
}

/* a**-1 mod p for 0 <= a < p (Euclid's algorithm), or 0 when a and p share a factor. */
static int64_t
inverse_mod(int64_t a, int64_t p)
{
    int64_t r0 = p, r1 = a, t0 = 0, t1 = 1;
    while (r1 != 0) {
        const int64_t quotient = r0 / r1, r2 = r0 - quotient * r1, t2 = t0 - quotient * t1;
        r0 = r1;
        r1 = r2;
        t0 = t1;
        t1 = t2;
    }
    return r0 == 1 ? floor_mod(t0, p) : 0;
}

/* Entries that extend takes through each step together (independent chains of steps,
 * which the processor overlaps). */
#define GARNER_BLOCK 64
/* The most primes (and the most new primes) that Garner's tables hold. */
#define GARNER_MOST 64

/* Garner's tables for primes p_0 ... p_{count-1} and new moduli q_0 ... q_{added-1}:
 * weights[64 i + j] = P_j mod p_i (j < i, P_j = p_0 ... p_{j-1}), inverses[i] = P_i**-1
 * mod p_i, weights[64 (64 + k) + j] = P_j mod q_k; reciprocals of the p_i, then (from 64)
 * of the q_k. */
typedef struct {
    uint64_t weights[2 * GARNER_MOST * GARNER_MOST], inverses[GARNER_MOST];
    double reciprocals[2 * GARNER_MOST];
} Garner;

/* Fill `garner` (count in [1, 64], added in [0, 64]); NULL, or what is wrong. */
static const char *
garner_tables(Garner *garner, const int64_t *primes, Py_ssize_t count, const int64_t *more,
              Py_ssize_t added)
{
    const int64_t bound = (int64_t)1 << 29;
    if (count < 1 || count > GARNER_MOST || added < 0 || added > GARNER_MOST) {
        return "Garner's tables hold 1 to 64 primes and 0 to 64 more";
    }
    if (!moduli_within(primes, count, bound) || !moduli_within(more, added, bound)) {
        return "primes must lie in [2, 2**29]";
    }
    for (Py_ssize_t i = 0; i < count + added; i++) {
        const int64_t q = i < count ? primes[i] : more[i - count];
        const Py_ssize_t row = i < count ? i : GARNER_MOST + i - count;
        uint64_t *weight = garner->weights + GARNER_MOST * row;
        garner->reciprocals[row] = 1.0 / (double)q;
        int64_t product = 1 % q;
        for (Py_ssize_t j = 0; j < (i < count ? i : count); j++) {
            weight[j] = (uint64_t)product;
            product = product * (primes[j] % q) % q;
        }
        if (i < count) {
            garner->inverses[i] = (uint64_t)inverse_mod(product, q);
            if (garner->inverses[i] == 0) {
                return "primes must be coprime";
            }
        }
    }
    return NULL;
}

/* Garner's digits of one integer from its residues x[i] < primes[i] (see extend). */
static void
garner_digits(const Garner *garner, const int64_t *primes, Py_ssize_t count,
              const uint64_t *x, uint64_t *digits)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint64_t p = (uint64_t)primes[i];
        const double r = garner->reciprocals[i];
        const uint64_t *weight = garner->weights + GARNER_MOST * i;
        uint64_t sum = 0;
        for (Py_ssize_t j = 0; j < i; j++) {
            sum += digits[j] * weight[j];
            sum = j % 15 == 14 ? modulo(sum, p, r) : sum;
        }
        sum = modulo(sum, p, r);
        digits[i] = modulo((modulo(x[i], p, r) + p - sum) * garner->inverses[i], p, r);
    }
}

/* sum[b] = sum over j < n of digits[j][b] * weights[j], mod q, for b < width: digits and
 * weights below 2**29 make each product below 2**58, and a reduction after every 15 keeps
 * the sums below 2**62 (and their quotients by q below 2**34), as modulo needs. */
static void
weighted(uint64_t *sum, uint64_t (*digits)[GARNER_BLOCK], const uint64_t *weights,
         Py_ssize_t n, Py_ssize_t width, uint64_t q, double reciprocal)
{
    for (Py_ssize_t b = 0; b < width; b++) {
        sum[b] = 0;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        const uint64_t weight = weights[j];
        for (Py_ssize_t b = 0; b < width; b++) {
            sum[b] += digits[j][b] * weight;
        }
        if (j % 15 == 14 || j == n - 1) {
            for (Py_ssize_t b = 0; b < width; b++) {
                sum[b] = modulo(sum[b], q, reciprocal);
            }
        }
    }
}

/*
 * extend(out, residues, primes, more)
 *
 * solver/exact/modular.py's extend: each integer x in [0, prod(primes)) given by its
 * residues x mod primes[i] = residues[i, m] (m running over the rest of the array, flat)
 * is taken modulo more[k] into out[k, m] without being built.  Garner's mixed-radix digits
 * a_i < primes[i] of x = a_0 + a_1 P_1 + a_2 P_2 + ... (P_i = primes[0] ... primes[i - 1])
 * come first, a_i = (x - a_0 - a_1 P_1 - ... - a_{i-1} P_{i-1}) P_i**-1 mod primes[i],
 * then x mod more[k] = sum_i a_i (P_i mod more[k]).  The digits and the residues are
 * unique, so they are numpy's whatever the order of the steps.
 */
static PyObject *
extend(PyObject *self, PyObject *args)
{
    PyObject *objects[4];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO", &objects[0], &objects[1], &objects[2], &objects[3])) {
        return NULL;
    }
    static const char *names[4] = {"out", "residues", "primes", "more"};
    Buffer buffers[4];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < 4; i++) {
        if (take_buffer(objects[i], &buffers[i], i == 0, 'q', names[i]) < 0) {
            release(buffers, 4);
            return NULL;
        }
    }
    const Py_ssize_t count = length(&buffers[2]), added = length(&buffers[3]);
    const Py_ssize_t entries = count ? length(&buffers[1]) / count : 0;
    const int64_t *primes = buffers[2].view.buf, *more = buffers[3].view.buf;
    const char *problem = NULL;
    static const Py_ssize_t most = GARNER_MOST;
    Garner garner;
    if (count < 1 || count > most || added > most || length(&buffers[1]) != count * entries ||
        length(&buffers[0]) != added * entries) {
        problem = "residues must be (primes, ...) and out (more, ...), of 1 to 64 and 0 to 64";
    } else {
        problem = garner_tables(&garner, primes, count, more, added);
    }
    const uint64_t *weights = garner.weights, *inverses = garner.inverses;
    const double *reciprocals = garner.reciprocals;
    if (problem) {
        release(buffers, 4);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    const int64_t *residues = buffers[1].view.buf;
    int64_t *out = buffers[0].view.buf;
    Py_BEGIN_ALLOW_THREADS;
    uint64_t digits[64][GARNER_BLOCK], sum[GARNER_BLOCK];
    for (Py_ssize_t start = 0; start < entries; start += GARNER_BLOCK) {
        const Py_ssize_t rest = entries - start;
        const Py_ssize_t width = rest < GARNER_BLOCK ? rest : GARNER_BLOCK;
        for (Py_ssize_t i = 0; i < count; i++) {
            const uint64_t p = (uint64_t)primes[i];
            const double r = reciprocals[i];
            const int64_t *from = residues + i * entries + start;
            weighted(sum, digits, weights + most * i, i, width, p, r);
            for (Py_ssize_t b = 0; b < width; b++) {
                const uint64_t x = (uint64_t)floor_mod(from[b], (int64_t)p);
                digits[i][b] = modulo((x + p - sum[b]) * inverses[i], p, r);
            }
        }
        for (Py_ssize_t k = 0; k < added; k++) {
            const Py_ssize_t row = most + k;
            weighted(sum, digits, weights + most * row, count, width, (uint64_t)more[k],
                     reciprocals[row]);
            for (Py_ssize_t b = 0; b < width; b++) {
                out[k * entries + start + b] = (int64_t)sum[b];
            }
        }
    }
    Py_END_ALLOW_THREADS;
    release(buffers, 4);
    Py_RETURN_NONE;
}

enum { SM_OUT, SM_DEALER, SM_CLASSES, SM_LIFT, SM_PRIMES, N_STAND };

/*
 * stand_modular(out, dealer, classes, lift, primes)
 *
 * Standing's numerators in solver/exact/player.py's solve_exact_modular, modulo each
 * prime q = primes[p]: out[p, i, k] = (the sum over the dealer's results j with
 * classes[i, j] == k of dealer[p, j, i]) mod q, times lift[p, i], mod q, for k = win,
 * push, lose (classes of any other value count in none).  Residues below primes of at
 * most 2**29: the same integers as numpy's; unsigned, so wrong input only gives wrong
 * numbers.
 */
static PyObject *
stand_modular(PyObject *self, PyObject *args)
{
    PyObject *objects[N_STAND];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOO", &objects[SM_OUT], &objects[SM_DEALER],
                          &objects[SM_CLASSES], &objects[SM_LIFT], &objects[SM_PRIMES])) {
        return NULL;
    }
    static const char *names[N_STAND] = {"out", "dealer", "classes", "lift", "primes"};
    Buffer buffers[N_STAND];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_STAND; i++) {
        if (take_buffer(objects[i], &buffers[i], i == SM_OUT, 'q', names[i]) < 0) {
            release(buffers, N_STAND);
            return NULL;
        }
    }
    Py_ssize_t primes, results, hands, lifts, lifted, rows, columns;
    const int64_t *prime = buffers[SM_PRIMES].view.buf;
    const char *problem = NULL;
    if (!shape3(&buffers[SM_DEALER], &primes, &results, &hands) ||
        !shape2(&buffers[SM_CLASSES], &rows, &columns) ||
        !shape2(&buffers[SM_LIFT], &lifts, &lifted)) {
        problem = "dealer must be (primes, results, hands), classes and lift two-dimensional";
    } else if (rows != hands || columns != results || lifts != primes || lifted != hands ||
               length(&buffers[SM_PRIMES]) != primes ||
               length(&buffers[SM_OUT]) != 3 * primes * hands) {
        problem = "the arrays' sizes do not match";
    } else if (!moduli_within(prime, primes, (int64_t)1 << 29)) {
        problem = "primes must lie in [2, 2**29]";
    }
    if (problem) {
        release(buffers, N_STAND);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    const uint64_t *dealer = buffers[SM_DEALER].view.buf, *lift = buffers[SM_LIFT].view.buf;
    const int64_t *classes = buffers[SM_CLASSES].view.buf;
    uint64_t *out = buffers[SM_OUT].view.buf;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t p = 0; p < primes; p++) {
        const uint64_t q = (uint64_t)prime[p];
        const double reciprocal = 1.0 / (double)q;
        uint64_t *o = out + 3 * hands * p;
        for (Py_ssize_t i = 0; i < 3 * hands; i++) {
            o[i] = 0;
        }
        for (Py_ssize_t j = 0; j < results; j++) {
            const uint64_t *counts = dealer + (p * results + j) * hands;
            for (Py_ssize_t i = 0; i < hands; i++) {
                const uint64_t k = (uint64_t)classes[i * results + j];
                if (k < 3) {
                    o[3 * i + k] += counts[i];
                }
            }
        }
        for (Py_ssize_t i = 0; i < 3 * hands; i++) {
            const uint64_t factor = modulo(lift[p * hands + i / 3], q, reciprocal);
            o[i] = modulo(modulo(o[i], q, reciprocal) * factor, q, reciprocal);
        }
    }
    Py_END_ALLOW_THREADS;
    release(buffers, N_STAND);
    Py_RETURN_NONE;
}

enum { E_NUMERATORS, E_HITTING, E_SIZES, E_DRAWS, E_KIDS, E_LEFT, E_SUMS, E_LIFT, E_BUST,
       E_SCALE, E_PRIMES, N_EXACT };

/* Whether hitting's numerators beat standing's: hit[W] - hit[L] > stand[W] - stand[L],
 * that is hit[W] + stand[L] > hit[L] + stand[W], compared by Garner's digits from the most
 * significant (both sides are below the primes' product, as the exact path's bound makes
 * them).  hit and stand hold (win, push, lose) residues for each prime, 3 apart. */
static int
beats(const Garner *garner, const int64_t *primes, Py_ssize_t count, const uint64_t *hit,
      const uint64_t *stand, Py_ssize_t stand_stride)
{
    uint64_t a[GARNER_MOST], b[GARNER_MOST], digits_a[GARNER_MOST], digits_b[GARNER_MOST];
    for (Py_ssize_t p = 0; p < count; p++) {
        const uint64_t q = (uint64_t)primes[p];
        const double r = garner->reciprocals[p];
        const uint64_t *h = hit + 3 * p, *s = stand + stand_stride * p;
        a[p] = modulo(h[0] + s[2], q, r);
        b[p] = modulo(h[2] + s[0], q, r);
    }
    garner_digits(garner, primes, count, a, digits_a);
    garner_digits(garner, primes, count, b, digits_b);
    for (Py_ssize_t i = count - 1; i >= 0; i--) {
        if (digits_a[i] != digits_b[i]) {
            return digits_a[i] > digits_b[i];
        }
    }
    return 0;
}

/* The hands of each size 1 ... largest, smallest index first: by_size[first[m]] up to
 * by_size[first[m + 1]] hold m cards (a counting sort; sizes below 1 are left out). */
static void
hands_by_size(const int64_t *sizes, Py_ssize_t n, Py_ssize_t largest, Py_ssize_t *first,
              Py_ssize_t *by_size)
{
    for (Py_ssize_t m = 0; m <= largest + 1; m++) {
        first[m] = 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        first[sizes[i] + 1] += sizes[i] >= 1;
    }
    for (Py_ssize_t m = 0; m <= largest; m++) {
        first[m + 1] += first[m];
    }
    Py_ssize_t *placed = first + largest + 2;
    memcpy(placed, first, sizeof(Py_ssize_t) * (largest + 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        if (sizes[i] >= 1) {
            by_size[placed[sizes[i]]++] = i;
        }
    }
}

/* What player_exact reads for every hand. */
typedef struct {
    const int64_t *sizes, *draws, *kids, *left, *primes;
    const uint64_t *stand, *bust;
    const double *stand_float;
    Py_ssize_t n, count, columns;
    double tolerance;
    const Garner *garner;
} ExactPass;

/* Hand i of m cards in player_exact: hit, the choice, and its numerators (n, 5 apart). */
static void
exact_hand(const ExactPass *e, Py_ssize_t i, int64_t m, uint64_t *numerators, double *value,
           int64_t *hitting)
{
    const int64_t *w = e->draws + 10 * i, *kid = e->kids + 10 * i;
    const Py_ssize_t n = e->n;
    double terms[10];
    for (int v = 0; v < 10; v++) {
        terms[v] = (double)w[v] * value[kid[v]];
    }
    const double hit_float = sum_ten(terms) / (double)e->left[i];
    uint64_t hit[3 * GARNER_MOST];
    for (Py_ssize_t p = 0; p < e->count; p++) {
        const uint64_t q = (uint64_t)e->primes[p];
        const double r = e->garner->reciprocals[p];
        const uint64_t *played = numerators + 5 * n * p, bust = e->bust[e->columns * p + m + 1];
        uint64_t totals[3] = {0, 0, 0};
        for (int v = 0; v < 10; v++) {
            const uint64_t count_v = (uint64_t)w[v];
            if (kid[v] == n) {
                totals[2] += count_v * bust; /* a busted hand loses, over D(m + 1) */
            } else {
                const uint64_t *child = played + 5 * kid[v] + 2;
                totals[0] += count_v * child[0];
                totals[1] += count_v * child[1];
                totals[2] += count_v * child[2];
            }
        }
        for (int k = 0; k < 3; k++) {
            hit[3 * p + k] = modulo(totals[k], q, r);
        }
    }
    const double stand_float = e->stand_float[i];
    int choose = hit_float > stand_float;
    if (fabs(hit_float - stand_float) < e->tolerance) {
        choose = beats(e->garner, e->primes, e->count, hit, e->stand + 3 * i, 3 * n);
    }
    hitting[i] = choose;
    value[i] = choose ? hit_float : stand_float;
    for (Py_ssize_t p = 0; p < e->count; p++) {
        const uint64_t q = (uint64_t)e->primes[p];
        const uint64_t *h = hit + 3 * p, *s = e->stand + 3 * (n * p + i);
        uint64_t *o = numerators + 5 * (n * p + i);
        const uint64_t shift = e->bust[e->columns * p + m];
        o[1] = modulo(h[0] + q - h[2] + shift, q, e->garner->reciprocals[p]);
        for (int k = 0; k < 3; k++) {
            o[2 + k] = choose ? h[k] : s[k];
        }
    }
}

/* Standing's value as a float: (x - D) / D for x = standing's net shifted by D = D(m),
 * an integer below the primes' product given by its residues (count primes, `stride`
 * apart), taken whole from Garner's digits in doubles (x = sum_i a_i P_i, each term and
 * sum rounded: a relative error of a few 2**-53, far inside the tie tolerance). */
static double
stand_value(const Garner *garner, const int64_t *primes, Py_ssize_t count, const uint64_t *x,
            Py_ssize_t stride, const double *radix, double scale)
{
    uint64_t residues[GARNER_MOST], digits[GARNER_MOST];
    for (Py_ssize_t p = 0; p < count; p++) {
        residues[p] = x[stride * p];
    }
    garner_digits(garner, primes, count, residues, digits);
    double whole = 0.0;
    for (Py_ssize_t i = count - 1; i >= 0; i--) {
        whole += (double)digits[i] * radix[i];
    }
    return whole / scale - 1.0;
}

/*
 * player_exact(numerators, hitting, sizes, draws, kids, left, sums, lift, bust, scale,
 *              primes, tolerance)
 *
 * The whole exact backward induction of solver/exact/player.py (solve_exact_modular),
 * modulo each prime q = primes[p], the hands of each size from the largest down to 1:
 * hand i of m = sizes[i] cards and draws[i, v] cards of value v + 1 left draws to hand
 * kids[i, v] (n: busted, which loses bust[p, m + 1] = D(m + 1) mod q).  Standing's
 * numerators are the dealer's sums by class times lift (sums (primes, n, 3), lift
 * (primes, n)); hitting's are the sums of draws times the children's played numerators.
 * Float values pick the play: hitting's as on numpy (sum_v draws[i, v] value[kid] /
 * left[i], numpy's order, a busted hand -1), standing's from its exact numerators (see
 * stand_value; scale[m] = D(m) as a float); within `tolerance` the numerators decide
 * exactly (see beats), so every decision is the exact one, as on numpy.  Out: hitting[i]
 * and numerators[p, i] = (standing's net, hitting's net, the played win, push and lose),
 * the nets W - L shifted by D(m) = bust[p, m] into [0, q).  bust is (primes, columns).
 */
static PyObject *
player_exact(PyObject *self, PyObject *args)
{
    PyObject *objects[N_EXACT];
    double tolerance;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOd", &objects[E_NUMERATORS], &objects[E_HITTING],
                          &objects[E_SIZES], &objects[E_DRAWS], &objects[E_KIDS],
                          &objects[E_LEFT], &objects[E_SUMS], &objects[E_LIFT],
                          &objects[E_BUST], &objects[E_SCALE], &objects[E_PRIMES],
                          &tolerance)) {
        return NULL;
    }
    static const char *names[N_EXACT] = {"numerators", "hitting", "sizes", "draws",
                                         "kids",       "left",    "sums",  "lift",
                                         "bust",       "scale",   "primes"};
    Buffer buffers[N_EXACT];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_EXACT; i++) {
        const int writable = i == E_NUMERATORS || i == E_HITTING;
        const char kind = i == E_SCALE ? 'd' : 'q';
        if (take_buffer(objects[i], &buffers[i], writable, kind, names[i]) < 0) {
            release(buffers, N_EXACT);
            return NULL;
        }
    }
    Py_ssize_t n = length(&buffers[E_SIZES]), count = length(&buffers[E_PRIMES]);
    Py_ssize_t bust_rows, columns, largest = 0;
    const int64_t *sizes = buffers[E_SIZES].view.buf, *draws = buffers[E_DRAWS].view.buf;
    const int64_t *kids = buffers[E_KIDS].view.buf, *primes = buffers[E_PRIMES].view.buf;
    const char *problem = NULL;
    Garner garner;
    if (!shape2(&buffers[E_BUST], &bust_rows, &columns) || bust_rows != count ||
        length(&buffers[E_NUMERATORS]) != 5 * count * n || length(&buffers[E_HITTING]) != n ||
        length(&buffers[E_DRAWS]) != 10 * n || length(&buffers[E_KIDS]) != 10 * n ||
        length(&buffers[E_LEFT]) != n || length(&buffers[E_SUMS]) != 3 * count * n ||
        length(&buffers[E_LIFT]) != count * n || length(&buffers[E_SCALE]) != columns) {
        problem = "the arrays' sizes do not match";
    } else if (!within(kids, 10 * n, n + 1) || !within(sizes, n, columns - 1)) {
        problem = "an index is out of range (kids up to n, sizes below bust's columns - 1)";
    } else if (!within(draws, 10 * n, 1 << 16)) {
        problem = "draws must be counts below 2**16";
    } else {
        problem = garner_tables(&garner, primes, count, NULL, 0);
    }
    for (Py_ssize_t i = 0; !problem && i < n; i++) {
        largest = sizes[i] > largest ? sizes[i] : largest;
    }
    /* Scratch: the float values (the busted hand's last) and standing's; standing's
     * numerators, lifted; the hands by size. */
    double *value = problem ? NULL : PyMem_Malloc(8 * (2 * n + 1));
    uint64_t *stand = problem ? NULL : PyMem_Malloc(8 * (3 * count * n + 1));
    Py_ssize_t *first = problem ? NULL : PyMem_Malloc(sizeof(Py_ssize_t) * (2 * largest + n + 3));
    if (!problem && (!value || !stand || !first)) {
        PyMem_Free(value);
        PyMem_Free(stand);
        PyMem_Free(first);
        release(buffers, N_EXACT);
        return PyErr_NoMemory();
    }
    if (problem) {
        release(buffers, N_EXACT);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    uint64_t *numerators = buffers[E_NUMERATORS].view.buf;
    int64_t *hitting = buffers[E_HITTING].view.buf;
    const uint64_t *sums = buffers[E_SUMS].view.buf, *lift = buffers[E_LIFT].view.buf;
    const double *scale = buffers[E_SCALE].view.buf;
    double *stand_float = value + n + 1;
    ExactPass e = {sizes, draws, kids, buffers[E_LEFT].view.buf, primes, stand,
                   buffers[E_BUST].view.buf, stand_float, n, count, columns, tolerance,
                   &garner};
    Py_BEGIN_ALLOW_THREADS;
    /* Every hand: standing's numerators and net, and hitting's net as if it drew nothing
     * (a hand of no cards is never played), until its size is passed. */
    for (Py_ssize_t p = 0; p < count; p++) {
        const uint64_t q = (uint64_t)primes[p];
        const double r = garner.reciprocals[p];
        for (Py_ssize_t i = 0; i < n; i++) {
            /* residues below 2**29 (sums and lift as given): products below 2**58 */
            const uint64_t *from = sums + 3 * (n * p + i), factor = lift[n * p + i];
            uint64_t *s = stand + 3 * (n * p + i), *o = numerators + 5 * (n * p + i);
            for (int k = 0; k < 3; k++) {
                s[k] = modulo(from[k] * factor, q, r);
            }
            const uint64_t shift = e.bust[columns * p + sizes[i]];
            o[0] = modulo(s[0] + q - s[2] + shift, q, r);
            o[1] = modulo(shift, q, r);
            o[2] = o[3] = o[4] = 0;
        }
    }
    /* P_i = primes[0] ... primes[i - 1] as floats, for standing's values. */
    double radix[GARNER_MOST];
    radix[0] = 1.0;
    for (Py_ssize_t i = 1; i < count; i++) {
        radix[i] = radix[i - 1] * (double)primes[i - 1];
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        stand_float[i] = stand_value(&garner, primes, count, numerators + 5 * i, 5 * n, radix,
                                     scale[sizes[i]]);
        value[i] = 0.0;
        hitting[i] = 0;
    }
    value[n] = -1.0;
    Py_ssize_t *by_size = first + largest + 2 + largest + 1;
    hands_by_size(sizes, n, largest, first, by_size);
    for (Py_ssize_t m = largest; m >= 1; m--) {
        for (Py_ssize_t c = first[m]; c < first[m + 1]; c++) {
            exact_hand(&e, by_size[c], m, numerators, value, hitting);
        }
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(value);
    PyMem_Free(stand);
    PyMem_Free(first);
    release(buffers, N_EXACT);
    Py_RETURN_NONE;
}

enum {
    S_DEALER, S_HANDS, S_CHILDREN, S_DRAWS, S_SIZES, S_BEST, S_OWN_21, S_BEATS, S_LABELS,
    S_STAND_VEC, S_STAND, S_HIT, S_HITTING, S_PLAYED, S_VALUE, N_SOLVE
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
static PyObject *
solve_hands(PyObject *self, PyObject *args)
{
    PyObject *objects[N_SOLVE];
    long long total;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOLOOOOOO", &objects[S_DEALER], &objects[S_HANDS],
                          &objects[S_CHILDREN], &objects[S_DRAWS], &objects[S_SIZES],
                          &objects[S_BEST], &objects[S_OWN_21], &objects[S_BEATS],
                          &objects[S_LABELS], &total, &objects[S_STAND_VEC], &objects[S_STAND],
                          &objects[S_HIT], &objects[S_HITTING], &objects[S_PLAYED],
                          &objects[S_VALUE])) {
        return NULL;
    }
    static const char *names[N_SOLVE] = {
        "dealer",    "hands", "children", "draws", "sizes",   "best",   "own_21", "beats",
        "labels",    "stand_vec", "stand", "hit",  "hitting", "played", "value"};
    static const char kinds[N_SOLVE] = {'d', 'q', 'q', 'q', 'q', 'q', 'q', 'q',
                                        'q', 'd', 'd', 'd', 'q', 'd', 'd'};
    Buffer buffers[N_SOLVE];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_SOLVE; i++) {
        if (take_buffer(objects[i], &buffers[i], i >= S_STAND_VEC, kinds[i], names[i]) < 0) {
            release(buffers, N_SOLVE);
            return NULL;
        }
    }
    const Py_ssize_t n = length(&buffers[S_SIZES]), results = length(&buffers[S_LABELS]);
    /* Each hand's hard total, then (as scratch) the order by size; a row of terms, and the
     * classes by (best total, beaten) and dealer result. */
    int64_t *hards = PyMem_Malloc(sizeof(int64_t) * (n ? n : 1));
    Py_ssize_t *order = PyMem_Malloc(sizeof(Py_ssize_t) * (n ? n : 1));
    double *terms = PyMem_Malloc(8 * (results ? results : 1));
    int64_t *classes = PyMem_Malloc(8 * 44 * (results ? results : 1));
    if (!hards || !order || !terms || !classes) {
        PyMem_Free(hards);
        PyMem_Free(order);
        PyMem_Free(terms);
        PyMem_Free(classes);
        release(buffers, N_SOLVE);
        return PyErr_NoMemory();
    }
    const char *problem = check_solve(buffers, n, results, hards);
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
    release(buffers, N_SOLVE);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    Py_RETURN_NONE;
}

/*
 * shoe_summary(counts, sizes, least, most)
 *
 * For shoes as rows of ten counts: each shoe's number of cards, and the fewest and the
 * most cards of each value any shoe holds (numpy's counts.sum(axis=1), counts.min(axis=0)
 * and counts.max(axis=0), in one pass; exact integers).  At least one shoe.
 */
static PyObject *
shoe_summary(PyObject *self, PyObject *args)
{
    PyObject *objects[4];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO", &objects[0], &objects[1], &objects[2], &objects[3])) {
        return NULL;
    }
    static const char *names[4] = {"counts", "sizes", "least", "most"};
    Buffer buffers[4];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < 4; i++) {
        if (take_buffer(objects[i], &buffers[i], i > 0, 'q', names[i]) < 0) {
            release(buffers, 4);
            return NULL;
        }
    }
    const Py_ssize_t n = length(&buffers[1]);
    if (n < 1 || length(&buffers[0]) != 10 * n || length(&buffers[2]) != 10 ||
        length(&buffers[3]) != 10) {
        release(buffers, 4);
        PyErr_SetString(PyExc_ValueError, "counts must be (shoes, 10), shoes > 0, sizes theirs");
        return NULL;
    }
    const int64_t *counts = buffers[0].view.buf;
    int64_t *sizes = buffers[1].view.buf, *least = buffers[2].view.buf;
    int64_t *most = buffers[3].view.buf;
    for (int v = 0; v < 10; v++) {
        least[v] = most[v] = counts[v];
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        const int64_t *row = counts + 10 * s;
        int64_t size = 0;
        for (int v = 0; v < 10; v++) {
            size += row[v];
            least[v] = row[v] < least[v] ? row[v] : least[v];
            most[v] = row[v] > most[v] ? row[v] : most[v];
        }
        sizes[s] = size;
    }
    release(buffers, 4);
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
static PyObject *
hand_space(PyObject *self, PyObject *args)
{
    PyObject *objects[N_SPACE];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOO", &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5], &objects[6], &objects[7],
                          &objects[8], &objects[9], &objects[10], &objects[11])) {
        return NULL;
    }
    static const char *names[N_SPACE] = {"universe", "children_in", "keys_in", "sizes_in",
                                         "limit",    "roots",       "hands",   "keys",
                                         "children", "draws",       "sizes",   "position"};
    Buffer b[N_SPACE];
    memset(b, 0, sizeof b);
    for (int i = 0; i < N_SPACE; i++) {
        if (take_buffer(objects[i], &b[i], i >= H_HANDS, 'q', names[i]) < 0) {
            release(b, N_SPACE);
            return NULL;
        }
    }
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
        release(b, N_SPACE);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    int64_t *hands = b[H_HANDS].view.buf, *keys = b[H_KEYS].view.buf;
    int64_t *children = b[H_CHILDREN].view.buf, *draws = b[H_DRAWS].view.buf;
    int64_t *sizes = b[H_SIZES].view.buf, *position = b[H_POSITION].view.buf;
    /* One-card roots as a mask of values; the others kept in order after them. */
    int single[10] = {0};
    Py_ssize_t larger = 0;
    int64_t *roots = PyMem_Malloc(8 * 10 * (count ? count : 1));
    if (!roots) {
        release(b, N_SPACE);
        return PyErr_NoMemory();
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
    release(b, N_SPACE);
    return PyLong_FromSsize_t(n);
}

/*
 * distinct_sizes(sizes, distinct, column) -> count
 *
 * np.unique(sizes, return_inverse=True) by counting (shoe sizes span a few values): the
 * distinct sizes in order into distinct[0..count), and each size's place among them into
 * column.  At least one size, all of them non-negative.
 */
/* dealer._groups_of: the shoes grouped value by value (10s first, aces last), as numpy's
 * np.unique(count * size + group, return_inverse=True) groups them at each value.
 *
 * counts: (shoes, 10) int64, each at least 0 and below 2**15 (the shifted counts of
 * dealer._shoe_groups); parents and held: (10, shoes) int64; bounds: (10, shoes + 1) int64;
 * final: (shoes,) int64; sizes: (10, 2) int64.  Level f (value 10 - f) writes its groups'
 * parents, its distinct counts of the value (held) and where each count's groups start
 * (bounds, the last entry the number of groups), and sizes[f] = (groups, distinct counts);
 * final gets each shoe's group after the last level.
 *
 * The shoes are kept in the order of their groups; a stable counting sort by the value's
 * count then orders them by (count, group), the order of np.unique's keys, and a scan
 * numbers the distinct pairs: the same groups, in the same order, as numpy's. */
enum { G_COUNTS, G_PARENTS, G_HELD, G_BOUNDS, G_FINAL, G_SIZES, N_GROUPS };
#define MOST_SHIFTED (1 << 15)

static PyObject *
shoe_groups(PyObject *self, PyObject *args)
{
    PyObject *objects[N_GROUPS];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOO", &objects[G_COUNTS], &objects[G_PARENTS],
                          &objects[G_HELD], &objects[G_BOUNDS], &objects[G_FINAL],
                          &objects[G_SIZES])) {
        return NULL;
    }
    static const char *names[N_GROUPS] = {"counts", "parents", "held", "bounds", "final",
                                          "sizes"};
    Buffer buffers[N_GROUPS];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_GROUPS; i++) {
        if (take_buffer(objects[i], &buffers[i], i > 0, 'q', names[i]) < 0) {
            release(buffers, N_GROUPS);
            return NULL;
        }
    }
    const Py_ssize_t n = length(&buffers[G_COUNTS]) / 10;
    const int64_t *counts = buffers[G_COUNTS].view.buf;
    const char *problem = NULL;
    if (n < 1 || length(&buffers[G_COUNTS]) != 10 * n || length(&buffers[G_PARENTS]) != 10 * n ||
        length(&buffers[G_HELD]) != 10 * n || length(&buffers[G_BOUNDS]) != 10 * (n + 1) ||
        length(&buffers[G_FINAL]) != n || length(&buffers[G_SIZES]) != 20) {
        problem = "counts must be (shoes, 10) for at least one shoe, the outputs to match";
    } else if (!within(counts, 10 * n, MOST_SHIFTED)) {
        problem = "counts must be at least 0 and below 2**15";
    }
    if (problem) {
        release(buffers, N_GROUPS);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    int64_t *parents = buffers[G_PARENTS].view.buf, *held = buffers[G_HELD].view.buf;
    int64_t *bounds = buffers[G_BOUNDS].view.buf, *group = buffers[G_FINAL].view.buf;
    int64_t *sizes = buffers[G_SIZES].view.buf;
    Py_ssize_t *order = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)n);
    Py_ssize_t *sorted = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)n);
    int64_t largest = 0;
    for (Py_ssize_t i = 0; i < 10 * n; i++) {
        largest = counts[i] > largest ? counts[i] : largest;
    }
    Py_ssize_t *start = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(largest + 2));
    if (!order || !sorted || !start) {
        PyMem_Free(order);
        PyMem_Free(sorted);
        PyMem_Free(start);
        release(buffers, N_GROUPS);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t s = 0; s < n; s++) {
        order[s] = s;
        group[s] = 0;
    }
    for (int f = 0; f < 10; f++) {
        const int value = 9 - f;
        int64_t most = 0;
        for (Py_ssize_t s = 0; s < n; s++) {
            most = counts[10 * s + value] > most ? counts[10 * s + value] : most;
        }
        memset(start, 0, sizeof(Py_ssize_t) * (size_t)(most + 2));
        for (Py_ssize_t s = 0; s < n; s++) {
            start[counts[10 * s + value] + 1]++;
        }
        for (int64_t c = 0; c <= most; c++) {
            start[c + 1] += start[c];
        }
        for (Py_ssize_t k = 0; k < n; k++) { /* stable: groups stay in order within a count */
            Py_ssize_t s = order[k];
            sorted[start[counts[10 * s + value]]++] = s;
        }
        int64_t *parent = parents + f * n, *count = held + f * n, *bound = bounds + f * (n + 1);
        Py_ssize_t groups = 0, distinct = 0;
        int64_t last_count = -1, last_group = -1;
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t s = sorted[k];
            int64_t c = counts[10 * s + value], g = group[s];
            if (c != last_count) {
                count[distinct] = c;
                bound[distinct++] = groups;
            }
            if (c != last_count || g != last_group) {
                parent[groups++] = g;
                last_count = c;
                last_group = g;
            }
            group[s] = groups - 1;
        }
        bound[distinct] = groups;
        sizes[2 * f] = groups;
        sizes[2 * f + 1] = distinct;
        Py_ssize_t *swap = order;
        order = sorted;
        sorted = swap;
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(order);
    PyMem_Free(sorted);
    PyMem_Free(start);
    release(buffers, N_GROUPS);
    Py_RETURN_NONE;
}

static PyObject *
distinct_sizes(PyObject *self, PyObject *args)
{
    PyObject *objects[3];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOO", &objects[0], &objects[1], &objects[2])) {
        return NULL;
    }
    static const char *names[3] = {"sizes", "distinct", "column"};
    Buffer buffers[3];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < 3; i++) {
        if (take_buffer(objects[i], &buffers[i], i > 0, 'q', names[i]) < 0) {
            release(buffers, 3);
            return NULL;
        }
    }
    const Py_ssize_t n = length(&buffers[0]);
    const int64_t *sizes = buffers[0].view.buf;
    int64_t *distinct = buffers[1].view.buf, *column = buffers[2].view.buf;
    int64_t least = n ? sizes[0] : 0, most = least;
    for (Py_ssize_t s = 0; s < n; s++) {
        least = sizes[s] < least ? sizes[s] : least;
        most = sizes[s] > most ? sizes[s] : most;
    }
    const char *problem = NULL;
    if (n < 1 || length(&buffers[1]) != n || length(&buffers[2]) != n) {
        problem = "sizes, distinct and column must be of one length, at least 1";
    } else if (least < 0 || most - least >= (1 << 20)) {
        problem = "sizes must be non-negative and span fewer than 2**20 values";
    }
    Py_ssize_t *rank = problem ? NULL : PyMem_Calloc((size_t)(most - least + 1), sizeof(Py_ssize_t));
    if (!problem && !rank) {
        release(buffers, 3);
        return PyErr_NoMemory();
    }
    if (problem) {
        release(buffers, 3);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        rank[sizes[s] - least] = 1;
    }
    Py_ssize_t count = 0;
    for (int64_t v = 0; v <= most - least; v++) {
        if (rank[v]) {
            distinct[count] = v + least;
            rank[v] = count++;
        }
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        column[s] = rank[sizes[s] - least];
    }
    PyMem_Free(rank);
    release(buffers, 3);
    return PyLong_FromSsize_t(count);
}

/*
 * rows(array, order)
 *
 * The rows order[0], order[1], ... of a two-dimensional float64 array as a tuple of
 * tuples of floats: tuple(map(tuple, array[order].tolist())) without the lists between.
 * The rows, holding floats only, are not tracked by the garbage collector.
 */
static PyObject *
rows(PyObject *self, PyObject *args)
{
    PyObject *array_object, *order_object;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &array_object, &order_object)) {
        return NULL;
    }
    Buffer buffers[2];
    memset(buffers, 0, sizeof buffers);
    if (take_buffer(array_object, &buffers[0], 0, 'd', "array") < 0 ||
        take_buffer(order_object, &buffers[1], 0, 'q', "order") < 0) {
        release(buffers, 2);
        return NULL;
    }
    Py_ssize_t count, width, n = length(&buffers[1]);
    const int64_t *order = buffers[1].view.buf;
    if (!shape2(&buffers[0], &count, &width) || !within(order, n, count)) {
        release(buffers, 2);
        PyErr_SetString(PyExc_ValueError, "array must be two-dimensional, order its rows");
        return NULL;
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

static PyMethodDef methods[] = {
    {"rows", rows, METH_VARARGS,
     "rows(array, order, /)\n--\n\n"
     "Rows of a float array, in a given order, as a tuple of tuples of floats."},
    {"dealer_float", dealer_float, METH_VARARGS,
     "dealer_float(ways, steps, table, take, out, final, lengths, wide, falling, column, starts, results, width, /)\n--\n\n"
     "The dealer's float distributions: the fold, each row priced for its shoes as it is "
     "made (see solver/exact/dealer.py, dealer_probabilities)."},
    {"shoe_summary", shoe_summary, METH_VARARGS,
     "shoe_summary(counts, sizes, least, most, /)\n--\n\n"
     "Each shoe's size and the fewest and most cards of each value (see "
     "solver/exact/dealer.py, dealer_probabilities)."},
    {"shoe_groups", shoe_groups, METH_VARARGS,
     "shoe_groups(counts, parents, held, bounds, final, sizes, /)\n--\n\n"
     "The shoes grouped value by value for the fold (see solver/exact/dealer.py, "
     "_groups_of)."},
    {"distinct_sizes", distinct_sizes, METH_VARARGS,
     "distinct_sizes(sizes, distinct, column, /)\n--\n\n"
     "The distinct shoe sizes and each shoe's place among them (see solver/exact/dealer.py, "
     "_distinct_sizes)."},
    {"hand_space", hand_space, METH_VARARGS,
     "hand_space(universe, children_in, keys_in, sizes_in, limit, roots, hands, keys, children, draws, sizes, position, /)\n--\n\n"
     "The player's hands reachable from some roots in one shoe (see "
     "solver/exact/player_hands.py, hand_space)."},
    {"solve_hands", solve_hands, METH_VARARGS,
     "solve_hands(dealer, hands, children, draws, sizes, best, own_21, beats, labels, total, stand_vec, stand, hit, hitting, played, value, /)\n--\n\n"
     "solve_float after the dealer's distributions: standing's classes and sums, then the "
     "backward induction (see solver/exact/player.py)."},
    {"dealer_residues", dealer_residues, METH_VARARGS,
     "dealer_residues(out, sums, final, lengths, results, sizes, column, primes, depth, /)\n--\n\n"
     "The dealer's residues from the modular folds' sums (see solver/exact/dealer.py, "
     "dealer_residues)."},
    {"extend", extend, METH_VARARGS,
     "extend(out, residues, primes, more, /)\n--\n\n"
     "Integers given by residues, modulo more primes (see solver/exact/modular.py, extend)."},
    {"stand_modular", stand_modular, METH_VARARGS,
     "stand_modular(out, dealer, classes, lift, primes, /)\n--\n\n"
     "Standing's numerators modulo each prime (see solver/exact/player.py, "
     "solve_exact_modular)."},
    {"player_exact", player_exact, METH_VARARGS,
     "player_exact(numerators, hitting, sizes, draws, kids, left, sums, lift, bust, scale, primes, tolerance, /)\n--\n\n"
     "The player's whole exact pass modulo each prime (see solver/exact/player.py, "
     "solve_exact_modular)."},
    {"fold", fold, METH_VARARGS,
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
