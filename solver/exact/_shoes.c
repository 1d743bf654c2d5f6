/*
 * The shoes the dealer is priced against: their sizes and extremes (shoe_summary), their
 * groups value by value for the fold (shoe_groups), and their distinct sizes
 * (distinct_sizes).  Twins: solver/exact/_numpy.py.
 */
#include "_native.h"

/*
 * shoe_summary(counts, sizes, least, most)
 *
 * For shoes as rows of ten counts: each shoe's number of cards, and the fewest and the
 * most cards of each value any shoe holds (numpy's counts.sum(axis=1), counts.min(axis=0)
 * and counts.max(axis=0), in one pass; exact integers).  At least one shoe.
 */
PyObject *
kernel_shoe_summary(PyObject *self, PyObject *args)
{
    static const Arg spec[4] = {
        {"counts", 'q', 0},
        {"sizes", 'q', 1},
        {"least", 'q', 1},
        {"most", 'q', 1},
    };
    Buffer buffers[4];
    (void)self;
    if (take_args(args, spec, 4, buffers, NULL) < 0) {
        return NULL;
    }
    const Py_ssize_t n = length(&buffers[1]);
    if (n < 1 || length(&buffers[0]) != 10 * n || length(&buffers[2]) != 10 ||
        length(&buffers[3]) != 10) {
        return refuse(buffers, 4, "counts must be (shoes, 10), shoes > 0, sizes theirs");
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

/* shoe_groups' work for n > 0 shoes whose counts lie in [0, 2**15), level f's parents,
 * held and bounds at f * stride, f * stride and f * (stride + 1) (stride at least n): 0,
 * or -1 out of memory (no exception set). */
int
shoe_groups_core(const int64_t *counts, Py_ssize_t n, Py_ssize_t stride, int64_t *parents,
                 int64_t *held, int64_t *bounds, int64_t *group, int64_t *sizes)
{
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
        return -1;
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
        int64_t *parent = parents + f * stride, *count = held + f * stride;
        int64_t *bound = bounds + f * (stride + 1);
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
    return 0;
}

PyObject *
kernel_shoe_groups(PyObject *self, PyObject *args)
{
    static const Arg spec[N_GROUPS] = {
        {"counts", 'q', 0},
        {"parents", 'q', 1},
        {"held", 'q', 1},
        {"bounds", 'q', 1},
        {"final", 'q', 1},
        {"sizes", 'q', 1},
    };
    Buffer buffers[N_GROUPS];
    (void)self;
    if (take_args(args, spec, N_GROUPS, buffers, NULL) < 0) {
        return NULL;
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
        return refuse(buffers, N_GROUPS, problem);
    }
    int failed = shoe_groups_core(counts, n, n, buffers[G_PARENTS].view.buf,
                                  buffers[G_HELD].view.buf, buffers[G_BOUNDS].view.buf,
                                  buffers[G_FINAL].view.buf, buffers[G_SIZES].view.buf);
    release(buffers, N_GROUPS);
    if (failed) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

/* distinct_sizes' work for n > 0 sizes: the count, or -1 out of memory (no exception set)
 * or with *problem set for sizes out of range. */
Py_ssize_t
distinct_sizes_core(const int64_t *sizes, Py_ssize_t n, int64_t *distinct, int64_t *column,
                    const char **problem)
{
    int64_t least = sizes[0], most = least;
    for (Py_ssize_t s = 0; s < n; s++) {
        least = sizes[s] < least ? sizes[s] : least;
        most = sizes[s] > most ? sizes[s] : most;
    }
    if (least < 0 || most - least >= (1 << 20)) {
        *problem = "sizes must be non-negative and span fewer than 2**20 values";
        return -1;
    }
    Py_ssize_t *rank = PyMem_Calloc((size_t)(most - least + 1), sizeof(Py_ssize_t));
    if (!rank) {
        return -1;
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
    return count;
}

/*
 * distinct_sizes(sizes, distinct, column) -> count
 *
 * np.unique(sizes, return_inverse=True) by counting (shoe sizes span a few values): the
 * distinct sizes in order into distinct[0..count), and each size's place among them into
 * column.  At least one size, all of them non-negative.
 */
PyObject *
kernel_distinct_sizes(PyObject *self, PyObject *args)
{
    static const Arg spec[3] = {
        {"sizes", 'q', 0},
        {"distinct", 'q', 1},
        {"column", 'q', 1},
    };
    Buffer buffers[3];
    (void)self;
    if (take_args(args, spec, 3, buffers, NULL) < 0) {
        return NULL;
    }
    const Py_ssize_t n = length(&buffers[0]);
    const int64_t *sizes = buffers[0].view.buf;
    int64_t *distinct = buffers[1].view.buf, *column = buffers[2].view.buf;
    if (n < 1 || length(&buffers[1]) != n || length(&buffers[2]) != n) {
        return refuse(buffers, 3, "sizes, distinct and column must be of one length, at least 1");
    }
    const char *problem = NULL;
    const Py_ssize_t count = distinct_sizes_core(sizes, n, distinct, column, &problem);
    release(buffers, 3);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    return count < 0 ? PyErr_NoMemory() : PyLong_FromSsize_t(count);
}
