/*
 * The exact side's compiled kernels (optional: solver/exact/kernel.py falls back to numpy).
 *
 * fold: the dealer's fold (solver/exact/dealer.py, _fold), every card value's step, in floats
 * or in integers modulo a prime below 2**29; dealer_float: the fold in floats with the
 * rest of the dealer's distributions taken from each last row as it is made; shoe_summary
 * and distinct_sizes: the shoes' sizes and extremes for it; hand_space: the player's
 * hands (solver/exact/player_hands.py); solve_hands and player_modular: the player's
 * standing and backward induction in floats (a hand space in one call) and, one hand size
 * a call, modulo the exact path's primes; rows: float rows as tuples.
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
    for (Py_ssize_t t = 0; t < size; t++) {
        o[t] = in[t] * f[t];
    }
    for (Py_ssize_t k = 1; k <= kept; k++) {
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
 * wrong residues, never undefined behaviour. */
static void
row_modulo(const Step *step, Py_ssize_t kept, const uint64_t *restrict in,
           const uint64_t *restrict f, uint64_t *restrict o, int64_t prime, double reciprocal)
{
    const int64_t *starts = ints(step, STARTS), *widths = ints(step, WIDTHS);
    const Py_ssize_t size = step->size;
    for (Py_ssize_t t = 0; t < size; t++) {
        o[t] = in[t] * f[t];
    }
    for (Py_ssize_t k = 1; k <= kept; k++) {
        const uint64_t *restrict in_k = in + starts[k];
        const uint64_t *restrict f_k = f + starts[k];
        const Py_ssize_t w = (Py_ssize_t)widths[k];
        for (Py_ssize_t t = 0; t < w; t++) {
            o[t] += in_k[t] * f_k[t];
        }
    }
    for (Py_ssize_t t = 0; t < size; t++) {
        o[t] = (uint64_t)reduce((int64_t)(o[t] & INT64_MAX), prime, reciprocal);
    }
}

/* What the walk over the shoe groups keeps for one step: its output groups sorted by
 * parent (children[first_child[p]] up to children[first_child[p + 1]] come from input
 * group p), each output group's block of bounds, each block's factors (`columns` apart),
 * and the rows in flight (the parent's row in the step's order, one output row). */
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
    level->factors = PyMem_Malloc(8 * (step->blocks * columns ? step->blocks * columns : 1));
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
                ((uint64_t *)level->factors)[b * columns + j] =
                    (uint64_t)reduce(((const int64_t *)table)[at], prime, reciprocal);
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
    uint64_t *ordered = (uint64_t *)level->ordered;
    for (Py_ssize_t j = 0; j < columns; j++) {
        ordered[j] = from[order[j]]; /* the bits moved as they are, float or residue */
    }
    for (Py_ssize_t c = level->first_child[group]; c < level->first_child[group + 1]; c++) {
        const Py_ssize_t g = level->children[c], b = level->block[g];
        const Py_ssize_t kept = kept_ranks(step, b);
        const char *f = level->factors + 8 * b * columns;
        if (w->prime == 0) {
            row_float(step, kept, (const double *)ordered, (const double *)f,
                      (double *)level->row);
        } else {
            row_modulo(step, kept, ordered, (const uint64_t *)f, (uint64_t *)level->row,
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
    if (prime > 0 && !within(table->view.buf, length(table), prime)) {
        problem = "table must hold residues modulo prime";
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

enum {
    M_ROWS, M_DRAWS, M_KIDS, M_PLAYED, M_VALUE, M_LEFT, M_PRIMES, M_HIT, M_HIT_FLOAT, N_MODULAR
};

/*
 * player_modular(rows, draws, kids, played, value, left, primes, hit, hit_float)
 *
 * One hand size of the exact backward induction (solver/exact/player.py,
 * solve_exact_modular): for each hand i = rows[r] and each prime primes[p],
 * hit[p, i, k] = sum_v draws[i, v] * played[p, kids[i, v], k] mod primes[p] (the numerators
 * of hitting, exact), and hit_float[r] = sum_v draws[i, v] * value[kids[i, v]] / left[i]
 * (the float value that picks the play, the ten products summed in numpy's order).
 * played is (primes, n + 1, 3) with the busted hand at n, hit (primes, n, 3).  Residues
 * are below primes of at most 2**31 and draws below 2**16, so the sums of ten products stay
 * below 2**51; the arithmetic is unsigned, so input that breaks this only gives wrong
 * numbers, never a read outside an array.
 */
static PyObject *
player_modular(PyObject *self, PyObject *args)
{
    PyObject *objects[N_MODULAR];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &objects[M_ROWS], &objects[M_DRAWS],
                          &objects[M_KIDS], &objects[M_PLAYED], &objects[M_VALUE],
                          &objects[M_LEFT], &objects[M_PRIMES], &objects[M_HIT],
                          &objects[M_HIT_FLOAT])) {
        return NULL;
    }
    static const char *names[N_MODULAR] = {"rows", "draws", "kids", "played", "value",
                                           "left", "primes", "hit", "hit_float"};
    static const char kinds[N_MODULAR] = {'q', 'q', 'q', 'q', 'd', 'q', 'q', 'q', 'd'};
    Buffer buffers[N_MODULAR];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_MODULAR; i++) {
        int writable = i == M_HIT || i == M_HIT_FLOAT;
        if (take_buffer(objects[i], &buffers[i], writable, kinds[i], names[i]) < 0) {
            release(buffers, N_MODULAR);
            return NULL;
        }
    }
    Py_ssize_t n = length(&buffers[M_LEFT]), count = length(&buffers[M_ROWS]);
    Py_ssize_t primes = length(&buffers[M_PRIMES]);
    const int64_t *rows = buffers[M_ROWS].view.buf, *draws = buffers[M_DRAWS].view.buf;
    const int64_t *kids = buffers[M_KIDS].view.buf, *prime = buffers[M_PRIMES].view.buf;
    const char *problem = NULL;
    if (length(&buffers[M_DRAWS]) != 10 * n || length(&buffers[M_KIDS]) != 10 * n ||
        length(&buffers[M_PLAYED]) != 3 * primes * (n + 1) ||
        length(&buffers[M_VALUE]) != n + 1 || length(&buffers[M_HIT]) != 3 * primes * n ||
        length(&buffers[M_HIT_FLOAT]) != count) {
        problem = "the arrays' sizes do not match";
    } else if (!within(rows, count, n) || !within(kids, 10 * n, n + 1)) {
        problem = "an index is out of range";
    } else if (!within(draws, 10 * n, 1 << 16)) {
        problem = "draws must be counts below 2**16";
    } else {
        for (Py_ssize_t p = 0; p < primes; p++) {
            if (prime[p] < 2 || prime[p] > ((int64_t)1 << 31)) {
                problem = "primes must lie in [2, 2**31]";
            }
        }
    }
    if (problem) {
        release(buffers, N_MODULAR);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    const uint64_t *played = buffers[M_PLAYED].view.buf;
    const double *value = buffers[M_VALUE].view.buf;
    const int64_t *left = buffers[M_LEFT].view.buf;
    uint64_t *hit = buffers[M_HIT].view.buf;
    double *hit_float = buffers[M_HIT_FLOAT].view.buf;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t r = 0; r < count; r++) {
        const int64_t i = rows[r];
        const int64_t *w = draws + 10 * i, *kid = kids + 10 * i;
        double terms[10];
        for (int v = 0; v < 10; v++) {
            terms[v] = (double)w[v] * value[kid[v]];
        }
        hit_float[r] = sum_ten(terms) / (double)left[i];
        for (Py_ssize_t p = 0; p < primes; p++) {
            const uint64_t q = (uint64_t)prime[p];
            const uint64_t *from = played + 3 * (n + 1) * p;
            uint64_t totals[3] = {0, 0, 0};
            for (int v = 0; v < 10; v++) {
                const uint64_t count_v = (uint64_t)w[v], *child = from + 3 * kid[v];
                totals[0] += count_v * child[0];
                totals[1] += count_v * child[1];
                totals[2] += count_v * child[2];
            }
            uint64_t *into = hit + 3 * (n * p + i);
            into[0] = totals[0] % q;
            into[1] = totals[1] % q;
            into[2] = totals[2] % q;
        }
    }
    Py_END_ALLOW_THREADS;
    release(buffers, N_MODULAR);
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
     "Rows of a float array, in a given order, as a tuple of tuples of floats."},
    {"dealer_float", dealer_float, METH_VARARGS,
     "The dealer's float distributions: the fold, each row priced for its shoes as it is "
     "made (see solver/exact/dealer.py, dealer_probabilities)."},
    {"player_modular", player_modular, METH_VARARGS,
     "One hand size of the player's exact pass (see solver/exact/player.py, "
     "solve_exact_modular)."},
    {"shoe_summary", shoe_summary, METH_VARARGS,
     "Each shoe's size and the fewest and most cards of each value (see "
     "solver/exact/dealer.py, dealer_probabilities)."},
    {"distinct_sizes", distinct_sizes, METH_VARARGS,
     "The distinct shoe sizes and each shoe's place among them (see solver/exact/dealer.py, "
     "_distinct_sizes)."},
    {"hand_space", hand_space, METH_VARARGS,
     "The player's hands reachable from some roots in one shoe (see "
     "solver/exact/player_hands.py, hand_space)."},
    {"solve_hands", solve_hands, METH_VARARGS,
     "solve_float after the dealer's distributions: standing's classes and sums, then the "
     "backward induction (see solver/exact/player.py)."},
    {"fold", fold, METH_VARARGS,
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
