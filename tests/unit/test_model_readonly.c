/* test_model_readonly.c: the readonly family's model against counts derived by hand (the mod
 * lookup of the chapter, broadcast, constant memory), and its fast path against the
 * enumeration of every warp. */
#include "cp_test_model.h"

static cp_config readonly_cfg(cp_readonly_variant v, cp_lookup lookup, uint64_t table_bytes,
                              uint64_t n)
{
    cp_config c = cp_test_config(CP_FAMILY_READONLY, 4, CP_OP_LOAD, n);
    cp_readonly_config *r = cp_readonly_config_of(&c);
    r->variant = v, r->lookup = lookup, r->table_bytes = table_bytes;
    return c;
}

/* The chapter's lookup: out[i] = table[i % 1024], 2^20 threads. A warp reads one 128-byte line
 * (4 sectors); the whole table (4 KB, 128 sectors) is the footprint; out is dense. */
static void test_mod_by_hand(void)
{
    const uint64_t n = 1u << 20, warps = n / 32;
    for (int v = CP_READONLY_VARIANT_PLAIN; v <= CP_READONLY_VARIANT_LDG; v++) {
        cp_config c = readonly_cfg((cp_readonly_variant)v, CP_LOOKUP_MOD, 4096, n);
        cp_prediction p = predict(&c);
        CHECK_EQ_U64(p.load.requests, warps);
        CHECK_EQ_U64(p.load.sectors, 4 * warps);
        CHECK_EQ_U64(p.load.ideal_sectors, 4 * warps);
        CHECK_EQ_U64(p.load.bytes_requested, 128 * warps);
        CHECK_EQ_U64(p.load.footprint_sectors, 128);
        CHECK_EQ_U64(p.store.sectors, 4 * warps);
        CHECK_EQ_U64(p.store.footprint_sectors, n * 4 / 32);
    }
    /* a table larger than the lookups: only the first n entries are read */
    cp_config c = readonly_cfg(CP_READONLY_VARIANT_PLAIN, CP_LOOKUP_MOD, 64u << 20, n);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.footprint_sectors, n * 4 / 32);
}

/* broadcast: every lane reads one word, one sector a request, 4 of its 32 bytes used. */
static void test_broadcast_by_hand(void)
{
    const uint64_t n = 1u << 16, warps = n / 32;
    cp_config c = readonly_cfg(CP_READONLY_VARIANT_RESTRICT, CP_LOOKUP_BROADCAST, 1024, n);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, warps);
    CHECK_EQ_U64(p.load.sectors, warps);
    CHECK_EQ_U64(p.load.bytes_requested, 4 * warps);
    CHECK_EQ_U64(p.load.ideal_sectors, warps);
    /* warps 0..2047 read entries 0..255 eight times over: the whole 1 KB table, 32 sectors */
    CHECK_EQ_U64(p.load.footprint_sectors, 32);
}

/* constant memory: no global load at all; the constant cache serves 32 distinct words a mod
 * request (31 passes beyond the first) and 1 a broadcast request. */
static void test_constant_by_hand(void)
{
    const uint64_t n = 1000 * 32 + 5, warps = 1001;
    cp_config c = readonly_cfg(CP_READONLY_VARIANT_CONSTANT, CP_LOOKUP_MOD, 4096, n);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 0);
    CHECK_EQ_U64(p.load.sectors, 0);
    const cp_access_prediction *t = &p.accesses[0];
    CHECK(t->space == CP_SPACE_CONSTANT && t->op == CP_OP_LOAD);
    CHECK_EQ_U64(t->counts.requests, warps);
    CHECK_EQ_U64(t->counts.wavefronts, 1000 * 32 + 5);
    CHECK_EQ_U64(t->counts.ideal_wavefronts, warps);
    CHECK_EQ_U64(t->counts.bank_conflicts, 1000 * 31 + 4);
    CHECK_EQ_U64(t->counts.sectors, 0);
    CHECK_EQ_U64(t->counts.footprint_sectors, 0);
    CHECK_EQ_U64(p.store.requests, warps);

    cp_readonly_config_of(&c)->lookup = CP_LOOKUP_BROADCAST;
    p = predict(&c);
    CHECK_EQ_U64(p.accesses[0].counts.wavefronts, warps);
    CHECK_EQ_U64(p.accesses[0].counts.bank_conflicts, 0);
}

/* random lookups into a table of 32 entries (one line): every request stays within 4 sectors,
 * and most touch all 4. */
static void test_random_small_table(void)
{
    cp_config c = readonly_cfg(CP_READONLY_VARIANT_LDG, CP_LOOKUP_RANDOM, 128, 1u << 14);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.load.requests, 512);
    CHECK(p.load.sectors <= 4 * 512 && p.load.sectors > 3 * 512);
    CHECK_EQ_U64(p.load.footprint_sectors, 4);
}

/* The fast path (classes, the mod footprint) equals the enumeration of every warp, for every
 * variant and index, tables of whole lines or not, grids with a partial last warp. */
static void test_fast_vs_exact(void)
{
    const uint64_t tables[] = {128, 132, 4096, 4100, 1u << 20};
    const uint64_t ns[] = {1, 31, 1000, 4133, 70000};
    for (int v = 0; v < CP_READONLY_VARIANT_COUNT; v++)
        for (int l = 0; l < CP_LOOKUP_COUNT; l++)
            for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
                for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                    cp_config c =
                        readonly_cfg((cp_readonly_variant)v, (cp_lookup)l, tables[t], ns[k]);
                    cp_prediction fast, exact;
                    if (!cp_test_fast_and_exact(&c, 1ull << 28, &fast, &exact))
                        continue;
                    int same = 1;
                    for (size_t a = 0; a < fast.naccesses; a++) {
                        const cp_counts *x = &fast.accesses[a].counts,
                                        *y = &exact.accesses[a].counts;
                        same &= same_counts(x, y) && x->wavefronts == y->wavefronts &&
                                x->bank_conflicts == y->bank_conflicts;
                    }
                    CHECK(same && same_counts(&fast.load, &exact.load) &&
                          same_counts(&fast.store, &exact.store));
                    if (!same)
                        fprintf(stderr, "  variant %d index %d table %llu n %llu\n", v, l,
                                (unsigned long long)tables[t], (unsigned long long)ns[k]);
                }
}

/* The working set (the table bytes the lookups reach) and the regime it suggests on an H100's
 * caches (256 KB of L1 per SM, 8 KB of constant cache, 50 MB of L2). */
static void test_regime(void)
{
    const uint64_t l2 = 50u << 20;
    struct {
        cp_readonly_variant v;
        cp_lookup lookup;
        uint64_t table, n, working_set;
        cp_regime regime;
    } cases[] = {
        {CP_READONLY_VARIANT_PLAIN, CP_LOOKUP_MOD, 4096, 1u << 20, 4096, CP_REGIME_L1},
        {CP_READONLY_VARIANT_RESTRICT, CP_LOOKUP_MOD, 256u << 10, 1u << 20, 256u << 10,
         CP_REGIME_L1},
        {CP_READONLY_VARIANT_LDG, CP_LOOKUP_MOD, (256u << 10) + 4, 1u << 20, (256u << 10) + 4,
         CP_REGIME_L2},
        /* the lookups reach only the first n entries of a larger table */
        {CP_READONLY_VARIANT_PLAIN, CP_LOOKUP_MOD, 64u << 20, 1u << 20, 4u << 20, CP_REGIME_L2},
        {CP_READONLY_VARIANT_PLAIN, CP_LOOKUP_RANDOM, 256u << 20, 64u << 20, 256u << 20,
         CP_REGIME_DRAM},
        /* broadcast: one entry a warp */
        {CP_READONLY_VARIANT_PLAIN, CP_LOOKUP_BROADCAST, 64u << 20, 1u << 20, 4u << 15,
         CP_REGIME_L1},
        {CP_READONLY_VARIANT_CONSTANT, CP_LOOKUP_MOD, 8192, 1u << 20, 8192,
         CP_REGIME_CONSTANT_CACHE},
        {CP_READONLY_VARIANT_CONSTANT, CP_LOOKUP_MOD, 8196, 1u << 20, 8196,
         CP_REGIME_BEYOND_CONSTANT},
    };
    for (size_t i = 0; i < CP_COUNT_OF(cases); i++) {
        cp_config c = readonly_cfg(cases[i].v, cases[i].lookup, cases[i].table, cases[i].n);
        cp_prediction p = predict(&c);
        CHECK_EQ_U64(p.working_set_bytes, cases[i].working_set);
        CHECK(p.regime == CP_REGIME_UNKNOWN); /* no device yet */
        cp_model_estimate_regime(&p, 90, l2);
        CHECK_EQ_U64((uint64_t)p.regime, (uint64_t)cases[i].regime);
        CHECK_EQ_U64(p.caches.l1_per_sm, 256u << 10);
        CHECK_EQ_U64(p.caches.constant_cache_per_sm, 8192);
        CHECK_EQ_U64(p.caches.l2, l2);
        /* an architecture whose caches are not listed: no estimate */
        cp_model_estimate_regime(&p, 61, l2);
        CHECK(p.regime == CP_REGIME_UNKNOWN && p.caches.l1_per_sm == 0);
    }
    /* a family that states no working set has no regime */
    cp_config s = cp_test_config(CP_FAMILY_STRIDE, 4, CP_OP_LOAD, 1u << 20);
    cp_prediction p = predict(&s);
    cp_model_estimate_regime(&p, 90, l2);
    CHECK(p.working_set_bytes == 0 && p.regime == CP_REGIME_UNKNOWN);
    /* the names reports write, and the sizes per architecture */
    CHECK(strcmp(cp_regime_name(CP_REGIME_BEYOND_CONSTANT), "beyond_constant_cache") == 0);
    CHECK(cp_regime_name(CP_REGIME_UNKNOWN) == NULL);
    CHECK(strcmp(cp_regime_letters(CP_REGIME_BEYOND_CONSTANT), ">C$") == 0);
    CHECK(strcmp(cp_regime_letters(CP_REGIME_DRAM), "DRAM") == 0);
    CHECK(strcmp(cp_regime_letters(CP_REGIME_UNKNOWN), "-") == 0);
    cp_cache_sizes k;
    CHECK(cp_regime_caches(80, 40u << 20, &k) && k.l1_per_sm == 192u << 10);
    CHECK(cp_regime_caches(75, 6u << 20, &k) && k.l1_per_sm == 96u << 10);
    CHECK(!cp_regime_caches(0, 1, &k));
    CHECK(cp_regime_estimate(0, 0, &k) == CP_REGIME_UNKNOWN);
}

int main(void)
{
    test_mod_by_hand();
    test_broadcast_by_hand();
    test_constant_by_hand();
    test_random_small_table();
    test_fast_vs_exact();
    test_regime();
    return cp_test_finish();
}
