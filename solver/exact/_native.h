/*
 * What the exact side's compiled kernels share (solver/exact/_native.c and the files it
 * lists): buffers taken from their arguments by a table of names and kinds, the index
 * checks, the modular reductions and numpy's orders of summation.
 *
 * Arrays come through the buffer protocol (C-contiguous, 8-byte items), so the module
 * needs only Python's headers to build, not numpy's.  Every index is checked against its
 * array before the loops run: a bad call raises ValueError instead of reading past an
 * array.
 */
#ifndef CBJ_NATIVE_H
#define CBJ_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    int held;
    Py_ssize_t shape[2]; /* a borrowed buffer's shape (see borrow) */
} Buffer;

/* A Buffer over memory the kernel holds itself (release leaves it alone): `count` 8-byte
 * items, as `rows` x `columns` where rows > 0, else one-dimensional. */
static inline void
borrow(Buffer *buffer, const void *data, Py_ssize_t count, Py_ssize_t rows, Py_ssize_t columns)
{
    memset(buffer, 0, sizeof *buffer);
    buffer->view.buf = (void *)data;
    buffer->view.len = 8 * count;
    buffer->view.itemsize = 8;
    buffer->view.ndim = rows > 0 ? 2 : 1;
    buffer->shape[0] = rows > 0 ? rows : count;
    buffer->shape[1] = columns;
    buffer->view.shape = buffer->shape;
}

/* Take a C-contiguous buffer of 8-byte items of the format kind ('d' float, 'q' int64). */
static inline int
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

static inline void
release(Buffer *buffers, int count)
{
    for (int i = 0; i < count; i++) {
        if (buffers[i].held) {
            PyBuffer_Release(&buffers[i].view);
            buffers[i].held = 0;
        }
    }
}

static inline Py_ssize_t
length(const Buffer *buffer)
{
    return buffer->view.len / 8;
}

/* Whether every entry of an int64 array lies in [0, bound). */
static inline int
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
static inline double
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
static inline int
shape2(const Buffer *buffer, Py_ssize_t *rows, Py_ssize_t *columns)
{
    *rows = buffer->view.ndim == 2 ? buffer->view.shape[0] : 0;
    *columns = buffer->view.ndim == 2 ? buffer->view.shape[1] : 0;
    return buffer->view.ndim == 2 && *rows * *columns == length(buffer);
}

/* The three sizes of a three-dimensional buffer; 0 (and every size 0) if it is not one. */
static inline int
shape3(const Buffer *buffer, Py_ssize_t *first, Py_ssize_t *second, Py_ssize_t *third)
{
    int three = buffer->view.ndim == 3;
    *first = three ? buffer->view.shape[0] : 0;
    *second = three ? buffer->view.shape[1] : 0;
    *third = three ? buffer->view.shape[2] : 0;
    return three && *first * *second * *third == length(buffer);
}

/* Whether each of `count` moduli lies in [2, bound]. */
static inline int
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

/* One argument of a kernel: its name (for errors), its kind ('q' an int64 array, 'd' a
 * float64 array, 'n' an integer, 'f' a float, 'O' any object) and, for an array, whether
 * the kernel writes it. */
typedef struct {
    const char *name;
    char kind;
    int writable;
} Arg;

/* A scalar argument, as its Arg's kind says. */
typedef union {
    long long integer;
    double real;
    PyObject *object;
} Scalar;

/* Take a kernel's positional arguments as `spec` lists them: each array into buffers[i]
 * (checked as take_buffer checks it), each scalar into scalars[i] (NULL when there are
 * none).  0, or -1 with an exception set and nothing held. */
static inline int
take_args(PyObject *args, const Arg *spec, int count, Buffer *buffers, Scalar *scalars)
{
    memset(buffers, 0, sizeof(Buffer) * (size_t)count);
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != count) {
        PyErr_Format(PyExc_TypeError, "takes %d positional arguments", count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *item = PyTuple_GET_ITEM(args, i);
        const char kind = spec[i].kind;
        int failed = 0;
        if (kind == 'q' || kind == 'd') {
            failed = take_buffer(item, &buffers[i], spec[i].writable, kind, spec[i].name) < 0;
        } else if (kind == 'n') {
            scalars[i].integer = PyLong_AsLongLong(item);
            failed = scalars[i].integer == -1 && PyErr_Occurred();
        } else if (kind == 'f') {
            scalars[i].real = PyFloat_AsDouble(item);
            failed = scalars[i].real == -1.0 && PyErr_Occurred();
        } else {
            scalars[i].object = item;
        }
        if (failed) {
            release(buffers, count);
            return -1;
        }
    }
    return 0;
}

/* Release the buffers and raise ValueError(problem); NULL, for a kernel to return. */
static inline PyObject *
refuse(Buffer *buffers, int count, const char *problem)
{
    release(buffers, count);
    PyErr_SetString(PyExc_ValueError, problem);
    return NULL;
}

/* Shoes priced together differ by fewer cards than this of each value (shoe_groups' keys). */
#define MOST_SHIFTED (1 << 15)

/* The dealer's float tail's arrays, in dealer_float's order of arguments (see _fold.c). */
enum { T_OUT, T_FINAL, T_LENGTHS, T_WIDE, T_FALLING, T_COLUMN, T_STARTS, T_RESULTS, N_TAIL };

/* The pieces solve_float puts together (each documented where it is defined). */
int shoe_groups_core(const int64_t *counts, Py_ssize_t n, Py_ssize_t stride,
                     int64_t *parents, int64_t *held, int64_t *bounds, int64_t *group,
                     int64_t *sizes); /* _shoes.c */
Py_ssize_t distinct_sizes_core(const int64_t *sizes, Py_ssize_t n, int64_t *distinct,
                               int64_t *column, const char **problem); /* _shoes.c */
const char *dealer_float_grouped(const Buffer *ways, PyObject *folds, const int64_t *parents,
                                 const int64_t *held, const int64_t *bounds, Py_ssize_t stride,
                                 const int64_t *group_sizes, const Buffer *table,
                                 const Buffer *take, const Buffer *tail, Py_ssize_t width);
                                 /* _fold.c */

/* The kernels, each in the file named (see its comment there). */
PyObject *kernel_dealer_ends(PyObject *self, PyObject *args);    /* _ends.c */
PyObject *kernel_final_hands(PyObject *self, PyObject *args);    /* _ends.c */
PyObject *kernel_fold(PyObject *self, PyObject *args);           /* _fold.c */
PyObject *kernel_dealer_float(PyObject *self, PyObject *args);   /* _fold.c */
PyObject *kernel_dealer_residues(PyObject *self, PyObject *args); /* _modular.c */
PyObject *kernel_extend(PyObject *self, PyObject *args);         /* _modular.c */
PyObject *kernel_stand_modular(PyObject *self, PyObject *args);  /* _modular.c */
PyObject *kernel_player_exact(PyObject *self, PyObject *args);   /* _modular.c */
PyObject *kernel_solve_hands(PyObject *self, PyObject *args);    /* _player.c */
PyObject *kernel_hand_space(PyObject *self, PyObject *args);     /* _player.c */
PyObject *kernel_rows(PyObject *self, PyObject *args);           /* _player.c */
PyObject *kernel_chart_walk(PyObject *self, PyObject *args);     /* _player.c */
PyObject *kernel_solve_float(PyObject *self, PyObject *args);    /* _player.c */
PyObject *kernel_shoe_summary(PyObject *self, PyObject *args);   /* _shoes.c */
PyObject *kernel_shoe_groups(PyObject *self, PyObject *args);    /* _shoes.c */
PyObject *kernel_distinct_sizes(PyObject *self, PyObject *args); /* _shoes.c */

#endif
