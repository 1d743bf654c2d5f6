/*
 * The exact path's residues: the dealer's after the modular folds (dealer_residues), their
 * extension to more primes by Garner's digits (extend), standing's by showdown class
 * (stand_modular), and the player's backward induction modulo the primes with near-ties
 * decided exactly (player_exact).  Twins: solver/exact/_numpy.py.
 */
#include "_native.h"

enum {
    R_OUT, R_SUMS, R_FINAL, R_LENGTHS, R_RESULTS, R_SIZES, R_COLUMN, R_PRIMES, R_DEPTH, N_RESIDUE
};

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
PyObject *
kernel_dealer_residues(PyObject *self, PyObject *args)
{
    static const Arg spec[N_RESIDUE] = {
        {"out", 'q', 1},
        {"sums", 'q', 0},
        {"final", 'q', 0},
        {"lengths", 'q', 0},
        {"results", 'q', 0},
        {"sizes", 'q', 0},
        {"column", 'q', 0},
        {"primes", 'q', 0},
        {"depth", 'n', 0},
    };
    Buffer buffers[N_RESIDUE];
    Scalar scalars[N_RESIDUE];
    (void)self;
    if (take_args(args, spec, N_RESIDUE, buffers, scalars) < 0) {
        return NULL;
    }
    const Py_ssize_t depth = (Py_ssize_t)scalars[R_DEPTH].integer;
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
        return refuse(buffers, N_RESIDUE, problem);
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
PyObject *
kernel_extend(PyObject *self, PyObject *args)
{
    static const Arg spec[4] = {
        {"out", 'q', 1},
        {"residues", 'q', 0},
        {"primes", 'q', 0},
        {"more", 'q', 0},
    };
    Buffer buffers[4];
    (void)self;
    if (take_args(args, spec, 4, buffers, NULL) < 0) {
        return NULL;
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
        return refuse(buffers, 4, problem);
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
PyObject *
kernel_stand_modular(PyObject *self, PyObject *args)
{
    static const Arg spec[N_STAND] = {
        {"out", 'q', 1},
        {"dealer", 'q', 0},
        {"classes", 'q', 0},
        {"lift", 'q', 0},
        {"primes", 'q', 0},
    };
    Buffer buffers[N_STAND];
    (void)self;
    if (take_args(args, spec, N_STAND, buffers, NULL) < 0) {
        return NULL;
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
        return refuse(buffers, N_STAND, problem);
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
       E_SCALE, E_PRIMES, E_TOLERANCE, N_EXACT };

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
PyObject *
kernel_player_exact(PyObject *self, PyObject *args)
{
    static const Arg spec[N_EXACT] = {
        {"numerators", 'q', 1},
        {"hitting", 'q', 1},
        {"sizes", 'q', 0},
        {"draws", 'q', 0},
        {"kids", 'q', 0},
        {"left", 'q', 0},
        {"sums", 'q', 0},
        {"lift", 'q', 0},
        {"bust", 'q', 0},
        {"scale", 'd', 0},
        {"primes", 'q', 0},
        {"tolerance", 'f', 0},
    };
    Buffer buffers[N_EXACT];
    Scalar scalars[N_EXACT];
    (void)self;
    if (take_args(args, spec, N_EXACT, buffers, scalars) < 0) {
        return NULL;
    }
    const double tolerance = scalars[E_TOLERANCE].real;
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
        return refuse(buffers, N_EXACT, problem);
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
