/* test_model_period.c: the period of a user's expression (src/model/cp_expr_period.c and the
 * engine's count of one period of warps): the rules proved for the built-in shapes and the
 * reasons given where none is; and on many small and odd shapes (sizes that are not multiples of
 * 32 or of the period, offsets that misalign, every width, loads and stores, expressions with
 * and without a period, random ones) the prediction equals, in every counter, both the enumeration
 * of every instruction of every warp (cp_model_predict_exact) and the walk over every thread that
 * COALPROBE_MODEL_WALK=1 forces, byte for byte; failures fail alike. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdlib.h>
#include <string.h>

#include "model/cp_expr_period.h"
#include "cp_test_model.h"

static const char *const names[] = {"s", "k"};

static cp_expr *parse(const char *text)
{
    cp_expr *e = NULL;
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_expr_parse(text, names, 2, &e, &st) == CP_EXIT_OK);
    if (!e)
        fprintf(stderr, "  cannot parse %s: %s\n", text, st.message);
    return e;
}

static cp_config period_cfg(const cp_expr *e, int64_t s, int64_t k, uint32_t width, cp_op op,
                            uint64_t n)
{
    cp_config c = expr_cfg(e, op, width, n);
    c.expr_params[0] = s, c.expr_params[1] = k;
    c.nexpr_params = 2;
    return c;
}

/* --- the rules -------------------------------------------------------------------------------- */

/* The period of text (s, k) over n threads for width-byte elements, as the model asks for it. */
static cp_expr_period find(const char *text, int64_t s, int64_t k, int64_t n, uint64_t width)
{
    cp_expr_period p;
    memset(&p, 0, sizeof p);
    cp_expr *e = parse(text);
    int64_t params[2] = {s, k};
    int found = e && cp_expr_period_find(e, n, params, 32, 128 / width, 4096 * 32, &p);
    CHECK(found == (p.threads != 0));
    cp_expr_free(e);
    return p;
}

static void check_rule(const char *text, int64_t s, int64_t n, uint64_t width, uint64_t T,
                       int64_t D, int64_t W, const char *why)
{
    cp_expr_period p = find(text, s, 0, n, width);
    CHECK_EQ_U64(p.threads, T);
    CHECK_EQ_U64(p.shift, D);
    CHECK_EQ_U64(p.window_size, W);
    CHECK_STR_CONTAINS(p.why, why);
    if (p.threads != T)
        fprintf(stderr, "  %s: %s\n", text, p.why);
}

static void test_rules(void)
{
    const int64_t n = 1 << 20;
    /* wrapping around the buffer: a warp's 32 threads move the index by 32 s */
    check_rule("(i * s) % n", 3, n, 4, 32, 96, n, "f(i + 32) = (f(i) + 96) mod 1048576");
    check_rule("(i * s) % n", 3, n, 32, 32, 96, n, "f(i + 32) = (f(i) + 96) mod 1048576");
    check_rule("(i * s + 7) % n", 1, n, 4, 32, 32, n, "mod 1048576");
    /* a warp down a column: one element per warp, 32 warps to a line at 4 bytes, 4 at 32 */
    check_rule("(i % 32) * 1024 + i / 32", 0, n, 4, 1024, 32, 0, "f(i + 1024) = f(i) + 32");
    check_rule("(i % 32) * 1024 + i / 32", 0, n, 32, 128, 4, 0, "f(i + 128) = f(i) + 4");
    check_rule("(i % 32) * (n / 32) + i / 32", 0, n, 8, 512, 16, 0, "f(i + 512) = f(i) + 16");
    check_rule("i ^ ((i >> 5) & 31)", 0, n, 4, 1024, 1024, 0, "f(i + 1024) = f(i) + 1024");
    check_rule("n - 1 - i", 0, n, 4, 32, -32, 0, "f(i + 32) = f(i) - 32");
    check_rule("(i / 3) * 2", 0, n, 4, 96, 64, 0, "f(i + 96) = f(i) + 64");
    check_rule("i & ~31", 0, n, 4, 32, 32, 0, "f(i + 32) = f(i) + 32");
    check_rule("i % 2 ? i - 1 : i + 1", 0, n, 16, 32, 32, 0, "f(i + 32) = f(i) + 32");
    check_rule("min(i * s, n - 1)", 1, n, 4, 32, 32, 0, "f(i + 32) = f(i) + 32"); /* decided */
    check_rule("(i + n / 2) % n", 0, n, 4, 32, 32, n, "mod 1048576");
    check_rule("(i * s) % (n / 2) + n / 2", 5, n, 4, 32, 160, n / 2,
               "f(i + 32) = 524288 + (f(i) - 524288 + 160) mod 524288");
    /* a window of 100 elements is not whole lines: 7 T a multiple of 100 instead */
    check_rule("(i * 7) % 100", 0, n, 4, 800, 0, 0, "f(i + 800) = f(i) + 0");
    /* n not a multiple of 32: no wrap-around, and 3 T a multiple of n is too long */
    check_rule("(i * s) % n", 3, 1000003, 4, 0, 0, 0,
               "'%' at position 8 wraps around within 1000003 elements from 0: not multiples of "
               "32 elements (128 bytes)");
    check_rule("(i * i) % n", 0, n, 4, 0, 0, 0,
               "'*' at position 3 multiplies two terms that move with i");
    check_rule("min(i * s, n - 1)", 2, n, 4, 0, 0, 0,
               "'min' at position 0 picks between terms that move at different rates");
    check_rule("n / (i + 1)", 0, n, 4, 0, 0, 0, "'/' at position 2 divides by a term that moves");
    check_rule("(i - 5) / 2 + 3", 0, n, 4, 0, 0, 0,
               "may be negative for some threads and positive");
    check_rule("i ^ (i >> 7)", 0, n, 4, 0, 0, 0, "combines bit by bit two terms that move with i");
    check_rule("((i * 3) % 1000003) / 2", 0, n, 4, 0, 0, 0,
               "'%' at position 9 needs a period of more than 131072 threads");
    check_rule("i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1", 0, n, 4, 0, 0, 0,
               "'<' at position 2 compares terms that move at different rates");
    check_rule("n / (i % 32 - 5)", 0, n, 4, 0, 0, 0, "thread 5 fails");
    check_rule("i * 1125899906842624", 0, 100000, 4, 0, 0, 0, /* 2^50 */
               "'*' at position 2 overflows for some thread");
    check_rule("i", 0, n, 4, 32, 32, 0, "f(i + 32) = f(i) + 32");
}

/* --- the prediction against the walks --------------------------------------------------------- */

/* Every counter of a and b. */
static int same_all(const cp_counts *a, const cp_counts *b)
{
    return same_counts(a, b) && a->wavefronts == b->wavefronts &&
           a->ideal_wavefronts == b->ideal_wavefronts && a->bank_conflicts == b->bank_conflicts;
}

static int same_prediction(const cp_prediction *a, const cp_prediction *b)
{
    int same = a->threads == b->threads && a->warps == b->warps && a->naccesses == b->naccesses &&
               same_all(&a->load, &b->load) && same_all(&a->store, &b->store) &&
               same_all(&a->shared_load, &b->shared_load) &&
               same_all(&a->shared_store, &b->shared_store);
    for (size_t x = 0; same && x < a->naccesses; x++)
        same = same_all(&a->accesses[x].counts, &b->accesses[x].counts);
    return same;
}

/* The walk forced: the note says so, and the prediction (or its failure) into p and st. */
static int predict_walked(const cp_config *c, cp_prediction *p, cp_status *st)
{
    char note[CP_MODEL_WHY_BYTES];
    setenv("COALPROBE_MODEL_WALK", "1", 1);
    CHECK(cp_model_counting(c, note, sizeof note) == 1);
    CHECK_STR_CONTAINS(note, "COALPROBE_MODEL_WALK=1 forces the walk");
    cp_status_clear(st);
    int rc = cp_model_predict(c, p, st);
    unsetenv("COALPROBE_MODEL_WALK");
    return rc;
}

typedef struct tally {
    unsigned periodic, walked, failed;
} tally;

/* The prediction of c equals the walk's byte for byte and the enumeration's in every counter (or
 * both fail with the same message); returns 1 when it was counted over a period. */
static int check_against_walks(const cp_config *c, tally *t)
{
    char note[CP_MODEL_WHY_BYTES], label[160];
    CHECK(cp_model_counting(c, note, sizeof note) == 1);
    int periodic = strncmp(note, "counted over a period", 21) == 0;
    CHECK(periodic || strncmp(note, "every thread evaluated", 22) == 0);
    cp_prediction fast, walked, exact;
    cp_status st_fast, st_walk, st_exact;
    cp_status_clear(&st_fast);
    cp_status_clear(&st_exact);
    int rc = cp_model_predict(c, &fast, &st_fast);
    int rc_walk = predict_walked(c, &walked, &st_walk);
    int rc_exact = cp_model_predict_exact(c, 1ull << 32, &exact, &st_exact);
    CHECK(rc == rc_walk && rc == rc_exact);
    int same = rc != CP_EXIT_OK
                   ? !periodic && strcmp(st_fast.message, st_walk.message) == 0 &&
                         strcmp(st_fast.message, st_exact.message) == 0
                   : memcmp(&fast, &walked, sizeof fast) == 0 && same_prediction(&fast, &exact);
    CHECK(same);
    if (!same) {
        cp_config_describe(c, label, sizeof label);
        fprintf(stderr,
                "  differs: %s n=%" PRIu64 " (%s): sectors %" PRIu64 "/%" PRIu64 "/%" PRIu64
                ", footprint %" PRIu64 "/%" PRIu64 "\n",
                label, c->elements, note, fast.load.sectors + fast.store.sectors,
                walked.load.sectors + walked.store.sectors,
                exact.load.sectors + exact.store.sectors,
                fast.load.footprint_sectors + fast.store.footprint_sectors,
                exact.load.footprint_sectors + exact.store.footprint_sectors);
    }
    t->periodic += periodic && rc == CP_EXIT_OK;
    t->walked += !periodic && rc == CP_EXIT_OK;
    t->failed += rc != CP_EXIT_OK;
    return periodic;
}

/* An expression, its parameters (s, k) and whether the model proves a period at every size of
 * sizes_periodic (where it is valid); -1: at some sizes only. */
typedef struct shape {
    const char *text;
    int64_t s, k;
    int periodic;
} shape;

static const shape shapes[] = {
    {"(i * s) % n", 1, 0, 1},
    {"(i * s) % n", 3, 0, -1}, /* n not a multiple of 32 elements: no wrap-around */
    {"(i * s) % n", 32, 0, -1},
    {"(i * s) % n", 33, 0, -1},
    {"(i * s + k) % n", 5, 3, -1}, /* misaligned by 3 elements */
    {"(i * s + k) % n", 2, 17, -1},
    {"(i + k) % n", 0, 1, -1},
    {"(i % 32) * (n / 32) + i / 32", 0, 0, 1},
    {"(i % 32) * 1024 + i / 32", 0, 0, 1},
    {"(i % 1024) * 32 + i / 1024", 0, 0, -1},
    {"i ^ ((i >> 5) & 31)", 0, 0, -1},
    {"n - 1 - i", 0, 0, 1},
    {"i / s + k", 4, 3, 1},
    {"(i / 3) * 2 + k", 0, 5, 1},
    {"i & ~31", 0, 0, 1},
    {"(i & ~31) + (31 - i % 32)", 0, 0, -1},
    {"((i >> 3) << 3) + (7 - (i & 7))", 0, 0, -1},
    {"i % 2 ? i - 1 : i + 1", 0, 0, -1},
    {"min(i * s, n - 1)", 1, 0, 1},
    {"i / 32 * 32 + (i * s) % 32", 5, 0, -1}, /* inside 0..n-1 for n a multiple of 32 */
    {"(i * 7) % 100 + k", 0, 1, 1},
    {"(i * s) % (n / 2) + n / 4", 3, 0, -1},
    {"max(i, k) - k", 0, 0, 1},
    {"i * s % 96", 5, 0, 1},
    /* no period: every thread walked */
    {"(i * i) % n", 0, 0, 0},
    {"min(i * s, n - 1)", 2, 0, 0},
    {"(i ^ (i >> 3)) % n", 0, 0, 0},
    {"i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1", 0, 0, 0},
    {"max(i - k, 0)", 0, 40, -1}, /* a period only where every i < k: 0 */
    {"(i * 3) & (n - 1)", 0, 0, 0},
    /* failing for some thread: both fail alike */
    {"i + k", 0, 1, 0},
    {"n / (i % 32 - 5)", 0, 0, 0},
};

static void test_against_walks(void)
{
    static const uint64_t sizes[] = {37, 1000, 4133, 32768, 40000 + 17, 65536 + 96};
    static const uint32_t widths[] = {4, 8, 16, 32};
    tally t = {0, 0, 0};
    for (size_t x = 0; x < sizeof shapes / sizeof *shapes; x++) {
        const shape *sh = &shapes[x];
        cp_expr *e = parse(sh->text);
        if (!e)
            continue;
        unsigned periodic = 0, runs = 0;
        for (size_t n = 0; n < sizeof sizes / sizeof *sizes; n++)
            for (size_t w = 0; w < 4; w++)
                for (int op = 0; op < 2; op++) {
                    cp_config c = period_cfg(e, sh->s, sh->k, widths[w], (cp_op)op, sizes[n]);
                    periodic += (unsigned)check_against_walks(&c, &t);
                    runs++;
                }
        /* large enough (32768 threads and more), a period expected everywhere is found there */
        if (sh->periodic == 0)
            CHECK(periodic == 0);
        if (sh->periodic == 1)
            CHECK(periodic >= 3 * 4 * 2);
        if ((sh->periodic == 1 && periodic < 3 * 4 * 2) || (sh->periodic != 0) != (periodic != 0))
            fprintf(stderr, "  %s: a period in %u of %u runs\n", sh->text, periodic, runs);
        CHECK(sh->periodic == 0 || periodic > 0);
        cp_expr_free(e);
    }
    /* every path taken, many times */
    CHECK(t.periodic > 300 && t.walked > 100 && t.failed > 20);
    printf("against the walks: %u counted over a period, %u walked, %u failing alike\n", t.periodic,
           t.walked, t.failed);
}

/* --- random expressions -------------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static unsigned rng(unsigned m)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % m);
}

/* Text built piece by piece (a random expression of depth 3 takes a few hundred bytes). */
typedef struct text {
    char s[1024];
    size_t at;
} text;

static void put(text *t, const char *piece)
{
    size_t n = strlen(piece);
    if (t->at + n < sizeof t->s) {
        memcpy(t->s + t->at, piece, n + 1);
        t->at += n;
    }
}

/* A random expression of depth at most d: i, numbers, n, s and k under every operator. */
static void random_expr(text *t, int d)
{
    static const char *const leaves[] = {"1",  "2",  "3",  "4",   "5",    "7", "8", "16", "31",
                                         "32", "33", "64", "100", "1024", "s", "k", "n"};
    static const char *const binary[] = {"+", "-", "*", "/", "%",  "<<",  ">>",
                                         "&", "|", "^", "<", "==", "min", "max"};
    static const char *const unary[] = {"-", "~", "abs", "!"};
    static const char *const shifts[] = {"0", "1", "2", "3", "4", "5", "6", "7"};
    unsigned r = rng(d <= 0 ? 2 : 10);
    if (r < 2) {
        put(t, r == 0 ? "i" : leaves[rng(17)]);
    } else if (r == 2) {
        put(t, unary[rng(4)]), put(t, "("), random_expr(t, d - 1), put(t, ")");
    } else if (r == 3) {
        put(t, "("), random_expr(t, d - 1), put(t, " ? "), random_expr(t, d - 1);
        put(t, " : "), random_expr(t, d - 1), put(t, ")");
    } else {
        const char *op = binary[rng(14)];
        int is_call = op[0] == 'm';
        put(t, is_call ? op : ""), put(t, "("), random_expr(t, d - 1);
        put(t, is_call ? ", " : " "), put(t, is_call ? "" : op), put(t, is_call ? "" : " ");
        if (op[0] == '<' || op[0] == '>') /* shifts by a number, divisions usually */
            put(t, shifts[rng(8)]);
        else if (op[0] == '/' || op[0] == '%' || rng(2))
            put(t, leaves[rng(16)]);
        else
            random_expr(t, d - 1);
        put(t, ")");
    }
}

/* Random expressions of depth 3 (kept inside the buffer by a remainder half of the time), each at
 * three sizes, a random width, op and parameters: equal to the walks wherever they hold. */
static void test_random(void)
{
    static const uint64_t sizes[] = {4096, 5003, 8192 + 32};
    tally t = {0, 0, 0};
    for (int x = 0; x < 250; x++) {
        static const char *const forms[][2] = {{"((", ") % n + n) % n"}, {"(", ") % n"}, {"", ""}};
        unsigned form = rng(3);
        text body = {"", 0};
        put(&body, forms[form][0]), random_expr(&body, 3), put(&body, forms[form][1]);
        cp_expr *e = parse(body.s);
        for (size_t n = 0; e && n < 3; n++) {
            cp_config c = period_cfg(e, rng(40), rng(70), 4u << rng(4), (cp_op)rng(2), sizes[n]);
            check_against_walks(&c, &t);
        }
        cp_expr_free(e);
    }
    CHECK(t.periodic > 150 && t.walked > 150 && t.failed > 30);
    printf("random expressions: %u counted over a period, %u walked, %u failing alike\n",
           t.periodic, t.walked, t.failed);
}

/* A shape too large for the enumeration: 2^28 threads counted over a period in an instant, and
 * the period's counts scale as they must (requests one per warp, the wrap's sectors). */
static void test_large(void)
{
    cp_expr *e = parse("(i * s) % n");
    cp_config c = period_cfg(e, 3, 0, 4, CP_OP_LOAD, 1ull << 28);
    char note[CP_MODEL_WHY_BYTES];
    cp_model_counting(&c, note, sizeof note);
    CHECK_STR_CONTAINS(note, "counted over a period of 1 warp of 8388608");
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 1ull << 23);
    CHECK_EQ_U64(p.load.sectors, 12ull << 23); /* 96 bytes apart: 12 sectors a warp */
    CHECK_EQ_U64(p.load.footprint_sectors, (1ull << 28) * 4 / 32); /* 3 and n coprime */
    c.expr_params[0] = 16; /* every 16th element: one sector in two */
    p = predict(&c);
    CHECK_EQ_U64(p.load.sectors, 32ull << 23);
    CHECK_EQ_U64(p.load.footprint_sectors, (1ull << 28) * 4 / 32 / 2);
    cp_expr_free(e);
}

int main(void)
{
    unsetenv("COALPROBE_MODEL_WALK");
    test_rules();
    test_against_walks();
    test_random();
    test_large();
    return cp_test_finish();
}
