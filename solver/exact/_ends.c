/*
 * The dealer's final hands ready to price by card value (dealer_ends, twin of
 * solver/exact/_numpy.py's; see solver/exact/dealer_hands.py, DealerEnds): built once per
 * rules and Bonus card, the first solve's set-up, here in one pass per card value
 * instead of a dozen numpy calls.
 */
#include "_native.h"

/* The stages' scratch: each hand's base-32 keys, where it first differs from the hand
 * before, and per stage the targets, their hands merged, places and first rows. */
typedef struct {
    int64_t *keys, *first_change, *drawn, *target, *merged, *first, *place_in, *place_out;
    Py_ssize_t *count;
} Ends;

/* One card value's fold (key column `width` - 1): hands of this stage (fc < width) in
 * order, each to its target (a hand of the next stage, fc < width - 1), written to
 * order/drawn by rank, then by the target's place (targets merging most hands first);
 * `stage` gets (columns, ranks, size). */
static void
fold_stage(Ends *e, Py_ssize_t n, int width, int64_t *order, int64_t *drawn,
           int64_t *widths, int64_t *stage)
{
    Py_ssize_t columns = 0, size = 0;
    for (Py_ssize_t h = 0; h < n; h++) {
        if (e->first_change[h] < width) {
            size += e->first_change[h] < width - 1;
            e->target[columns] = size - 1;
            e->drawn[columns] = e->keys[12 * h + width - 1];
            columns++;
        }
    }
    int64_t most = 0;
    for (Py_ssize_t t = 0; t < size; t++) {
        e->merged[t] = 0;
    }
    for (Py_ssize_t j = 0; j < columns; j++) {
        const int64_t t = e->target[j];
        e->first[t] = e->merged[t] == 0 ? j : e->first[t];
        e->merged[t]++;
        most = e->merged[t] > most ? e->merged[t] : most;
    }
    /* Places: targets by hands merged, most first, in order among equals (a counting
     * sort); then rank r holds the targets merging more than r hands: places 0, 1, ... */
    for (int64_t m = 0; m <= most + 1; m++) {
        e->count[m] = 0;
    }
    for (Py_ssize_t t = 0; t < size; t++) {
        e->count[e->merged[t]]++;
    }
    Py_ssize_t place = 0;
    for (int64_t m = most; m >= 1; m--) {
        const Py_ssize_t these = e->count[m];
        e->count[m] = place;
        place += these;
        widths[m - 1] = place; /* the targets merging at least m hands */
    }
    for (Py_ssize_t t = 0; t < size; t++) {
        e->place_out[t] = e->count[e->merged[t]]++;
    }
    Py_ssize_t start = 0;
    for (int64_t r = 0; r < most; r++) { /* each rank's first column, in e->count */
        e->count[r] = start;
        start += widths[r];
    }
    for (Py_ssize_t j = 0; j < columns; j++) {
        const int64_t t = e->target[j], at = e->count[j - e->first[t]] + e->place_out[t];
        order[at] = e->place_in[j];
        drawn[at] = e->drawn[j];
    }
    for (Py_ssize_t t = 0; t < size; t++) {
        e->place_in[t] = e->place_out[t];
    }
    stage[0] = columns;
    stage[1] = most;
    stage[2] = size;
}

enum { D_CODES, D_ORDER, D_DRAWN, D_WIDTHS, D_STAGES, D_FINAL, D_RESULTS, D_LENGTHS, N_ENDS };

/*
 * dealer_ends(codes, order, drawn, widths, stages, final, results, lengths) -> finals
 *
 * solver/exact/dealer_hands.py's _ends_of for n final hands coded in base 32 (result,
 * length, D_1, ..., D_10; sorted, distinct, every digit below 32): fold f (value 10 - f)
 * writes its columns' order and drawn counts into row f of order and drawn (n wide), its
 * ranks' widths into row f of widths, and (columns, ranks, size) into stages[f]; then
 * the last stage's hands' place, result and length into final, results and lengths.
 * Returns how many the last stage holds.  Exact integers: numpy's own.
 */
PyObject *
kernel_dealer_ends(PyObject *self, PyObject *args)
{
    static const Arg spec[N_ENDS] = {{"codes", 'q', 0},   {"order", 'q', 1},
                                     {"drawn", 'q', 1},   {"widths", 'q', 1},
                                     {"stages", 'q', 1},  {"final", 'q', 1},
                                     {"results", 'q', 1}, {"lengths", 'q', 1}};
    Buffer b[N_ENDS];
    (void)self;
    if (take_args(args, spec, N_ENDS, b, NULL) < 0) {
        return NULL;
    }
    const Py_ssize_t n = length(&b[D_CODES]);
    const int64_t *codes = b[D_CODES].view.buf;
    if (length(&b[D_ORDER]) != 10 * n || length(&b[D_DRAWN]) != 10 * n ||
        length(&b[D_WIDTHS]) != 10 * n || length(&b[D_STAGES]) != 30 ||
        length(&b[D_FINAL]) != n || length(&b[D_RESULTS]) != n || length(&b[D_LENGTHS]) != n) {
        return refuse(b, N_ENDS, "the outputs must be (10, n), (10, 3) and (n,) for n codes");
    }
    for (Py_ssize_t h = 0; h < n; h++) {
        if (codes[h] < 0 || (h > 0 && codes[h] <= codes[h - 1])) {
            return refuse(b, N_ENDS, "codes must be distinct, non-negative and sorted");
        }
    }
    Ends e;
    const size_t m = (size_t)(n ? n : 1);
    e.keys = PyMem_Malloc(8 * 12 * m);
    int64_t *scratch = PyMem_Malloc(8 * 7 * m);
    e.count = PyMem_Malloc(sizeof(Py_ssize_t) * (m + 2));
    if (!e.keys || !scratch || !e.count) {
        PyMem_Free(e.keys);
        PyMem_Free(scratch);
        PyMem_Free(e.count);
        release(b, N_ENDS);
        return PyErr_NoMemory();
    }
    e.first_change = scratch, e.drawn = scratch + m, e.target = scratch + 2 * m;
    e.merged = scratch + 3 * m, e.first = scratch + 4 * m, e.place_in = scratch + 5 * m;
    e.place_out = scratch + 6 * m;
    for (Py_ssize_t h = 0; h < n; h++) {
        int64_t change = h == 0 ? 0 : 12;
        for (int k = 0; k < 12; k++) {
            e.keys[12 * h + k] = (codes[h] >> (5 * (11 - k))) & 31;
            if (h > 0 && change == 12 && e.keys[12 * h + k] != e.keys[12 * (h - 1) + k]) {
                change = k;
            }
        }
        e.first_change[h] = change;
        e.place_in[h] = h;
    }
    int64_t *order = b[D_ORDER].view.buf, *drawn = b[D_DRAWN].view.buf;
    int64_t *widths = b[D_WIDTHS].view.buf, *stages = b[D_STAGES].view.buf;
    for (int f = 0; f < 10; f++) { /* values 10, 9, ..., 1: key columns 11 down to 2 */
        fold_stage(&e, n, 12 - f, order + f * n, drawn + f * n, widths + f * n, stages + 3 * f);
    }
    int64_t *final = b[D_FINAL].view.buf, *results = b[D_RESULTS].view.buf;
    int64_t *lengths = b[D_LENGTHS].view.buf;
    Py_ssize_t finals = 0;
    for (Py_ssize_t h = 0; h < n; h++) {
        if (e.first_change[h] < 2) {
            results[finals] = e.keys[12 * h];
            lengths[finals] = e.keys[12 * h + 1];
            final[finals] = e.place_in[finals];
            finals++;
        }
    }
    PyMem_Free(e.keys);
    PyMem_Free(scratch);
    PyMem_Free(e.count);
    release(b, N_ENDS);
    return PyLong_FromSsize_t(finals);
}
