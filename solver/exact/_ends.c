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

/* 32**10: the place of the Bonus card's digit while drawing, and of the length's digit
 * (then the result's, 32 times higher) once the hand ends. */
#define TOP ((int64_t)1 << 50)

/* A dealer hand still drawing: its code (Bonus card and own cards as base-32 digits), the
 * drawing orders that reach it, its hard total and whether it holds an ace. */
typedef struct {
    int64_t code, orders, hard, ace;
} Drawing;

/* A final hand: its code (result, length, D_1 ... D_10), drawing orders, Bonus card. */
typedef struct {
    int64_t code, orders, bonus;
} Ended;

/* Open addressing: slot s holds an index + 1 into the hands it keys (0: empty). */
typedef struct {
    Py_ssize_t *slots;
    size_t mask;
} Table;

static int
table_for(Table *t, Py_ssize_t most)
{
    size_t size = 16;
    while (size < 2 * (size_t)most) {
        size *= 2;
    }
    t->mask = size - 1;
    t->slots = PyMem_Calloc(size, sizeof(Py_ssize_t));
    return t->slots ? 0 : -1;
}

/* A slot for a code and Bonus card: splitmix64's finaliser, so that codes differing only
 * in their high digits (aces are 45 bits up) spread over the low bits the mask keeps. */
static inline size_t
spread(int64_t code, int64_t bonus)
{
    uint64_t x = (uint64_t)code + (uint64_t)bonus * 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return (size_t)(x ^ (x >> 31));
}

/* Make *items hold at least `need` entries of `size` bytes (room: how many it holds now):
 * 0, or -1 out of memory. */
static int
grow(void **items, Py_ssize_t *room, Py_ssize_t need, size_t size)
{
    if (need <= *room) {
        return 0;
    }
    Py_ssize_t more = *room > 0 ? *room : 64;
    while (more < need) {
        more *= 2;
    }
    void *made = PyMem_Realloc(*items, size * (size_t)more);
    if (!made) {
        return -1;
    }
    *items = made;
    *room = more;
    return 0;
}

/* The final hands' table made again for at least `most` hands, from the `ends` so far. */
static int
rehash(Table *finals, const Ended *ended, Py_ssize_t ends, Py_ssize_t most)
{
    PyMem_Free(finals->slots);
    if (table_for(finals, most) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < ends; i++) {
        size_t slot = spread(ended[i].code, ended[i].bonus) & finals->mask;
        while (finals->slots[slot]) {
            slot = (slot + 1) & finals->mask;
        }
        finals->slots[slot] = i + 1;
    }
    return 0;
}

/* The drawing hands one card further, merged by code; the hands that end go to `ended`
 * (merged by code and Bonus card in `finals`).  Returns the next level's count, or -1
 * out of memory. */
static Py_ssize_t
draw_level(const Drawing *from, Py_ssize_t count, Drawing *to, Ended *ended,
           Py_ssize_t *ends, Table *finals, const int64_t *outcomes, int64_t depth)
{
    Table next;
    if (table_for(&next, 10 * count) < 0) {
        return -1;
    }
    Py_ssize_t made = 0;
    const int64_t stage = depth < 3 ? depth : 3;
    for (Py_ssize_t i = 0; i < count; i++) {
        const Drawing *hand = &from[i];
        const int64_t bonus = hand->code / TOP;
        for (int64_t v = 1; v <= 10; v++) {
            const int64_t code = hand->code + ((int64_t)1 << (5 * (10 - v)));
            const int64_t hard = hand->hard + v, ace = hand->ace | (v == 1);
            const int64_t final = outcomes[((bonus * 4 + stage) * 32 + hard) * 2 + ace];
            if (final == 0) {
                continue; /* bust is 1 minus the rest: not carried */
            }
            const int64_t key = final > 0 ? code % TOP + (final * 32 + depth) * TOP : code;
            Table *table = final > 0 ? finals : &next;
            size_t slot = spread(key, final > 0 ? bonus : 0) & table->mask;
            for (;; slot = (slot + 1) & table->mask) {
                const Py_ssize_t at = table->slots[slot] - 1;
                if (at < 0) {
                    if (final > 0) {
                        ended[*ends] = (Ended){key, hand->orders, bonus};
                        table->slots[slot] = ++*ends;
                    } else {
                        to[made] = (Drawing){code, hand->orders, hard, ace};
                        table->slots[slot] = ++made;
                    }
                    break;
                }
                if (final > 0 && ended[at].code == key && ended[at].bonus == bonus) {
                    ended[at].orders += hand->orders;
                    break;
                }
                if (final < 0 && to[at].code == code) {
                    to[at].orders += hand->orders;
                    break;
                }
            }
        }
    }
    PyMem_Free(next.slots);
    return made;
}

/* Sort n final hands by code: LSD radix, 11 bits a pass over the codes' 60 (stable). */
static int
sort_ended(Ended *hands, Py_ssize_t n)
{
    Ended *other = PyMem_Malloc(sizeof(Ended) * (size_t)(n ? n : 1));
    Py_ssize_t *count = PyMem_Malloc(sizeof(Py_ssize_t) * 2048);
    if (!other || !count) {
        PyMem_Free(other);
        PyMem_Free(count);
        return -1;
    }
    for (int shift = 0; shift < 60; shift += 11) {
        memset(count, 0, sizeof(Py_ssize_t) * 2048);
        for (Py_ssize_t i = 0; i < n; i++) {
            count[(hands[i].code >> shift) & 2047]++;
        }
        Py_ssize_t at = 0;
        for (int d = 0; d < 2048; d++) {
            const Py_ssize_t these = count[d];
            count[d] = at;
            at += these;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            other[count[(hands[i].code >> shift) & 2047]++] = hands[i];
        }
        memcpy(hands, other, sizeof(Ended) * (size_t)n);
    }
    PyMem_Free(other);
    PyMem_Free(count);
    return 0;
}

/* Write the final hands, Bonus card by Bonus card, sorted by code: 0, or -1 out of memory
 * (cap too small: -2). */
static int
write_finals(Ended *ended, Py_ssize_t ends, int64_t *codes, int64_t *ways, int64_t *starts,
             int64_t *depths, Py_ssize_t cap)
{
    if (ends > cap) {
        return -2;
    }
    if (sort_ended(ended, ends) < 0) {
        return -1;
    }
    Py_ssize_t at = 0;
    for (int64_t b = 0; b < 10; b++) {
        starts[b] = at;
        depths[b] = 0;
        for (Py_ssize_t i = 0; i < ends; i++) { /* stable: each card's hands stay sorted */
            if (ended[i].bonus == b) {
                codes[at] = ended[i].code;
                ways[at] = ended[i].orders;
                const int64_t length = ended[i].code / TOP % 32;
                depths[b] = length > depths[b] ? length : depths[b];
                at++;
            }
        }
    }
    starts[10] = at;
    return 0;
}

enum { H_OUTCOMES, H_CODES, H_WAYS, H_STARTS, H_DEPTHS, N_HANDS };

/*
 * final_hands(outcomes, codes, ways, starts, depths) -> count
 *
 * solver/exact/dealer_hands.py's final_hands from its table of outcomes
 * (outcomes[bonus - 1, min(cards, 3), hard total, ace]: the result's index, -1 while
 * the dealer draws, 0 bust; (10, 4, 32, 2)): every dealer hand drawn one card at a time
 * for the ten Bonus cards at once, equal hands merged (their drawing orders added), until
 * none draws; the final hands of Bonus card b (its code: result, length, D_1 ... D_10 in
 * base 32) into codes and ways from starts[b] to starts[b + 1], sorted by code, and the
 * most cards any holds into depths[b].  Returns how many hands in all, or -1 where codes
 * and ways cannot hold them (the caller tries again with more room).
 */
PyObject *
kernel_final_hands(PyObject *self, PyObject *args)
{
    static const Arg spec[N_HANDS] = {{"outcomes", 'q', 0}, {"codes", 'q', 1},
                                      {"ways", 'q', 1},     {"starts", 'q', 1},
                                      {"depths", 'q', 1}};
    Buffer b[N_HANDS];
    (void)self;
    if (take_args(args, spec, N_HANDS, b, NULL) < 0) {
        return NULL;
    }
    const Py_ssize_t cap = length(&b[H_CODES]);
    const int64_t *outcomes = b[H_OUTCOMES].view.buf;
    if (length(&b[H_OUTCOMES]) != 10 * 4 * 32 * 2 || length(&b[H_WAYS]) != cap ||
        length(&b[H_STARTS]) != 11 || length(&b[H_DEPTHS]) != 10) {
        return refuse(b, N_HANDS, "outcomes must be (10, 4, 32, 2), starts 11, depths 10");
    }
    for (Py_ssize_t i = 0; i < length(&b[H_OUTCOMES]); i++) {
        if (outcomes[i] < -1 || outcomes[i] > 31 || (i % 64 >= 44 && outcomes[i] != 0)) {
            return refuse(b, N_HANDS, "outcomes must be results below 32, bust over 21");
        }
    }
    /* A hand ends by 21 aces at the latest (its hard total stays below 22): at most 22
     * levels, each at most ten times the one before, merged; the arrays grow as needed. */
    Py_ssize_t count = 10, ends = 0, ended_room = 0, rooms[2] = {10, 0};
    Drawing *levels[2] = {PyMem_Malloc(sizeof(Drawing) * 10), NULL};
    Ended *ended = NULL;
    Table finals = {NULL, 0};
    int failed = !levels[0], at = 0;
    for (int64_t v = 0; v < 10 && !failed; v++) {
        levels[0][v] = (Drawing){v * TOP, 1, 0, 0};
    }
    for (int64_t depth = 1; count > 0 && !failed; depth++, at = 1 - at) {
        const Py_ssize_t most = ends + 10 * count;
        if (most > cap) {
            failed = -2; /* more hands than cap: the caller gives more room */
            break;
        }
        failed = grow((void **)&levels[1 - at], &rooms[1 - at], 10 * count, sizeof(Drawing)) ||
                 grow((void **)&ended, &ended_room, most, sizeof(Ended)) ||
                 (2 * most > (Py_ssize_t)finals.mask && rehash(&finals, ended, ends, most));
        if (!failed) {
            count = draw_level(levels[at], count, levels[1 - at], ended, &ends, &finals,
                               outcomes, depth);
            failed = count < 0;
        }
    }
    if (!failed) {
        failed = write_finals(ended, ends, b[H_CODES].view.buf, b[H_WAYS].view.buf,
                              b[H_STARTS].view.buf, b[H_DEPTHS].view.buf, cap);
    }
    PyMem_Free(levels[0]);
    PyMem_Free(levels[1]);
    PyMem_Free(ended);
    PyMem_Free(finals.slots);
    release(b, N_HANDS);
    if (failed == -1) {
        return PyErr_NoMemory();
    }
    return PyLong_FromSsize_t(failed ? -1 : ends);
}
