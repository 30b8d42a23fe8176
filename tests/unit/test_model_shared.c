/* test_model_shared.c: the shared-memory bank model, the smem, transpose and expr families
 * against hand-derived values, and their fast paths against full enumeration. */
#include "cp_smem.h"
#include "cp_test_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* gcd(s, p) for s > 0 and p a power of two: the largest power of two that divides s (the lowest
 * set bit of s), at most p. */
static uint64_t gcd_pow2(uint64_t s, uint64_t p)
{
    uint64_t low = s & (~s + 1);
    return low < p ? low : p;
}

/* One shared request of 32 lanes at byte addresses base + lane * step (lane_bytes each). */
static cp_counts shared_request(uint64_t step, uint32_t lane_bytes, uint32_t mask)
{
    cp_warp_lanes w;
    memset(&w, 0, sizeof w);
    w.active_mask = mask;
    w.lane_bytes = lane_bytes;
    for (unsigned l = 0; l < 32; l++)
        w.addr[l] = 4096 + l * step;
    cp_counts c;
    memset(&c, 0, sizeof c);
    cp_model_count_shared_request(&w, &c);
    return c;
}

/* Hand-derived single requests (each also seen on the H100 with ncu, bench notes in
 * docs/model.md): consecutive words, strides, a broadcast, inactive lanes, wide lanes. */
static void test_bank_requests(void)
{
    cp_counts c = shared_request(4, 4, 0xFFFFFFFFu); /* 32 consecutive words: 32 banks */
    CHECK_EQ_U64(c.requests, 1);
    CHECK_EQ_U64(c.wavefronts, 1);
    CHECK_EQ_U64(c.ideal_wavefronts, 1);
    CHECK_EQ_U64(c.bank_conflicts, 0);
    CHECK_EQ_U64(c.bytes_requested, 128);
    c = shared_request(8, 4, 0xFFFFFFFFu); /* stride 2: even banks, two words each */
    CHECK_EQ_U64(c.wavefronts, 2);
    CHECK_EQ_U64(c.bank_conflicts, 1);
    c = shared_request(128, 4, 0xFFFFFFFFu); /* stride 32: one bank, 32 words */
    CHECK_EQ_U64(c.wavefronts, 32);
    CHECK_EQ_U64(c.bank_conflicts, 31);
    c = shared_request(132, 4, 0xFFFFFFFFu); /* stride 33: every bank once */
    CHECK_EQ_U64(c.wavefronts, 1);
    c = shared_request(0, 4, 0xFFFFFFFFu); /* one word for all: a broadcast */
    CHECK_EQ_U64(c.wavefronts, 1);
    CHECK_EQ_U64(c.bank_conflicts, 0);
    CHECK_EQ_U64(c.bytes_requested, 4);
    c = shared_request(128, 4, 0x0000000Fu); /* 4 lanes on one bank */
    CHECK_EQ_U64(c.wavefronts, 4);
    CHECK_EQ_U64(c.bank_conflicts, 3);
    CHECK_EQ_U64(c.bytes_requested, 16);
    c = shared_request(4, 4, 0); /* no active lane: no request */
    CHECK_EQ_U64(c.requests, 0);
    c = shared_request(8, 8, 0xFFFFFFFFu); /* 8-byte lanes, consecutive: 256 B in 2 */
    CHECK_EQ_U64(c.wavefronts, 2);
    CHECK_EQ_U64(c.ideal_wavefronts, 2);
    CHECK_EQ_U64(c.bank_conflicts, 0);
    c = shared_request(16, 16, 0xFFFFFFFFu); /* 16-byte lanes, consecutive: 512 B in 4 */
    CHECK_EQ_U64(c.wavefronts, 4);
    CHECK_EQ_U64(c.bank_conflicts, 0);
    c = shared_request(32, 16, 0xFFFFFFFFu); /* 16-byte lanes 32 B apart: half the banks */
    CHECK_EQ_U64(c.wavefronts, 8);
    CHECK_EQ_U64(c.ideal_wavefronts, 4);
    CHECK_EQ_U64(c.bank_conflicts, 4);
}

static int same(const cp_counts *a, const cp_counts *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static void check_fast_equals_exact(const cp_config *c)
{
    cp_prediction fast, exact;
    if (!cp_test_fast_and_exact(c, 100000000ull, &fast, &exact))
        return;
    int ok = same(&fast.load, &exact.load) && same(&fast.store, &exact.store) &&
             same(&fast.shared_load, &exact.shared_load) &&
             same(&fast.shared_store, &exact.shared_store);
    CHECK(ok);
    if (!ok) {
        char d[160];
        cp_config_describe(c, d, sizeof d);
        fprintf(stderr, "  fast path differs from enumeration for %s %s\n",
                cp_config_family_name(c->family), d);
    }
}

/* smem: lane l at element l*s (w bytes) touches words l*s*w/4 .. +w/4-1. With q = w/4 words
 * per lane, a bank holds q*gcd(s, 32/q) of the warp's words (the lanes repeat their banks every
 * 32/gcd(s, 32/q) lanes, each lane covering q neighbouring banks): that many wavefronts, against
 * an ideal of q. */
static void test_smem_hand(void)
{
    const uint32_t widths[] = {4, 8, 16};
    for (size_t k = 0; k < 3; k++)
        for (uint64_t s = 1; s <= CP_SMEM_STEP_MAX; s++) {
            uint32_t w = widths[k], q = w / 4;
            uint64_t wf = q * gcd_pow2(s, 32 / q);
            for (int op = 0; op < 2; op++) {
                cp_config c = smem_cfg(s, w, (cp_op)op, 512, 64 + s);
                cp_prediction p = predict(&c);
                const cp_counts *pat = op == CP_OP_LOAD ? &p.shared_load : &p.shared_store;
                const cp_counts *aux = op == CP_OP_LOAD ? &p.shared_store : &p.shared_load;
                uint64_t warps = 512 / 32;
                CHECK_EQ_U64(pat->requests, warps * (64 + s));
                CHECK_EQ_U64(pat->wavefronts, warps * (64 + s) * wf);
                CHECK_EQ_U64(pat->ideal_wavefronts, warps * (64 + s) * q);
                CHECK_EQ_U64(pat->bank_conflicts, warps * (64 + s) * (wf - q));
                CHECK_EQ_U64(pat->bytes_requested, warps * (64 + s) * 32 * w);
                /* the fill (op load) is conflict-free; the drain (op store) reads the pattern's
                 * first s steps back, with the pattern's cost */
                CHECK_EQ_U64(aux->requests, warps * s);
                CHECK_EQ_U64(aux->wavefronts, warps * s * (op == CP_OP_LOAD ? q : wf));
                CHECK_EQ_U64(p.store.requests, warps); /* out: one word per thread */
                CHECK_EQ_U64(p.store.sectors, warps * 4);
                CHECK_EQ_U64(p.load.requests, 0);
            }
        }
    /* the pattern's walk: the closed form, the kernels' incremental one, and in range */
    for (uint32_t s = 1; s <= CP_SMEM_STEP_MAX; s += 7)
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t e = cp_smem_start(l, s);
            for (uint32_t t = 0; t < 3 * s + 5; t++) {
                CHECK_EQ_U64(e, cp_smem_index(l, s, t));
                CHECK(e < cp_smem_elements(s));
                e = cp_smem_next(e, s);
            }
        }
    const uint32_t strides[] = {1, 2, 3, 8, 31, 32, 33, 64};
    for (size_t i = 0; i < sizeof strides / sizeof *strides; i++)
        for (size_t k = 0; k < 3; k++)
            for (int op = 0; op < 2; op++) {
                cp_config c = smem_cfg(strides[i], widths[k], (cp_op)op, 256, 2 * strides[i] + 3);
                check_fast_equals_exact(&c);
            }
}

/* transpose 64 x 64: 4 blocks of 8 warps, 4 steps each: 128 requests per access. A warp reads
 * 32 floats of one row (4 sectors); the naive write puts each lane in a row of its own (32
 * sectors); tiled and padded write rows. The tile: rows are stored (1 wavefront); a column is
 * read: 32 lanes on one bank without padding (32 wavefronts), on 32 banks with it. */
static void test_transpose_hand(void)
{
    cp_config c = transpose_cfg(CP_TRANSPOSE_NAIVE, 64, 64);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.naccesses, 2);
    CHECK_EQ_U64(p.load.requests, 128);
    CHECK_EQ_U64(p.load.sectors, 512);
    CHECK_EQ_U64(p.store.requests, 128);
    CHECK_EQ_U64(p.store.sectors, 128 * 32);
    CHECK_EQ_U64(p.shared_load.requests, 0);
    for (int v = CP_TRANSPOSE_TILED; v <= CP_TRANSPOSE_PADDED; v++) {
        c = transpose_cfg((cp_transpose_variant)v, 64, 64);
        p = predict(&c);
        CHECK_EQ_U64(p.naccesses, 4);
        CHECK_EQ_U64(p.load.sectors, 512);
        CHECK_EQ_U64(p.store.sectors, 512);
        CHECK_EQ_U64(p.shared_store.requests, 128);
        CHECK_EQ_U64(p.shared_store.wavefronts, 128);
        CHECK_EQ_U64(p.shared_load.requests, 128);
        CHECK_EQ_U64(p.shared_load.wavefronts, v == CP_TRANSPOSE_TILED ? 128 * 32 : 128);
        CHECK_EQ_U64(p.shared_load.bank_conflicts, v == CP_TRANSPOSE_TILED ? 128 * 31 : 0);
    }
    /* partial tiles: every (row, block column) pair is one request of the read */
    c = transpose_cfg(CP_TRANSPOSE_TILED, 1000, 1100);
    p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 1000 * 35);
    CHECK_EQ_U64(p.store.requests, 1100 * 32);
    CHECK_EQ_U64(p.shared_load.requests, 35 * 32 * 8 * 4); /* every warp, every step */
    const uint64_t dims[][2] = {{64, 64}, {1000, 1100}, {33, 65}, {1, 1}, {31, 97}, {128, 40}};
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++)
        for (int v = 0; v < CP_TRANSPOSE_COUNT; v++) {
            c = transpose_cfg((cp_transpose_variant)v, dims[i][0], dims[i][1]);
            check_fast_equals_exact(&c);
        }
}

static cp_expr *parse(const char *text, const char *const *names, size_t n)
{
    cp_expr *e = NULL;
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_expr_parse(text, names, n, &e, &st), CP_EXIT_OK);
    return e;
}

static void test_expr(void)
{
    /* the example: lane l of warp w reads element l*1024 + w: one sector per lane */
    cp_expr *e = parse("(i % 32) * 1024 + i / 32", NULL, 0);
    cp_config c = expr_cfg(e, CP_OP_LOAD, 4, 32768);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 1024);
    CHECK_EQ_U64(p.load.sectors, 1024 * 32);
    CHECK_EQ_U64(p.load.footprint_sectors, 32768 * 4 / 32);
    CHECK_EQ_U64(p.store.sectors, 1024 * 4);
    check_fast_equals_exact(&c);
    cp_expr_free(e);

    /* a permutation inside n: i ^ 1 swaps neighbours: each warp still covers its 128 bytes */
    e = parse("i ^ 1", NULL, 0);
    c = expr_cfg(e, CP_OP_STORE, 4, 4096);
    p = predict(&c);
    CHECK_EQ_U64(p.store.sectors, 128 * 4);
    CHECK_EQ_U64(p.load.sectors, 128 * 4);
    check_fast_equals_exact(&c);
    cp_expr_free(e);

    /* refusals carry the position and the thread */
    cp_status st;
    e = parse("n / (5 - i) - 1", NULL, 0); /* 19, 24, 32, 49, 99, then 100 / 0 */
    c = expr_cfg(e, CP_OP_LOAD, 4, 100);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_model_predict(&c, &p, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "division by zero at position 2");
    CHECK_STR_CONTAINS(st.message, "i = 5");
    CHECK_STR_CONTAINS(st.hint, "^");
    cp_expr_free(e);
    e = parse("i + 1", NULL, 0);
    c = expr_cfg(e, CP_OP_LOAD, 4, 100);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_model_predict(&c, &p, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "gives 100 for i = 99");
    cp_expr_free(e);
    e = parse("i - 1", NULL, 0);
    c = expr_cfg(e, CP_OP_STORE, 4, 100);
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_model_predict_exact(&c, 1000000, &p, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "gives -1 for i = 0");
    cp_expr_free(e);
}

/* The expr family against the stride family, and a strided expression by hand. */
static void test_expr_equals_stride(void)
{
    /* "i * s + o" at s = 1, o = 0 over n threads: the stride family at stride 1 */
    const char *names[] = {"s", "o"};
    cp_expr *e = parse("i * s + o", names, 2);
    const uint32_t widths[] = {4, 8, 16, 32};
    for (size_t k = 0; k < 4; k++)
        for (int op = 0; op < 2; op++) {
            cp_config c = expr_cfg(e, (cp_op)op, widths[k], 1000);
            c.nexpr_params = 2;
            c.expr_params[0] = 1;
            c.expr_params[1] = 0;
            cp_config sc = stride_cfg(1, 0, widths[k], (cp_op)op, 1000);
            cp_prediction a = predict(&c), b = predict(&sc);
            CHECK(same(&a.load, &b.load));
            CHECK(same(&a.store, &b.store));
        }
    /* o = 1 moves the last thread's index to n: refused, naming the thread */
    cp_config c = expr_cfg(e, CP_OP_LOAD, 4, 1000);
    c.nexpr_params = 2;
    c.expr_params[0] = 1;
    c.expr_params[1] = 1;
    cp_prediction q;
    cp_status st;
    cp_status_clear(&st);
    CHECK_EQ_U64(cp_model_predict(&c, &q, &st), CP_EXIT_USAGE);
    CHECK_STR_CONTAINS(st.message, "gives 1000 for i = 999");
    /* i % 32 * s: lanes s elements apart within n = 32 * s */
    const char *sn[] = {"s"};
    cp_expr *e2 = parse("i % 32 * s", sn, 1);
    for (int64_t s = 1; s <= 32; s++) {
        cp_config ce = expr_cfg(e2, CP_OP_LOAD, 4, 32 * (uint64_t)s);
        ce.nexpr_params = 1;
        ce.expr_params[0] = s;
        cp_prediction p = predict(&ce);
        uint64_t warps = (uint64_t)s, per = s >= 8 ? 32 : (uint64_t)(32 * s + 7) / 8;
        CHECK_EQ_U64(p.load.requests, warps);
        CHECK_EQ_U64(p.load.sectors, warps * per);
        check_fast_equals_exact(&ce);
    }
    cp_expr_free(e2);
    cp_expr_free(e);
}

int main(void)
{
    test_bank_requests();
    test_smem_hand();
    test_transpose_hand();
    test_expr();
    test_expr_equals_stride();
    return cp_test_finish();
}
