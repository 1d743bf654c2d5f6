/*
 * The exact side's compiled kernels (optional: solver/exact/kernel.py falls back to numpy).
 *
 * fold_step: one card value of the dealer's fold (solver/exact/dealer.py, _fold), in floats
 * or in integers modulo a prime below 2**29.  Every output entry adds its products in the
 * order numpy's loop adds them (rank 0 first, then rank 1, ...), each product rounded
 * once, so with -ffp-contract=off (no fused multiply-add) the float results are the same
 * bits as numpy's.
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

enum { OUT, SUMS, ORDER, DRAWN, STARTS, WIDTHS, PARENT, HELD, BOUNDS, TABLE, N_BUFFERS };

/*
 * fold_step(out, sums, order, drawn, starts, widths, parent, held, bounds, table, size,
 *           prime)
 *
 * out[g, t] = sum over ranks k (in order) of
 *             sums[parent[g], order[starts[k] + t]] * table[drawn[starts[k] + t], held[b]]
 * for t < widths[k], where block b holds the groups bounds[b] <= g < bounds[b + 1] and
 * only ranks k <= held[b] are taken (the others' products are exact zeros).  out has
 * `size` columns.  prime == 0: float64 arrays; else int64 residues, out reduced modulo
 * prime.
 */
static PyObject *
fold_step(PyObject *self, PyObject *args)
{
    PyObject *objects[N_BUFFERS];
    Py_ssize_t size;
    long long prime;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOnL", &objects[OUT], &objects[SUMS],
                          &objects[ORDER], &objects[DRAWN], &objects[STARTS],
                          &objects[WIDTHS], &objects[PARENT], &objects[HELD],
                          &objects[BOUNDS], &objects[TABLE], &size, &prime)) {
        return NULL;
    }
    static const char *names[N_BUFFERS] = {"out",    "sums",   "order",  "drawn", "starts",
                                           "widths", "parent", "held",   "bounds", "table"};
    char number = prime == 0 ? 'd' : 'q';
    Buffer buffers[N_BUFFERS];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_BUFFERS; i++) {
        int numeric = i == OUT || i == SUMS || i == TABLE;
        if (take_buffer(objects[i], &buffers[i], i == OUT, numeric ? number : 'q', names[i]) <
            0) {
            release(buffers, N_BUFFERS);
            return NULL;
        }
    }
    const int64_t *order = buffers[ORDER].view.buf, *drawn = buffers[DRAWN].view.buf;
    const int64_t *starts = buffers[STARTS].view.buf, *widths = buffers[WIDTHS].view.buf;
    const int64_t *parent = buffers[PARENT].view.buf, *held = buffers[HELD].view.buf;
    const int64_t *bounds = buffers[BOUNDS].view.buf;
    Py_ssize_t columns = length(&buffers[ORDER]);
    Py_ssize_t ranks = length(&buffers[STARTS]);
    Py_ssize_t blocks = length(&buffers[BOUNDS]) - 1;
    Py_ssize_t groups_out = length(&buffers[PARENT]);
    Py_ssize_t table_rows = buffers[TABLE].view.ndim == 2 ? buffers[TABLE].view.shape[0] : 0;
    Py_ssize_t table_columns = table_rows ? buffers[TABLE].view.shape[1] : 0;
    Py_ssize_t groups_in = columns ? length(&buffers[SUMS]) / columns : 0;
    /* Check the shapes and every index before touching the arrays. */
    const char *problem = NULL;
    if (length(&buffers[DRAWN]) != columns || length(&buffers[WIDTHS]) != ranks || ranks < 1) {
        problem = "order, drawn, starts and widths do not match";
    } else if (groups_in * columns != length(&buffers[SUMS])) {
        problem = "sums does not have one column per entry of order";
    } else if (blocks < 0 || length(&buffers[HELD]) != blocks || bounds[0] != 0 ||
               bounds[blocks] != groups_out) {
        problem = "held and bounds do not match parent";
    } else if (size < 0 || length(&buffers[OUT]) != groups_out * size || widths[0] != size) {
        problem = "out must be (groups, size) with size the width of rank 0";
    } else if (prime < 0 || prime >= (1LL << 29) || (prime > 0 && ranks > 32)) {
        problem = "prime must be 0 (floats) or below 2**29, with at most 32 ranks";
    } else if (table_rows * table_columns != length(&buffers[TABLE])) {
        problem = "table must be two-dimensional";
    } else if (!within(order, columns, groups_in ? columns : 0) ||
               !within(drawn, columns, table_rows) ||
               !within(parent, groups_out, groups_in) ||
               !within(held, blocks, table_columns)) {
        problem = "an index is out of range";
    } else if (prime > 0 && !within(buffers[TABLE].view.buf, length(&buffers[TABLE]), prime)) {
        problem = "table must hold residues modulo prime";
    } else {
        for (Py_ssize_t k = 0; k < ranks && !problem; k++) {
            if (starts[k] < 0 || widths[k] < 0 || widths[k] > size ||
                starts[k] + widths[k] > columns) {
                problem = "a rank runs past the columns";
            }
        }
        for (Py_ssize_t b = 0; b < blocks && !problem; b++) {
            if (bounds[b + 1] < bounds[b]) {
                problem = "bounds must not decrease";
            }
        }
    }
    if (problem) {
        release(buffers, N_BUFFERS);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    Py_ssize_t *gather = PyMem_Malloc(sizeof(Py_ssize_t) * (columns ? columns : 1));
    char *factor = PyMem_Malloc(8 * (columns ? columns : 1));
    if (!gather || !factor) {
        PyMem_Free(gather);
        PyMem_Free(factor);
        release(buffers, N_BUFFERS);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t j = 0; j < columns; j++) {
        gather[j] = (Py_ssize_t)order[j];
    }
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t b = 0; b < blocks; b++) {
        Py_ssize_t kept = held[b] < ranks - 1 ? (Py_ssize_t)held[b] : ranks - 1;
        Py_ssize_t width = kept + 1 < ranks ? (Py_ssize_t)starts[kept + 1] : columns;
        if (prime == 0) {
            const double *table = buffers[TABLE].view.buf;
            double *f = (double *)factor;
            for (Py_ssize_t j = 0; j < width; j++) {
                f[j] = table[drawn[j] * table_columns + held[b]];
            }
            for (int64_t g = bounds[b]; g < bounds[b + 1]; g++) {
                const double *in = (const double *)buffers[SUMS].view.buf + parent[g] * columns;
                double *o = (double *)buffers[OUT].view.buf + g * size;
                for (Py_ssize_t t = 0; t < size; t++) {
                    o[t] = in[gather[t]] * f[t];
                }
                for (Py_ssize_t k = 1; k <= kept; k++) {
                    const Py_ssize_t s = (Py_ssize_t)starts[k], w = (Py_ssize_t)widths[k];
                    for (Py_ssize_t t = 0; t < w; t++) {
                        o[t] += in[gather[s + t]] * f[s + t];
                    }
                }
            }
        } else {
            const int64_t *table = buffers[TABLE].view.buf;
            const double reciprocal = 1.0 / (double)prime;
            uint64_t *f = (uint64_t *)factor;
            for (Py_ssize_t j = 0; j < width; j++) {
                f[j] = (uint64_t)reduce(table[drawn[j] * table_columns + held[b]], prime, reciprocal);
            }
            for (int64_t g = bounds[b]; g < bounds[b + 1]; g++) {
                /* Residues below 2**29: each product is below 2**58, and at most 32 of
                 * them add up below 2**63.  Unsigned, so that sums holding other numbers
                 * than residues (not checked: a pass over them costs as much as the fold)
                 * give wrong residues, not undefined behaviour. */
                const uint64_t *in = (const uint64_t *)buffers[SUMS].view.buf + parent[g] * columns;
                uint64_t *o = (uint64_t *)buffers[OUT].view.buf + g * size;
                for (Py_ssize_t t = 0; t < size; t++) {
                    o[t] = in[gather[t]] * f[t];
                }
                for (Py_ssize_t k = 1; k <= kept; k++) {
                    const Py_ssize_t s = (Py_ssize_t)starts[k], w = (Py_ssize_t)widths[k];
                    for (Py_ssize_t t = 0; t < w; t++) {
                        o[t] += in[gather[s + t]] * f[s + t];
                    }
                }
                for (Py_ssize_t t = 0; t < size; t++) {
                    o[t] = (uint64_t)reduce((int64_t)(o[t] & INT64_MAX), prime, reciprocal);
                }
            }
        }
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(gather);
    PyMem_Free(factor);
    release(buffers, N_BUFFERS);
    Py_RETURN_NONE;
}

/* numpy's order for summing ten floats along a row (its pairwise sum's eight-way block). */
static inline double
sum_ten(const double *x)
{
    double total = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    total += x[8];
    return total + x[9];
}

enum { CHANCES, KIDS, STAND, STAND_VEC, ENDS, HIT, HITTING, PLAYED, VALUE, N_PLAYER };

/*
 * player_float(chances, kids, stand, stand_vec, ends, hit, hitting, played, value)
 *
 * The float backward induction of solver/exact/player.py (solve_float), hands numbered by
 * size: hands ends[m] <= i < ends[m + 1] hold m cards, and kids[i, v] (a hand of m + 1
 * cards, or the busted hand n) is hand i plus a card of value v + 1.  For m from the
 * largest size down to 1: hit[i] = sum_v chances[i, v] * value[kids[i, v]], the
 * (win, push, lose) of hitting likewise from played; optimal play hits when hit[i] >
 * stand[i] (hitting[i] = 1) and takes that value and those outcomes into value[i] and
 * played[i].  value[n] and played[n] (the busted hand) are given.  Sums run in numpy's
 * order (its pairwise sum along a row of ten; einsum's left to right).
 */
static PyObject *
player_float(PyObject *self, PyObject *args)
{
    PyObject *objects[N_PLAYER];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &objects[CHANCES], &objects[KIDS],
                          &objects[STAND], &objects[STAND_VEC], &objects[ENDS], &objects[HIT],
                          &objects[HITTING], &objects[PLAYED], &objects[VALUE])) {
        return NULL;
    }
    static const char *names[N_PLAYER] = {"chances", "kids", "stand",   "stand_vec", "ends",
                                          "hit",     "hitting", "played", "value"};
    static const char kinds[N_PLAYER] = {'d', 'q', 'd', 'd', 'q', 'd', 'q', 'd', 'd'};
    Buffer buffers[N_PLAYER];
    memset(buffers, 0, sizeof buffers);
    for (int i = 0; i < N_PLAYER; i++) {
        int writable = i == HIT || i == HITTING || i == PLAYED || i == VALUE;
        if (take_buffer(objects[i], &buffers[i], writable, kinds[i], names[i]) < 0) {
            release(buffers, N_PLAYER);
            return NULL;
        }
    }
    Py_ssize_t n = length(&buffers[STAND]);
    Py_ssize_t sizes = length(&buffers[ENDS]);
    const int64_t *kids = buffers[KIDS].view.buf, *ends = buffers[ENDS].view.buf;
    const char *problem = NULL;
    if (length(&buffers[CHANCES]) != 10 * n || length(&buffers[KIDS]) != 10 * n ||
        length(&buffers[STAND_VEC]) != 3 * n || length(&buffers[HIT]) != n ||
        length(&buffers[HITTING]) != n || length(&buffers[PLAYED]) != 3 * (n + 1) ||
        length(&buffers[VALUE]) != n + 1 || sizes < 2) {
        problem = "the arrays' sizes do not match";
    } else if (!within(kids, 10 * n, n + 1) || !within(ends, sizes, n + 1)) {
        problem = "an index is out of range";
    } else {
        for (Py_ssize_t m = 0; m + 1 < sizes && !problem; m++) {
            if (ends[m + 1] < ends[m]) {
                problem = "ends must not decrease";
            }
        }
    }
    if (problem) {
        release(buffers, N_PLAYER);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    const double *chances = buffers[CHANCES].view.buf, *stand = buffers[STAND].view.buf;
    const double *stand_vec = buffers[STAND_VEC].view.buf;
    double *hit = buffers[HIT].view.buf, *played = buffers[PLAYED].view.buf;
    double *value = buffers[VALUE].view.buf;
    int64_t *hitting = buffers[HITTING].view.buf;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t m = sizes - 2; m >= 1; m--) {
        for (int64_t i = ends[m]; i < ends[m + 1]; i++) {
            const double *w = chances + 10 * i;
            const int64_t *kid = kids + 10 * i;
            double terms[10];
            for (int v = 0; v < 10; v++) {
                terms[v] = w[v] * value[kid[v]];
            }
            double h = sum_ten(terms);
            double outcome[3];
            for (int k = 0; k < 3; k++) {
                double total = 0.0;
                for (int v = 0; v < 10; v++) {
                    total += w[v] * played[3 * kid[v] + k];
                }
                outcome[k] = total;
            }
            hit[i] = h;
            int choose = h > stand[i];
            hitting[i] = choose;
            value[i] = choose ? h : stand[i];
            for (int k = 0; k < 3; k++) {
                played[3 * i + k] = choose ? outcome[k] : stand_vec[3 * i + k];
            }
        }
    }
    Py_END_ALLOW_THREADS;
    release(buffers, N_PLAYER);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"player_float", player_float, METH_VARARGS,
     "The player's float backward induction (see solver/exact/player.py, solve_float)."},
    {"fold_step", fold_step, METH_VARARGS,
     "One card value of the dealer's fold (see solver/exact/dealer.py, _fold)."},
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
