/*
 * The simulator's compiled kernel, twin of solver/sim/_deal_numpy.py (optional: where it is
 * not built, solver/sim/kernel.py runs the numpy twin).
 *
 * play: deal and settle rounds on many lanes, each lane a shoe of its own, exactly as
 * solver/sim/deal.py's Shoes.draw and play_round do on numpy.  It is written from the rule
 * text like the rest of solver/sim/ and shares nothing with the exact side: every rule
 * comes in as an argument (the sim's own tables of hands, the player's and the dealer's
 * totals, the strategy, the dealer's stopping rule and naturals, the natural's strength
 * as a code), so a new reading
 * that the tables can express needs no change here, and one they cannot is played by numpy
 * (solver/sim/kernel.py decides).  Seat 1's index plays come in as data too: the rule
 * covering each (Bonus value, hand), and each rule's true count, side and play, read
 * against the lane's true count at the start of the round (solver/sim/deal.py's
 * IndexPlays and true_counts_of: the same integer arithmetic and one correctly rounded
 * division, so the same plays fire).
 *
 * Same rounds for the same seed: the random numbers are numpy's, drawn from the chunk's own
 * generator (PCG64 stepped here from its state, any other bit generator through its C
 * interface, the bits' capsule), one double per card in the order numpy's path draws them, lane
 * by lane in each step of the round (every seat's card, the Bonus card, each seat's draws
 * in turn, the dealer's), and picks each card with the same double arithmetic.  Per round
 * it writes each lane's sums of nets over the seats (for the caller's sums of squares,
 * taken by numpy as before) and adds the outcome counts.
 *
 * Arrays come through the buffer protocol (C-contiguous), so building needs Python's
 * headers only.  Every table index is checked before the loops run, and each card code as
 * it is dealt: a bad call raises ValueError instead of reading past an array.  Built with
 * -ffp-contract=off (setup.py), so a round's net is rounded as numpy rounds it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define CODES 52
#define VALUES 11 /* a value index 1..10; 0 unused */

/* numpy's bit generator interface (numpy/random/bitgen.h), reached through the capsule
 * ``Generator.bit_generator.capsule``: Generator.random fills its doubles with next_double,
 * one call each, so the doubles drawn here are the ones the numpy path draws. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *state);
    uint32_t (*next_uint32)(void *state);
    double (*next_double)(void *state);
    uint64_t (*next_raw)(void *state);
} bitgen_t;

enum { BLACKJACK, WIN, PUSH, LOSE };                  /* solver/sim/hands.py's order */
enum { BEATS_NOTHING, BEATS_MULTI_CARD_21, BEATS_NON_BLACKJACK }; /* natural strength */

typedef struct {
    Py_buffer view;
    int held;
} Buffer;

/* A C-contiguous buffer whose items are of ``kind``: 'q' int64, 'd' float64, 'b' bytes. */
static int
take(PyObject *obj, Buffer *buffer, int writable, char kind, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    buffer->held = 0;
    if (PyObject_GetBuffer(obj, &buffer->view, flags) < 0) {
        return -1;
    }
    buffer->held = 1;
    const char *format = buffer->view.format ? buffer->view.format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@' || format[0] == '|') {
        format++;
    }
    int ok;
    if (kind == 'b') {
        ok = buffer->view.itemsize == 1 &&
             (strcmp(format, "B") == 0 || strcmp(format, "?") == 0 || strcmp(format, "b") == 0);
    } else if (kind == 'd') {
        ok = buffer->view.itemsize == 8 && strcmp(format, "d") == 0;
    } else {
        ok = buffer->view.itemsize == 8 && (strcmp(format, "q") == 0 || strcmp(format, "l") == 0);
    }
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous %s array", name,
                     kind == 'b' ? "uint8 or bool" : kind == 'd' ? "float64" : "int64");
        return -1;
    }
    return 0;
}

static Py_ssize_t
items(const Buffer *buffer)
{
    return buffer->view.len / buffer->view.itemsize;
}

static int
within(const int64_t *values, Py_ssize_t n, int64_t low, int64_t high)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] < low || values[i] >= high) {
            return 0;
        }
    }
    return 1;
}

/* The lanes' shoes: Shoes.rows, next, start and running, with the size and the tags. */
typedef struct {
    uint8_t *rows;
    int64_t *next, *start, *running;
    const int64_t *tags; /* NULL: no count kept */
    int64_t size;
    bitgen_t *random; /* the chunk's generator: a double in [0, 1) per draw */
#ifdef __SIZEOF_INT128__
    int pcg; /* the generator is PCG64, stepped here: its state and increment */
    unsigned __int128 pcg_state, pcg_inc;
#endif
    int64_t failed; /* the lane whose round used every card, or -1 */
    int bad_card; /* a card code out of range was found in the rows */
    int64_t *tray; /* a continuous shuffler's tray: each lane's cards below it are fixed */
    int64_t buffer; /* the shuffler's tray size, or -1: a shoe dealt to a cut card */
} Shoes;

/* Shoe empty mid-round: the discards become the new shoe, the table keeps its cards
 * (Shoes._reshuffle_discards).  Returns 0, or -1 where the round has used every card.
 * It takes the lane's arrays, not the Shoes, so that the Shoes' address never leaves
 * play: the compiler then keeps the generator's state in registers across the byte
 * stores into the rows (a byte store could otherwise alias any escaped object). */
static __attribute__((noinline)) int
reshuffle_discards(uint8_t *row, int64_t *next, int64_t *start_at, int64_t *running_count,
                   const int64_t *tags, int64_t size, uint8_t *scratch)
{
    int64_t start = *start_at;
    if (start == 0) {
        return -1;
    }
    memcpy(scratch, row, (size_t)start);
    memmove(row, row + start, (size_t)(size - start));
    memcpy(row + size - start, scratch, (size_t)start);
    *next = size - start;
    *start_at = 0;
    if (tags) {
        int64_t running = 0;
        for (int64_t i = 0; i < size - start; i++) {
            running += tags[row[i]];
        }
        *running_count = running;
    }
    return 0;
}

#ifdef __SIZEOF_INT128__
/* PCG64's multiplier (O'Neill's XSL-RR 128/64, as numpy's PCG64 uses it) */
#define PCG_MULTIPLIER \
    (((unsigned __int128)0x2360ED051FC65DA4ULL << 64) | (unsigned __int128)0x4385DF649FCCF645ULL)
#endif

/* The next double in [0, 1), as Generator.random draws it: 53 high bits of the next
 * 64-bit output.  PCG64 is stepped here (numpy's pcg64_next64: advance, then rotate the
 * xor of the new state's halves); any other generator through its C interface. */
static inline __attribute__((always_inline)) double
next_double(Shoes *s)
{
#ifdef __SIZEOF_INT128__
    if (s->pcg) {
        s->pcg_state = s->pcg_state * PCG_MULTIPLIER + s->pcg_inc;
        uint64_t high = (uint64_t)(s->pcg_state >> 64), low = (uint64_t)s->pcg_state;
        unsigned rotate = (unsigned)(high >> 58);
        uint64_t x = high ^ low;
        uint64_t out = (x >> rotate) | (x << ((64 - rotate) & 63));
        return (double)(out >> 11) * (1.0 / 9007199254740992.0);
    }
#endif
    return s->random->next_double(s->random->state);
}

/* The next card of a lane's shoe: a random one of those not dealt (Shoes.draw). */
static inline __attribute__((always_inline)) int
draw(Shoes *s, int64_t lane, uint8_t *scratch, int *card)
{
    *card = 0; /* a valid code even when the draw fails: the round is dropped */
    int64_t at = s->next[lane];
    if (at >= s->size) {
        if (s->buffer >= 0) { /* a shuffler holds every card but the table's */
            s->failed = lane;
            return -1;
        }
        if (reshuffle_discards(s->rows + lane * s->size, &s->next[lane], &s->start[lane],
                               &s->running[lane], s->tags, s->size, scratch) < 0) {
            s->failed = lane;
            return -1;
        }
        at = s->next[lane];
    }
    int64_t here = lane * s->size + at;
    int64_t there = here;
    if (s->buffer < 0 || at >= s->tray[lane]) { /* past the tray: a random card */
        double u = next_double(s);
        there = here + (int64_t)(u * (double)(s->size - at));
    }
    uint8_t drawn = s->rows[there];
    if (drawn >= CODES) {
        s->bad_card = 1;
        return -1;
    }
    s->rows[there] = s->rows[here];
    s->rows[here] = drawn;
    s->next[lane] = at + 1;
    if (s->tags) {
        s->running[lane] += s->tags[drawn];
    }
    *card = drawn;
    return 0;
}

/* A continuous shuffler between rounds (Shoes._shuffle_back): the tray topped up to
 * ``buffer`` cards drawn from the machine, then the last round's cards taken back in; the
 * count restarts from them and ``start`` counts them.  Returns -1 on a bad card. */
static int
shuffle_back(Shoes *s, int64_t lane, uint8_t *scratch)
{
    int64_t k = s->next[lane];
    int64_t end = k + s->buffer < s->size ? k + s->buffer : s->size;
    uint8_t *row = s->rows + lane * s->size;
    int64_t first = s->tray[lane] > k ? s->tray[lane] : k;
    for (int64_t at = first; at < end; at++) {
        double u = next_double(s);
        int64_t there = at + (int64_t)(u * (double)(s->size - at));
        uint8_t drawn = row[there];
        row[there] = row[at];
        row[at] = drawn;
    }
    if (s->tags) {
        int64_t running = 0;
        for (int64_t i = 0; i < k; i++) {
            if (row[i] >= CODES) {
                s->bad_card = 1;
                return -1;
            }
            running += s->tags[row[i]];
        }
        s->running[lane] = running;
    }
    memcpy(scratch, row, (size_t)k);
    memmove(row, row + k, (size_t)(s->size - k));
    memcpy(row + s->size - k, scratch, (size_t)k);
    s->tray[lane] = end - k;
    s->next[lane] = 0;
    s->start[lane] = k;
    return 0;
}

enum {
    ROWS, NEXT, START, RUNNING, TAGS, VALUE_OF, BONUS_TIER, PAIR, STEP, BEST, DEALER_BEST,
    CARDS_IN_21, HIT, DRAWS, NATURAL, INDEX_PLAY, INDEX_AT, INDEX_AT_LEAST, INDEX_HIT,
    MAIN_PAY, BONUS_PAY, JOINT, SUMS, SEEN, TRAY, N_PLAY
};

/* Seat 1's index plays (NULL rule: none), and each lane's true count this round. */
typedef struct {
    const int64_t *rule;      /* by (Bonus value, hand): the rule that covers it, or -1 */
    const double *at;         /* each rule's true count */
    const uint8_t *at_least;  /* each rule's side: fires at its true count and above, or below */
    const uint8_t *hits;      /* each rule's play: hit, or stand */
    const double *true_count; /* each lane's, as the round begins */
} Plays;

/* Whether seat 1 hits ``cell`` (Bonus value * states + hand) on ``lane``: its index play
 * where one covers the cell and fires, else the strategy's ``hit`` (deal.IndexPlays.hits). */
static inline int
index_hits(const Plays *p, const uint8_t *hit, int64_t cell, int64_t lane)
{
    int64_t r = p->rule[cell];
    if (r >= 0) {
        double count = p->true_count[lane], at = p->at[r];
        if (p->at_least[r] ? count >= at : count <= at) {
            return p->hits[r] != 0;
        }
    }
    return hit[cell] != 0;
}

static PyObject *
play(PyObject *self, PyObject *args)
{
    PyObject *objects[N_PLAY], *bits, *pcg, *capsule = NULL;
    long long cut, beats, seats, drift, lanes, rounds, batches, buffer;
    double ratio;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOLOOOOOOOOOOLLOOOOLOOdOOLLLOOOOL", &objects[ROWS],
                          &objects[NEXT], &objects[START], &objects[RUNNING], &objects[TAGS],
                          &cut, &objects[VALUE_OF], &objects[BONUS_TIER], &objects[PAIR],
                          &objects[STEP], &objects[BEST], &objects[DEALER_BEST],
                          &objects[CARDS_IN_21], &objects[HIT],
                          &objects[DRAWS], &objects[NATURAL], &beats, &seats,
                          &objects[INDEX_PLAY], &objects[INDEX_AT], &objects[INDEX_AT_LEAST],
                          &objects[INDEX_HIT], &drift, &objects[MAIN_PAY], &objects[BONUS_PAY], &ratio, &bits, &pcg,
                          &lanes, &rounds, &batches, &objects[JOINT], &objects[SUMS],
                          &objects[SEEN], &objects[TRAY], &buffer)) {
        return NULL;
    }
    static const char kinds[N_PLAY] = {'b', 'q', 'q', 'q', 'q', 'q', 'q', 'b', 'q', 'q',
                                       'q', 'q', 'b', 'b', 'b', 'q', 'd', 'b', 'b', 'd',
                                       'd', 'q', 'd', 'q', 'q'};
    static const int writable[N_PLAY] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    static const char *names[N_PLAY] = {
        "rows", "next", "start", "running", "tags", "value_of", "bonus_tier", "pair", "step",
        "best", "dealer_best", "cards_in_21", "hit", "draws", "natural", "index_play",
        "index_at", "index_at_least", "index_hit", "main_pay", "bonus_pay", "joint", "sums",
        "seen", "tray"};
    Buffer b[N_PLAY];
    for (int i = 0; i < N_PLAY; i++) {
        b[i].held = 0;
    }
    const char *problem = NULL;
    for (int i = 0; i < N_PLAY && !problem; i++) {
        int optional = i == TAGS || i == SEEN || (i >= INDEX_PLAY && i <= INDEX_HIT);
        if (optional && objects[i] == Py_None) {
            continue;
        }
        if (take(objects[i], &b[i], writable[i], kinds[i], names[i]) < 0) {
            problem = "";
        }
    }
    if (!problem) {
        /* hands: 0 .. bust, the hand space's states; bust is the last */
        Py_ssize_t states = items(&b[CARDS_IN_21]);
        const int64_t *n_next = b[NEXT].view.buf, *n_start = b[START].view.buf;
        Py_ssize_t size = lanes > 0 ? items(&b[ROWS]) / lanes : 0;
        int indexed = b[INDEX_PLAY].held; /* seat 1 has index plays: all four arrays */
        Py_ssize_t rules = b[INDEX_AT].held ? items(&b[INDEX_AT]) : 0;
        if (lanes < 1 || seats < 1 || rounds < 0 || batches < 1 || states < 2 ||
            beats < BEATS_NOTHING || beats > BEATS_NON_BLACKJACK || size < 1 || cut < -1 ||
            cut > size || buffer < -1 || buffer > size) {
            problem = "bad sizes or settings";
        } else if (b[INDEX_AT].held != indexed || b[INDEX_AT_LEAST].held != indexed ||
                   b[INDEX_HIT].held != indexed) {
            problem = "give all four index arrays or none";
        } else if (indexed && !b[TAGS].held) {
            problem = "index plays need the count kept: give tags";
        } else if (items(&b[ROWS]) != lanes * size || items(&b[NEXT]) < lanes ||
                   items(&b[TRAY]) < lanes ||
                   items(&b[START]) < lanes || items(&b[RUNNING]) < lanes ||
                   (b[TAGS].held && items(&b[TAGS]) != CODES) ||
                   items(&b[VALUE_OF]) != CODES || items(&b[BONUS_TIER]) != CODES * CODES ||
                   items(&b[PAIR]) != CODES * CODES || items(&b[STEP]) != states * VALUES ||
                   items(&b[BEST]) != VALUES * states ||
                   items(&b[DEALER_BEST]) != VALUES * states || items(&b[HIT]) != VALUES * states ||
                   items(&b[DRAWS]) != VALUES * states ||
                   items(&b[NATURAL]) != VALUES * states || items(&b[MAIN_PAY]) != 4 ||
                   items(&b[BONUS_PAY]) < 1 ||
                   items(&b[JOINT]) != seats * 4 * items(&b[BONUS_PAY]) ||
                   items(&b[SUMS]) != batches * 3 * lanes ||
                   (b[SEEN].held && items(&b[SEEN]) != batches * 4 * lanes) ||
                   (indexed && (items(&b[INDEX_PLAY]) != VALUES * states ||
                                items(&b[INDEX_AT_LEAST]) != rules ||
                                items(&b[INDEX_HIT]) != rules))) {
            problem = "the arrays' sizes do not match";
        } else if (!within(b[VALUE_OF].view.buf, CODES, 1, VALUES) ||
                   !within(b[BONUS_TIER].view.buf, CODES * CODES, 0, items(&b[BONUS_PAY])) ||
                   !within(b[STEP].view.buf, states * VALUES, 0, states) ||
                   !within(n_next, lanes, 0, size + 1) || !within(n_start, lanes, 0, size + 1) ||
                   !within(b[TRAY].view.buf, lanes, 0, size + 1) ||
                   (indexed && !within(b[INDEX_PLAY].view.buf, VALUES * states, -1, rules))) {
            problem = "an index is out of range";
        } else if (!(capsule = PyObject_GetAttrString(bits, "capsule")) ||
                   !PyCapsule_IsValid(capsule, "BitGenerator")) {
            PyErr_Clear();
            problem = "bits must be a numpy bit generator";
        }
    }
    if (problem) {
        if (*problem) {
            PyErr_SetString(PyExc_ValueError, problem);
        }
        Py_XDECREF(capsule);
        for (int i = 0; i < N_PLAY; i++) {
            if (b[i].held) {
                PyBuffer_Release(&b[i].view);
            }
        }
        return NULL;
    }

    const int64_t states = (int64_t)items(&b[CARDS_IN_21]), bust = states - 1;
    Shoes s = {.rows = b[ROWS].view.buf,
               .next = b[NEXT].view.buf,
               .start = b[START].view.buf,
               .running = b[RUNNING].view.buf,
               .tags = b[TAGS].held ? b[TAGS].view.buf : NULL,
               .size = (int64_t)(items(&b[ROWS]) / lanes),
               .random = PyCapsule_GetPointer(capsule, "BitGenerator"),
               .failed = -1,
               .bad_card = 0,
               .tray = b[TRAY].view.buf,
               .buffer = buffer};
    unsigned long long words[4] = {0, 0, 0, 0};
    if (pcg != Py_None) { /* (state high, state low, increment high, increment low) */
#ifdef __SIZEOF_INT128__
        if (!PyArg_ParseTuple(pcg, "KKKK", &words[0], &words[1], &words[2], &words[3])) {
            Py_DECREF(capsule);
            for (int i = 0; i < N_PLAY; i++) {
                if (b[i].held) {
                    PyBuffer_Release(&b[i].view);
                }
            }
            return NULL;
        }
        s.pcg = 1;
        s.pcg_state = ((unsigned __int128)words[0] << 64) | words[1];
        s.pcg_inc = ((unsigned __int128)words[2] << 64) | words[3];
#endif
    }
    const int64_t *value_of = b[VALUE_OF].view.buf, *tier = b[BONUS_TIER].view.buf;
    const int64_t *step = b[STEP].view.buf, *best = b[BEST].view.buf;
    const int64_t *dealer_best = b[DEALER_BEST].view.buf;
    const int64_t *cards_in_21 = b[CARDS_IN_21].view.buf;
    const uint8_t *pair = b[PAIR].view.buf, *hit = b[HIT].view.buf;
    const uint8_t *draws = b[DRAWS].view.buf, *natural = b[NATURAL].view.buf;
    const double *main_pay = b[MAIN_PAY].view.buf, *bonus_pay = b[BONUS_PAY].view.buf;
    const int64_t bonus_kinds = (int64_t)items(&b[BONUS_PAY]); /* Bonus outcomes: tiers, lose */
    int64_t *joint = b[JOINT].view.buf, *seen = b[SEEN].held ? b[SEEN].view.buf : NULL;
    double *sums = b[SUMS].view.buf;

    size_t cells = (size_t)(seats * lanes);
    int *own = PyMem_Malloc(cells * sizeof(int));
    int64_t *hand = PyMem_Malloc(cells * sizeof(int64_t));
    uint8_t *blackjack = PyMem_Malloc(cells);
    int64_t *dealer = PyMem_Malloc((size_t)lanes * sizeof(int64_t));
    int *bonus = PyMem_Malloc((size_t)lanes * sizeof(int));
    int64_t *bonus_value = PyMem_Malloc((size_t)lanes * sizeof(int64_t));
    int64_t *active = PyMem_Malloc((size_t)lanes * sizeof(int64_t));
    uint8_t *scratch = PyMem_Malloc((size_t)s.size);
    double *true_count = PyMem_Malloc((size_t)lanes * sizeof(double));
    Plays plays = {.rule = b[INDEX_PLAY].held ? b[INDEX_PLAY].view.buf : NULL,
                   .at = b[INDEX_AT].held ? b[INDEX_AT].view.buf : NULL,
                   .at_least = b[INDEX_AT_LEAST].held ? b[INDEX_AT_LEAST].view.buf : NULL,
                   .hits = b[INDEX_HIT].held ? b[INDEX_HIT].view.buf : NULL,
                   .true_count = true_count};
    long long played = 0, batch = 0;
    int failed = 0;
    if (!own || !hand || !blackjack || !dealer || !bonus || !bonus_value || !active ||
        !scratch || !true_count) {
        PyErr_NoMemory();
        failed = 1;
    }

    Py_BEGIN_ALLOW_THREADS;
    while (!failed && played < rounds && batch < batches) {
        int64_t n = rounds - played < lanes ? rounds - played : lanes;
        for (int64_t lane = 0; lane < n && buffer >= 0 && !failed; lane++) {
            failed = shuffle_back(&s, lane, scratch); /* a continuous shuffler */
        }
        for (int64_t lane = 0; lane < n && buffer < 0; lane++) { /* Shoes.begin_round */
            int64_t head = s.next[lane];
            if (cut < 0 || head >= cut) {
                head = 0;
            }
            s.next[lane] = head;
            if (head == 0) {
                s.running[lane] = 0;
            }
            s.start[lane] = head;
        }
        if (plays.rule) { /* seat 1's true count (deal.true_counts_of), before the deal */
            for (int64_t lane = 0; lane < n; lane++) {
                int64_t seen_cards = s.start[lane];
                int64_t drift_free = 52 * s.running[lane] - drift * seen_cards;
                true_count[lane] = (double)drift_free / (double)(s.size - seen_cards);
            }
        }
        if (seen) { /* what a counter sees before the deal: running count, cards dealt */
            int64_t *row = seen + batch * 4 * lanes;
            memcpy(row, s.running, (size_t)n * sizeof(int64_t));
            memcpy(row + n, s.start, (size_t)n * sizeof(int64_t));
        }
        /* clause 3: one card per seat, then the Bonus card */
        for (int64_t seat = 0; seat < seats && !failed; seat++) {
            for (int64_t lane = 0; lane < n && !failed; lane++) {
                failed = draw(&s, lane, scratch, &own[seat * lanes + lane]);
            }
        }
        for (int64_t lane = 0; lane < n && !failed; lane++) {
            failed = draw(&s, lane, scratch, &bonus[lane]);
            bonus_value[lane] = value_of[bonus[lane]];
        }
        if (failed) {
            break;
        }
        /* clause 5: an ace and a ten-value card between own card and Bonus card;
         * clause 6: each seat in turn draws while its strategy says so */
        for (int64_t seat = 0; seat < seats && !failed; seat++) {
            int64_t *h = hand + seat * lanes;
            int64_t count = 0;
            for (int64_t lane = 0; lane < n; lane++) {
                int card = own[seat * lanes + lane];
                blackjack[seat * lanes + lane] = pair[card * CODES + bonus[lane]] != 0;
                h[lane] = step[value_of[card]];
                active[count] = lane;
                count += !blackjack[seat * lanes + lane];
            }
            int indexed = seat == 0 && plays.rule;
            while (count && !failed) {
                int64_t kept = 0;
                if (indexed) {
                    for (int64_t k = 0; k < count; k++) {
                        int64_t lane = active[k];
                        active[kept] = lane;
                        kept += index_hits(&plays, hit, bonus_value[lane] * states + h[lane], lane);
                    }
                } else {
                    for (int64_t k = 0; k < count; k++) {
                        int64_t lane = active[k];
                        active[kept] = lane; /* kept if it hits, without a branch */
                        kept += hit[bonus_value[lane] * states + h[lane]] != 0;
                    }
                }
                count = kept;
                for (int64_t k = 0; k < count && !failed; k++) {
                    int64_t lane = active[k];
                    int card;
                    failed = draw(&s, lane, scratch, &card);
                    h[lane] = step[h[lane] * VALUES + value_of[card]];
                }
            }
        }
        if (failed) {
            break;
        }
        /* clause 7: the dealer draws if anyone still stands, until the rule stops it */
        int64_t count = 0;
        for (int64_t lane = 0; lane < n; lane++) {
            int standing = 0;
            for (int64_t seat = 0; seat < seats; seat++) {
                standing |= !blackjack[seat * lanes + lane] & (hand[seat * lanes + lane] != bust);
            }
            dealer[lane] = 0;
            active[count] = lane;
            count += standing;
        }
        while (count && !failed) {
            for (int64_t k = 0; k < count && !failed; k++) {
                int64_t lane = active[k];
                int card;
                failed = draw(&s, lane, scratch, &card);
                dealer[lane] = step[dealer[lane] * VALUES + value_of[card]];
            }
            int64_t kept = 0;
            for (int64_t k = 0; k < count; k++) {
                int64_t lane = active[k];
                active[kept] = lane;
                kept += draws[bonus_value[lane] * states + dealer[lane]] != 0;
            }
            count = kept;
        }
        if (failed) {
            break;
        }
        /* clauses 8 and 9: settle every seat; sums over the seats in seat order */
        double *main_sum = sums + batch * 3 * lanes, *bonus_sum = main_sum + n;
        double *round_sum = bonus_sum + n;
        int64_t *first = seen ? seen + batch * 4 * lanes + 2 * n : NULL;
        for (int64_t lane = 0; lane < n; lane++) {
            int64_t bv = bonus_value[lane], d = dealer[lane];
            int64_t dealer_total = dealer_best[bv * states + d];
            /* a dealer total of 0 is bust: own cards over 21 (or, under a reading that
             * counts the Bonus card in, own cards and Bonus card over 21) */
            int is_natural = natural[bv * states + d] != 0, dealer_bust = dealer_total == 0;
            double m_sum = 0.0, b_sum = 0.0;
            for (int64_t seat = 0; seat < seats; seat++) {
                int64_t h = hand[seat * lanes + lane];
                int bj = blackjack[seat * lanes + lane];
                int standing = !bj && h != bust;
                int64_t player_total = best[bv * states + h];
                int result = LOSE;
                if (standing) {
                    if (player_total == dealer_total) {
                        result = PUSH;
                    }
                    if (beats == BEATS_MULTI_CARD_21 && player_total == 21 && is_natural &&
                        cards_in_21[h] >= 3) {
                        result = LOSE;
                    } else if (beats == BEATS_NON_BLACKJACK && is_natural) {
                        result = LOSE;
                    }
                    if (player_total > dealer_total || dealer_bust) {
                        result = WIN;
                    }
                }
                if (bj) {
                    result = BLACKJACK;
                }
                int64_t outcome = tier[own[seat * lanes + lane] * CODES + bonus[lane]];
                joint[(seat * 4 + result) * bonus_kinds + outcome] += 1;
                if (seat == 0) {
                    m_sum = main_pay[result];
                    b_sum = bonus_pay[outcome];
                    if (first) {
                        first[lane] = result;
                        first[n + lane] = outcome;
                    }
                } else {
                    m_sum += main_pay[result];
                    b_sum += bonus_pay[outcome];
                }
            }
            main_sum[lane] = m_sum;
            bonus_sum[lane] = b_sum;
            round_sum[lane] = m_sum + ratio * b_sum;
        }
        played += n;
        batch += 1;
    }
    Py_END_ALLOW_THREADS;

    PyMem_Free(own);
    PyMem_Free(hand);
    PyMem_Free(blackjack);
    PyMem_Free(dealer);
    PyMem_Free(bonus);
    PyMem_Free(bonus_value);
    PyMem_Free(active);
    PyMem_Free(scratch);
    PyMem_Free(true_count);
    Py_DECREF(capsule); /* the bits object keeps its generator alive through the call */
    for (int i = 0; i < N_PLAY; i++) {
        if (b[i].held) {
            PyBuffer_Release(&b[i].view);
        }
    }
    if (s.bad_card) {
        PyErr_SetString(PyExc_ValueError, "a card code is out of range");
        return NULL;
    }
    if (failed && s.failed < 0) {
        return NULL; /* out of memory */
    }
#ifdef __SIZEOF_INT128__
    if (s.pcg) {
        words[0] = (unsigned long long)(s.pcg_state >> 64);
        words[1] = (unsigned long long)s.pcg_state;
    }
#endif
    /* (rounds played, the lane whose round used every card or -1, PCG64's state after) */
    return Py_BuildValue("LL(KK)", played, (long long)s.failed, words[0], words[1]);
}

static PyMethodDef methods[] = {
    {"play", play, METH_VARARGS,
     "play(rows, next_card, start, running, tags, cut, value_of, tier, pair, step, best, "
     "dealer_best, cards_in_21, hit, draws, natural, beats, seats, index_play, index_at, "
     "index_at_least, index_hit, drift, main_pay, bonus_pay, ratio, bits, pcg, lanes, "
     "rounds, batches, joint, sums, seen, tray, buffer, /)\n--\n\n"
     "Deal and settle rounds on many lanes (see solver/sim/_deal_numpy.py, play)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "solver.sim._deal",
    "The simulator's compiled kernel (see solver/sim/kernel.py).", -1, methods,
};

PyMODINIT_FUNC
PyInit__deal(void)
{
    PyObject *made = PyModule_Create(&module);
#ifdef __SIZEOF_INT128__
    int steps = 1;
#else
    int steps = 0;
#endif
    /* whether play steps PCG64 itself when given its state (else it calls the capsule) */
    if (made && PyModule_AddIntConstant(made, "STEPS_PCG64", steps) < 0) {
        Py_DECREF(made);
        return NULL;
    }
    return made;
}
