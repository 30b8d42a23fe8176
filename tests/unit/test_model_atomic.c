/* test_model_atomic.c: the atomic family's model against counts derived by hand (every lane its
 * own word, contention, strided, warp-aggregated), its own counters and their columns, the host's
 * expected accumulators, and its fast path against the enumeration of every warp. */
#include "cp_test_model.h"

#include "cp_atomic.h"
#include "cp_atomic_config.h"

static cp_config atomic_cfg(cp_atomic_variant v, cp_atomic_op op, cp_atomic_type type,
                            uint64_t addresses, uint64_t stride, uint64_t n)
{
    cp_config c;
    memset(&c, 0, sizeof c);
    CHECK(cp_family_find("atomic", &c.family));
    c.elements = n;
    cp_atomic_config *a = cp_atomic_config_of(&c);
    a->variant = v, a->op = op, a->type = type, a->addresses = addresses, a->lane_words = stride;
    return c;
}

/* The family counter named key of p (by the descriptor's order). */
static double counter(const cp_config *c, const cp_prediction *p, const char *key)
{
    const cp_family_desc *d = cp_family_get(c->family);
    for (size_t i = 0; d && i < d->ncounters; i++)
        if (strcmp(d->counters[i].key, key) == 0)
            return i < p->nfamily ? p->family[i] : -1;
    return -1;
}

/* red over full warps: requests, sectors and lanes per address per warp, none of them a load's
 * or a store's (an atomic is the family's own count). */
static void check_red(cp_atomic_variant v, uint64_t addresses, uint64_t stride, double sectors,
                      double lanes)
{
    const uint64_t n = 1u << 16, warps = n / 32;
    for (int t = CP_ATOMIC_TYPE_U32; t <= CP_ATOMIC_TYPE_F32; t++) {
        cp_config c = atomic_cfg(v, CP_ATOMIC_OP_RED, (cp_atomic_type)t, addresses, stride, n);
        cp_prediction p = predict(&c);
        CHECK_EQ_U64(p.load.requests, 0);
        CHECK_EQ_U64(p.store.requests, 0);
        CHECK_EQ_U64(p.nfamily, 3);
        CHECK(counter(&c, &p, "atomic_requests") == (double)warps);
        CHECK(counter(&c, &p, "atomic_sectors") == sectors * (double)warps);
        CHECK(counter(&c, &p, "lanes_per_address") == lanes);
        /* the two with a CUPTI metric are judged, the lanes (the model's own) not */
        CHECK_EQ_U64(p.family_checked, 0x3);
    }
}

static void test_by_hand(void)
{
    /* own f32, stride 1: a warp's 32 consecutive words, 4 sectors, one lane each */
    check_red(CP_ATOMIC_VARIANT_OWN, 32, 1, 4, 1);
    /* contention: L1 serves the lanes of one address in passes, one lane of every address a
     * pass, each pass moving its addresses' sectors. 1 address: 32 passes of one sector; 2, 8
     * words (one sector, a warp's words are 4 * A bytes aligned to their size): 16 and 4 passes;
     * 16 words: 2 passes of 2 sectors; 32: one pass of 4 */
    check_red(CP_ATOMIC_VARIANT_CONTENTION, 1, 1, 32, 32);
    check_red(CP_ATOMIC_VARIANT_CONTENTION, 2, 1, 16, 16);
    check_red(CP_ATOMIC_VARIANT_CONTENTION, 8, 1, 4, 4);
    check_red(CP_ATOMIC_VARIANT_CONTENTION, 16, 1, 4, 2);
    check_red(CP_ATOMIC_VARIANT_CONTENTION, 32, 1, 4, 1);
    /* 3 words (lanes 11, 11, 10): warp w's start at word 3w, so 6 warps of 8 hold them in one
     * sector (11 passes of 1), the warp at word 6 mod 8 straddles after 2 (10 passes of 2 and a
     * last of its 2 first words, in 1: 21), the one at 7 mod 8 after 1 (10 of 2, a last of 2:
     * 22): 109 sectors every 8 warps, as the H100 counted (docs/model.md) */
    check_red(CP_ATOMIC_VARIANT_CONTENTION, 3, 1, 109.0 / 8, 11);
    /* strided by 8 words (32 bytes, a sector): 32 sectors; by 2: 8 */
    check_red(CP_ATOMIC_VARIANT_STRIDED, 32, 8, 32, 1);
    check_red(CP_ATOMIC_VARIANT_STRIDED, 32, 2, 8, 1);
    /* aggregated: one atomic a warp from lane 0, one sector */
    check_red(CP_ATOMIC_VARIANT_AGGREGATED, 1, 1, 1, 1);
}

/* atom keeps the old value: its own counters, and a dense store of them (4 sectors a warp). */
static void test_atom_stores(void)
{
    const uint64_t n = 32 * 100 + 7, warps = 101; /* a partial last warp of 7 lanes */
    cp_config c =
        atomic_cfg(CP_ATOMIC_VARIANT_CONTENTION, CP_ATOMIC_OP_ATOM, CP_ATOMIC_TYPE_U32, 4, 1, n);
    cp_prediction p = predict(&c);
    CHECK(counter(&c, &p, "atomic_requests") == (double)warps);
    /* 16 bytes a warp, one sector, in 8 passes; the last warp's 7 lanes (2, 2, 2, 1 on its 4
     * words) in 2 */
    CHECK(counter(&c, &p, "atomic_sectors") == 8.0 * 100 + 2);
    CHECK(counter(&c, &p, "lanes_per_address") == 8);
    CHECK_EQ_U64(p.store.requests, warps);
    CHECK_EQ_U64(p.store.sectors, 4 * 100 + 1);
    CHECK_EQ_U64(p.load.requests, 0);
    CHECK_EQ_U64(p.naccesses, 2);
    CHECK(p.accesses[0].family_counted && !p.accesses[1].family_counted);
    /* the partial last warp of aggregated: still one atomic, all 7 lanes summed first */
    c = atomic_cfg(CP_ATOMIC_VARIANT_AGGREGATED, CP_ATOMIC_OP_ATOM, CP_ATOMIC_TYPE_F32, 1, 1, n);
    p = predict(&c);
    CHECK(counter(&c, &p, "atomic_requests") == (double)warps);
    CHECK(counter(&c, &p, "atomic_sectors") == (double)warps);
    CHECK(counter(&c, &p, "lanes_per_address") == 1);
}

/* The metric of each counter: atom's ATOM counters, red's RED ones, the lanes none; every one
 * the CUPTI plan of GH100 knows (test_cupti). */
static void test_metrics(void)
{
    cp_config atom =
        atomic_cfg(CP_ATOMIC_VARIANT_OWN, CP_ATOMIC_OP_ATOM, CP_ATOMIC_TYPE_U32, 32, 1, 64);
    cp_config red =
        atomic_cfg(CP_ATOMIC_VARIANT_OWN, CP_ATOMIC_OP_RED, CP_ATOMIC_TYPE_F32, 32, 1, 64);
    const cp_family_desc *d = cp_family_get(atom.family);
    CHECK(d && d->ncounters == 3 && d->table_counts == CP_COUNTS_FAMILY);
    CHECK_STR_CONTAINS(cp_family_counter_metric(&d->counters[0], &atom),
                       "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum");
    CHECK_STR_CONTAINS(cp_family_counter_metric(&d->counters[0], &red),
                       "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum");
    CHECK_STR_CONTAINS(cp_family_counter_metric(&d->counters[1], &atom),
                       "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum");
    CHECK_STR_CONTAINS(cp_family_counter_metric(&d->counters[1], &red),
                       "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum");
    CHECK(cp_family_counter_metric(&d->counters[2], &atom) == NULL);
}

/* What the output check expects: each accumulator counts the threads that add to it. */
static void test_expected(void)
{
    const uint64_t n = 32 * 3 + 5;
    /* contention, 4 words a warp: 8 lanes each, in the last warp (lanes 0..4) 2, 1, 1, 1 */
    CHECK_EQ_U64(cp_atomic_slots(n, CP_ATOMIC_CONTENTION, 4, 1), 16);
    CHECK_EQ_U64(cp_atomic_expected(0, n, CP_ATOMIC_CONTENTION, 4, 1), 8);
    CHECK_EQ_U64(cp_atomic_expected(12, n, CP_ATOMIC_CONTENTION, 4, 1), 2);
    CHECK_EQ_U64(cp_atomic_expected(13, n, CP_ATOMIC_CONTENTION, 4, 1), 1);
    CHECK_EQ_U64(cp_atomic_expected(15, n, CP_ATOMIC_CONTENTION, 4, 1), 1);
    /* strided by 3: every third word once */
    CHECK_EQ_U64(cp_atomic_slots(n, CP_ATOMIC_STRIDED, 32, 3), (n - 1) * 3 + 1);
    CHECK_EQ_U64(cp_atomic_expected(3, n, CP_ATOMIC_STRIDED, 32, 3), 1);
    CHECK_EQ_U64(cp_atomic_expected(4, n, CP_ATOMIC_STRIDED, 32, 3), 0);
    CHECK_EQ_U64(cp_atomic_expected(n * 3, n, CP_ATOMIC_STRIDED, 32, 3), 0);
    /* aggregated: a warp's active lanes */
    CHECK_EQ_U64(cp_atomic_slots(n, CP_ATOMIC_AGGREGATED, 1, 1), 4);
    CHECK_EQ_U64(cp_atomic_expected(0, n, CP_ATOMIC_AGGREGATED, 1, 1), 32);
    CHECK_EQ_U64(cp_atomic_expected(3, n, CP_ATOMIC_AGGREGATED, 1, 1), 5);
    /* the sum over the accumulators is one add per thread */
    for (int v = CP_ATOMIC_OWN; v <= CP_ATOMIC_AGGREGATED; v++) {
        uint64_t a = v == CP_ATOMIC_CONTENTION ? 3 : 32, s = v == CP_ATOMIC_STRIDED ? 5 : 1;
        uint64_t sum = 0;
        for (uint64_t k = 0; k < cp_atomic_slots(n, v, a, s); k++)
            sum += cp_atomic_expected(k, n, v, a, s);
        CHECK_EQ_U64(sum, n);
    }
}

/* The fast path (classes of warps) and the enumeration of every warp agree, odd sizes too. */
static void test_fast_vs_exact(void)
{
    const uint64_t sizes[] = {1, 31, 33, 32 * 256 + 17};
    for (size_t k = 0; k < CP_COUNT_OF(sizes); k++)
        for (int v = 0; v < CP_ATOMIC_VARIANT_COUNT; v++)
            for (uint64_t a = 1; a <= 32; a *= 2) {
                cp_config c = atomic_cfg((cp_atomic_variant)v, CP_ATOMIC_OP_ATOM,
                                         CP_ATOMIC_TYPE_U32, a, a, sizes[k]);
                cp_prediction fast, exact;
                if (!cp_test_fast_and_exact(&c, 1ull << 26, &fast, &exact))
                    continue;
                for (size_t i = 0; i < fast.naccesses; i++)
                    CHECK(same_counts(&fast.accesses[i].counts, &exact.accesses[i].counts));
                for (size_t i = 0; i < fast.nfamily; i++)
                    CHECK(fast.family[i] == exact.family[i]);
            }
}

/* The plan leaves out what a variant does not have: --addresses beyond contention, --stride
 * beyond strided. */
static void test_absent(void)
{
    const cp_family_desc *d;
    cp_config c =
        atomic_cfg(CP_ATOMIC_VARIANT_OWN, CP_ATOMIC_OP_RED, CP_ATOMIC_TYPE_U32, 32, 1, 64);
    d = cp_family_get(c.family);
    CHECK(d && d->absent && d->absent(&c) == NULL);
    cp_atomic_config_of(&c)->addresses = 4;
    CHECK(d->absent(&c) != NULL);
    cp_atomic_config_of(&c)->variant = CP_ATOMIC_VARIANT_CONTENTION;
    CHECK(d->absent(&c) == NULL);
    cp_atomic_config_of(&c)->lane_words = 2;
    CHECK(d->absent(&c) != NULL);
    c = atomic_cfg(CP_ATOMIC_VARIANT_AGGREGATED, CP_ATOMIC_OP_RED, CP_ATOMIC_TYPE_U32, 1, 1, 64);
    CHECK(d->absent(&c) == NULL);
    c = atomic_cfg(CP_ATOMIC_VARIANT_STRIDED, CP_ATOMIC_OP_RED, CP_ATOMIC_TYPE_U32, 32, 8, 64);
    CHECK(d->absent(&c) == NULL);
}

/* Against the hardware: the atomic sectors the H100 counted for contention over 1 to 31
 * addresses on 1,025 threads (32 full warps and one lane), the same for ATOM and RED, u32 and
 * f32 (driver 580.159.04, 2026-12-07, gpu.counts_equal_model:
 * docs/results/2026-12-07-h100-session22-d4b8edd/counts_equal_model_atomic.txt), and on 1M
 * threads for 1, 2, 4 and 8 addresses. */
static void test_h100_contention(void)
{
    static const double measured[32] = {0,   1025, 513, 437, 257, 325, 273, 269, 129, 241, 225,
                                        213, 177,  213, 201, 213, 129, 185, 177, 185, 161, 185,
                                        177, 185,  129, 185, 177, 185, 161, 185, 177, 185};
    for (uint64_t a = 1; a < 32; a++)
        for (int op = CP_ATOMIC_OP_ATOM; op <= CP_ATOMIC_OP_RED; op++) {
            cp_config c = atomic_cfg(CP_ATOMIC_VARIANT_CONTENTION, (cp_atomic_op)op,
                                     CP_ATOMIC_TYPE_F32, a, 1, 1025);
            cp_prediction p = predict(&c);
            CHECK(counter(&c, &p, "atomic_requests") == 33);
            CHECK(counter(&c, &p, "atomic_sectors") == measured[a]);
        }
    static const double large[4][2] = {{1, 1048576}, {2, 524288}, {4, 262144}, {8, 131072}};
    for (int i = 0; i < 4; i++) {
        cp_config c = atomic_cfg(CP_ATOMIC_VARIANT_CONTENTION, CP_ATOMIC_OP_RED, CP_ATOMIC_TYPE_U32,
                                 (uint64_t)large[i][0], 1, 1u << 20);
        cp_prediction p = predict(&c);
        CHECK(counter(&c, &p, "atomic_sectors") == large[i][1]);
    }
}

int main(void)
{
    test_by_hand();
    test_h100_contention();
    test_atom_stores();
    test_metrics();
    test_expected();
    test_fast_vs_exact();
    test_absent();
    return cp_test_finish();
}
