/* test_model_parallel.c: the model spread over CPU threads (src/base/cp_parallel.c and the
 * engine's warp-by-warp counts and checks): every chunk run once by one worker; predictions of
 * user expressions and gathers large enough for several workers identical, byte for byte, on
 * 1, 3, 4 and 7 threads and equal to the enumeration of every warp; the first thread that fails
 * an expression's check named as a check in order names it; the estimate of a long run; a
 * cancellation (a signal) that stops the loops and the prediction within a chunk per worker.
 * The walk over every thread is what this tests, so COALPROBE_MODEL_WALK=1 forces it where the
 * model would count an expression's period instead (test_model_period.c tests that). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cp_base.h"
#include "cp_test_model.h"

/* --- the parallel loop ----------------------------------------------------------------------- */

typedef struct loop_probe {
    atomic_uint hits[10007]; /* how often each index was visited */
    atomic_uint bad_worker;  /* a worker index at or past the workers asked for */
    unsigned workers;
} loop_probe;

static void probe_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    loop_probe *p = arg;
    if (worker >= p->workers)
        atomic_fetch_add(&p->bad_worker, 1);
    for (uint64_t i = begin; i < end; i++)
        atomic_fetch_add(&p->hits[i], 1);
}

static void test_parallel_for(void)
{
    static loop_probe p;
    const uint64_t ns[] = {0, 1, 99, 100, 101, 10007};
    for (unsigned workers = 1; workers <= 8; workers++)
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            memset(&p, 0, sizeof p);
            p.workers = workers;
            cp_parallel_for(workers, ns[k], 100, probe_chunk, &p);
            int once = 1;
            for (uint64_t i = 0; i < 10007; i++)
                once = once && atomic_load(&p.hits[i]) == (i < ns[k] ? 1u : 0u);
            CHECK(once);
            CHECK(atomic_load(&p.bad_worker) == 0);
        }
    cp_parallel_set_threads(5);
    CHECK(cp_parallel_threads() == 5);
    CHECK(cp_parallel_workers(1000, 100) == 5);
    CHECK(cp_parallel_workers(250, 100) == 3); /* three chunks */
    CHECK(cp_parallel_workers(100, 100) == 1);
    CHECK(cp_parallel_workers(0, 100) == 1);
    cp_parallel_set_threads(0);
    CHECK(cp_parallel_threads() == cp_parallel_cpus());
    CHECK(cp_parallel_cpus() >= 1);
}

/* --- predictions on several threads ------------------------------------------------------------
 */

static cp_expr *parse(const char *text)
{
    static const char *const names[] = {"s"};
    cp_expr *e = NULL;
    cp_status st;
    cp_status_clear(&st);
    CHECK(cp_expr_parse(text, names, 1, &e, &st) == CP_EXIT_OK);
    return e;
}

/* A user expression of one parameter s. */
static cp_config expr_s_cfg(const cp_expr *e, int64_t s, uint32_t width, cp_op op, uint64_t n)
{
    cp_config c = expr_cfg(e, op, width, n);
    c.expr_params[0] = s;
    c.nexpr_params = 1;
    return c;
}

static int predict_on(unsigned threads, const cp_config *c, cp_prediction *p, cp_status *st)
{
    cp_parallel_set_threads(threads);
    cp_status_clear(st);
    int rc = cp_model_predict(c, p, st);
    cp_parallel_set_threads(0);
    return rc;
}

/* The prediction on 3, 4 and 7 threads is the one on 1, byte for byte, and (small enough) the
 * enumeration of every warp's. The configuration must be large enough for several workers. */
static void check_threads_agree(const cp_config *c, int against_exact)
{
    cp_prediction one, many;
    cp_status st;
    CHECK(predict_on(1, c, &one, &st) == CP_EXIT_OK);
    cp_parallel_set_threads(4);
    CHECK(cp_parallel_workers(one.warps, 2048) == 4); /* the parallel path is taken */
    cp_parallel_set_threads(0);
    static const unsigned counts[] = {3, 4, 7};
    for (size_t k = 0; k < 3; k++) {
        CHECK(predict_on(counts[k], c, &many, &st) == CP_EXIT_OK);
        int same = memcmp(&one, &many, sizeof one) == 0;
        CHECK(same);
        if (!same) {
            char d[160];
            cp_config_describe(c, d, sizeof d);
            fprintf(stderr,
                    "  %u threads differ from 1 for %s n=%" PRIu64 ": sectors %" PRIu64 "/%" PRIu64
                    ", footprint %" PRIu64 "/%" PRIu64 "\n",
                    counts[k], d, c->elements, many.load.sectors, one.load.sectors,
                    many.load.footprint_sectors, one.load.footprint_sectors);
        }
    }
    if (!against_exact)
        return;
    cp_prediction exact;
    cp_status_clear(&st);
    CHECK(cp_model_predict_exact(c, 1ull << 30, &exact, &st) == CP_EXIT_OK);
    for (size_t a = 0; a < one.naccesses; a++) {
        const cp_counts *x = &one.accesses[a].counts, *y = &exact.accesses[a].counts;
        CHECK(same_counts(x, y));
    }
}

static void test_threads_agree(void)
{
    const uint64_t n = (1u << 18) + 37; /* 5 chunks, the last one short, a partial last warp */
    cp_expr *mix = parse("(i * 7919 + s) % n");
    cp_expr *transposed = parse("(i % 32) * (n / 32) + i / 32");
    cp_expr *swizzle = parse("i ^ ((i >> 5) & 31)");
    static const uint32_t widths[] = {4, 8, 16, 32};
    for (size_t w = 0; w < 4; w++)
        for (int op = 0; op < 2; op++) {
            cp_config c = expr_s_cfg(mix, 3, widths[w], (cp_op)op, n);
            check_threads_agree(&c, 0);
        }
    cp_config c = expr_s_cfg(transposed, 0, 4, CP_OP_LOAD, 1u << 18);
    check_threads_agree(&c, 1);
    c = expr_s_cfg(swizzle, 0, 16, CP_OP_STORE, 1u << 18);
    check_threads_agree(&c, 1);
    c = expr_s_cfg(mix, 1, 8, CP_OP_LOAD, 300000); /* 5 check chunks, 5 warp chunks */
    check_threads_agree(&c, 1);
    c = gather_cfg(1, 7, n);
    check_threads_agree(&c, 1);
    c = gather_cfg(3, 2, n);
    check_threads_agree(&c, 0);
    cp_expr_free(mix);
    cp_expr_free(transposed);
    cp_expr_free(swizzle);
}

/* An expression that fails for some threads: on any number of CPU threads the message names
 * the first thread that fails, as the check in order does, even when a later chunk fails too. */
static void test_first_failure(void)
{
    static const char *const exprs[] = {
        "i / ((i - 900000) * (i - 300000))",             /* two threads, chunks 4 and 13 */
        "i + (i >= 700001) * n - (i >= 900000) * n * 2", /* out of range from 700001 */
        "n / (1048575 - i) - 1",                         /* the very last thread */
        "(i + 1 / (i % 65536 - 70)) % n",                /* one in every chunk: the first */
    };
    static const char *const want[] = {"(i = 300000,", "for i = 700001 ", "(i = 1048575,",
                                       "(i = 70,"};
    for (size_t k = 0; k < sizeof exprs / sizeof *exprs; k++) {
        cp_expr *e = parse(exprs[k]);
        cp_config c = expr_s_cfg(e, 0, 4, CP_OP_LOAD, 1u << 20);
        cp_prediction p;
        cp_status one, many;
        CHECK(predict_on(1, &c, &p, &one) == CP_EXIT_USAGE);
        CHECK_STR_CONTAINS(one.message, want[k]);
        for (unsigned t = 2; t <= 8; t += 3) {
            CHECK(predict_on(t, &c, &p, &many) == CP_EXIT_USAGE);
            CHECK(strcmp(one.message, many.message) == 0 && strcmp(one.hint, many.hint) == 0);
        }
        cp_parallel_set_threads(4);
        cp_status_clear(&many);
        CHECK(cp_model_validate(&c, &many) == CP_EXIT_USAGE); /* --explain's check too */
        CHECK(strcmp(one.message, many.message) == 0);
        cp_parallel_set_threads(0);
        cp_expr_free(e);
    }
}

/* --- the estimate ------------------------------------------------------------------------------
 */

static void test_estimate(void)
{
    cp_expr *e = parse("(i * s) % n");
    cp_config configs[4];
    /* warp classes: not evaluated thread by thread */
    configs[0] = stride_cfg(2, 0, 4, CP_OP_LOAD, 1u << 26);
    configs[1] = expr_s_cfg(e, 3, 4, CP_OP_LOAD, 1u << 20);
    configs[2] = expr_s_cfg(e, 5, 4, CP_OP_LOAD, 1u << 22);
    configs[3] = gather_cfg(1, 1, 1u << 18);
    cp_parallel_set_threads(4);
    cp_model_cost cost;
    cp_model_estimate(configs, 4, &cost);
    CHECK(cost.configs == 3);
    CHECK_EQ_U64(cost.threads, (1u << 20) + (1u << 22) + (1u << 18));
    CHECK_EQ_U64(cost.largest, 1u << 22);
    CHECK(cost.cpu_threads == 4);
    CHECK(cost.seconds > 0 && cost.seconds < 60);
    /* only warp classes: nothing to say */
    cp_model_estimate(configs, 1, &cost);
    CHECK(cost.configs == 0 && cost.threads == 0 && cost.seconds == 0);
    /* a configuration that fails its check at once costs nothing to speak of */
    cp_expr *bad = parse("n / (i - 5)");
    cp_config failing = expr_s_cfg(bad, 0, 4, CP_OP_LOAD, 1u << 24);
    cp_model_estimate(&failing, 1, &cost);
    CHECK(cost.configs == 1 && cost.seconds == 0);
    /* one CPU thread */
    cp_parallel_set_threads(1);
    cp_model_estimate(&configs[2], 1, &cost);
    CHECK(cost.cpu_threads == 1 && cost.seconds > 0);
    cp_parallel_set_threads(0);
    /* counted over a period of warps, not thread by thread: not in the estimate */
    unsetenv("COALPROBE_MODEL_WALK");
    cp_model_estimate(configs, 3, &cost);
    CHECK(cost.configs == 0 && cost.threads == 0 && cost.seconds == 0);
    setenv("COALPROBE_MODEL_WALK", "1", 1);
    cp_expr_free(bad);
    cp_expr_free(e);
}

/* --- cancellation ------------------------------------------------------------------------------
 */

/* A chunk that cancels the loop when it is chunk `at` (the signal handler's part). */
typedef struct cancel_probe {
    atomic_uint chunks; /* chunks run */
    uint64_t at;
} cancel_probe;

static void cancel_chunk(void *arg, unsigned worker, uint64_t begin, uint64_t end)
{
    cancel_probe *p = arg;
    (void)worker;
    (void)end;
    atomic_fetch_add(&p->chunks, 1);
    if (begin / 10 == p->at)
        cp_parallel_cancel(SIGINT);
}

static void test_cancel(void)
{
    cancel_probe p;
    for (unsigned workers = 1; workers <= 4; workers++) {
        cp_parallel_cancel_reset();
        memset(&p, 0, sizeof p);
        p.at = 3;
        CHECK(cp_parallel_for(workers, 100000, 10, cancel_chunk, &p) == 0);
        CHECK(cp_parallel_cancelled() == SIGINT);
        /* each worker stops before its next chunk: a few past the fourth, never all 10000 */
        CHECK(atomic_load(&p.chunks) >= 4 && atomic_load(&p.chunks) <= 4 + 2 * workers);
        /* cancelled already: no chunk runs */
        memset(&p, 0, sizeof p);
        p.at = UINT64_MAX;
        CHECK(cp_parallel_for(workers, 1000, 10, cancel_chunk, &p) == 0);
        CHECK(atomic_load(&p.chunks) == 0);
        CHECK(cp_parallel_for(workers, 0, 10, cancel_chunk, &p) == 1); /* nothing to do */
        /* reset: every chunk runs */
        cp_parallel_cancel_reset();
        CHECK(cp_parallel_cancelled() == 0);
        CHECK(cp_parallel_for(workers, 1000, 10, cancel_chunk, &p) == 1);
        CHECK(atomic_load(&p.chunks) == 100);
    }
    /* a prediction of billions of threads, cancelled: it returns at once, without a result, on
     * one CPU thread and on several, in the check of a user's expression and in the counts of a
     * gather (no check) */
    cp_expr *e = parse("(i * s) % n");
    cp_config big_expr = expr_s_cfg(e, 3, 4, CP_OP_LOAD, 1ull << 34);
    cp_config big_gather = gather_cfg(1, 1, 1ull << 34);
    cp_parallel_cancel(SIGTERM);
    for (unsigned threads = 1; threads <= 4; threads += 3) {
        cp_prediction pred;
        cp_status st;
        CHECK(predict_on(threads, &big_expr, &pred, &st) == CP_EXIT_RUNTIME);
        CHECK_STR_CONTAINS(st.message, "interrupted (signal 15) before the model finished");
        CHECK(predict_on(threads, &big_gather, &pred, &st) == CP_EXIT_RUNTIME);
        CHECK_STR_CONTAINS(st.message, "interrupted (signal 15) before the model finished");
    }
    cp_parallel_cancel_reset();
    /* and not cancelled, a small one is predicted as ever */
    cp_config small = expr_s_cfg(e, 3, 4, CP_OP_LOAD, 1u << 20);
    cp_prediction pred;
    cp_status st;
    CHECK(predict_on(4, &small, &pred, &st) == CP_EXIT_OK);
    cp_expr_free(e);
}

int main(void)
{
    setenv("COALPROBE_MODEL_WALK", "1", 1);
    test_parallel_for();
    test_threads_agree();
    test_first_failure();
    test_estimate();
    test_cancel();
    return cp_test_finish();
}
