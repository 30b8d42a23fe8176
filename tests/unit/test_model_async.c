/* test_model_async.c: the async family's model against counts derived by hand for each rung of
 * the ladder (a tile: 4096 floats, 8 warps, 16 elements a thread), and its fast path against
 * the enumeration of every warp. */
#include "cp_test_model.h"

static cp_config async_cfg(cp_async_variant v, uint32_t stages, uint64_t tiles)
{
    cp_config c = cp_test_config(CP_FAMILY_ASYNC, 4, CP_OP_LOAD, tiles * 4096);
    cp_async_config *a = cp_async_config_of(&c);
    a->variant = v, a->stages = stages, a->work = 0;
    return c;
}

static void test_ladder_by_hand(void)
{
    const uint64_t tiles = 3, warps = tiles * 8, sectors = tiles * 4096 * 4 / 32;
    /* plain: 16 coalesced 4-byte loads and stores a thread, 4 sectors each */
    cp_config c = async_cfg(CP_ASYNC_VARIANT_PLAIN, 1, tiles);
    cp_prediction p = predict(&c);
    CHECK_EQ_U64(p.naccesses, 2);
    CHECK_EQ_U64(p.load.requests, warps * 16);
    CHECK_EQ_U64(p.load.sectors, sectors);
    CHECK_EQ_U64(p.load.footprint_sectors, sectors);
    CHECK_EQ_U64(p.store.requests, warps * 16);
    CHECK_EQ_U64(p.store.sectors, sectors);
    CHECK_EQ_U64(p.tma_load.requests, 0);
    CHECK_EQ_U64(p.shared_load.requests, 0);

    /* smem: the same global loads, a conflict-free shared store and load of every element */
    c = async_cfg(CP_ASYNC_VARIANT_SMEM, 1, tiles);
    p = predict(&c);
    CHECK_EQ_U64(p.naccesses, 4);
    CHECK_EQ_U64(p.load.sectors, sectors);
    CHECK_EQ_U64(p.shared_store.requests, warps * 16);
    CHECK_EQ_U64(p.shared_store.wavefronts, warps * 16);
    CHECK_EQ_U64(p.shared_store.bank_conflicts, 0);
    CHECK_EQ_U64(p.shared_load.wavefronts, warps * 16);

    /* cp-async: 16 bytes a lane, 4 copies a thread: 512 contiguous bytes, 16 sectors a request */
    c = async_cfg(CP_ASYNC_VARIANT_CP_ASYNC, 2, tiles);
    p = predict(&c);
    CHECK_EQ_U64(p.naccesses, 3);
    CHECK_EQ_U64(p.load.requests, warps * 4);
    CHECK_EQ_U64(p.load.sectors, sectors);
    CHECK_EQ_U64(p.load.bytes_requested, tiles * 16384);
    CHECK_EQ_U64(p.load.ideal_sectors, sectors);
    CHECK_EQ_U64(p.shared_load.requests, warps * 16);
    CHECK_EQ_U64(p.shared_store.requests, 0);

    /* TMA: one copy of 16 KB (512 sectors) a tile, none by the LSU */
    for (int v = CP_ASYNC_VARIANT_TMA_BULK; v <= CP_ASYNC_VARIANT_TMA_TENSOR; v++) {
        c = async_cfg((cp_async_variant)v, 3, tiles);
        p = predict(&c);
        CHECK_EQ_U64(p.load.requests, 0);
        CHECK_EQ_U64(p.load.sectors, 0);
        CHECK_EQ_U64(p.tma_load.requests, tiles);
        CHECK_EQ_U64(p.tma_load.sectors, sectors);
        CHECK_EQ_U64(p.tma_load.lines, tiles * 128);
        CHECK_EQ_U64(p.tma_load.bytes_requested, tiles * 16384);
        CHECK_EQ_U64(p.tma_load.footprint_sectors, sectors);
        CHECK(p.accesses[0].space == CP_SPACE_TMA);
        CHECK_EQ_U64(p.store.sectors, sectors);
    }
}

/* The fast path equals the enumeration of every warp, every rung and stage count. */
static void test_fast_vs_exact(void)
{
    for (int v = 0; v < CP_ASYNC_VARIANT_COUNT; v++)
        for (uint32_t s = 1; s <= 4; s++)
            for (uint64_t tiles = 1; tiles <= 5; tiles += 2) {
                cp_config c = async_cfg((cp_async_variant)v, s, tiles);
                cp_prediction fast, exact;
                if (!cp_test_fast_and_exact(&c, 1ull << 26, &fast, &exact))
                    continue;
                int same = same_counts(&fast.load, &exact.load) &&
                           same_counts(&fast.store, &exact.store) &&
                           same_counts(&fast.tma_load, &exact.tma_load) &&
                           fast.shared_load.wavefronts == exact.shared_load.wavefronts &&
                           fast.shared_store.wavefronts == exact.shared_store.wavefronts;
                CHECK(same);
                if (!same)
                    fprintf(stderr, "  variant %d stages %u tiles %llu\n", v, s,
                            (unsigned long long)tiles);
            }
}

int main(void)
{
    test_ladder_by_hand();
    test_fast_vs_exact();
    return cp_test_finish();
}
