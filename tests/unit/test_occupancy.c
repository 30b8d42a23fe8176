/* test_occupancy.c: blocks per SM, theoretical occupancy and the limit that holds them, against
 * cases worked out by hand from the H100's numbers (65536 registers, 2048 threads, 32 blocks and
 * 228 KiB of shared memory per SM; registers in units of 256 per warp over 4 sub-partitions,
 * shared memory in units of 128 bytes plus 1 KiB reserved per block). No GPU. */
#include "model/cp_model.h"
#include "cp_test.h"

#define BIT(l) (1u << (l))

/* An SM of 32-thread warps and 65536 registers with the given limits, and the allocation units
 * of arch (sm_<arch>). */
static cp_sm_limits sm_limits(int arch, uint32_t max_threads, uint32_t max_blocks,
                              uint64_t shared_bytes, uint32_t shared_reserved)
{
    cp_sm_limits sm = {0};
    sm.warp_size = 32, sm.registers_per_sm = 65536;
    sm.max_threads_per_sm = max_threads, sm.max_blocks_per_sm = max_blocks;
    sm.shared_bytes_per_sm = shared_bytes, sm.shared_reserved_per_block = shared_reserved;
    CHECK(cp_occupancy_arch_units(arch, &sm));
    return sm;
}

static cp_sm_limits h100(void)
{
    return sm_limits(90, 2048, 32, 228 * 1024, 1024);
}

/* Computes and checks blocks, occupancy and the limiters of one case. */
static cp_occupancy check(const cp_sm_limits *sm, uint32_t threads, uint32_t regs, uint64_t shared,
                          uint32_t blocks, double occupancy, unsigned limiters)
{
    cp_occupancy o;
    memset(&o, 0, sizeof o);
    CHECK(cp_occupancy_compute(sm, threads, regs, shared, &o));
    CHECK_EQ_U64(o.blocks, blocks);
    CHECK_NEAR(o.occupancy, occupancy, 1e-12);
    CHECK_EQ_U64(o.limiters, limiters);
    if (o.blocks != blocks || o.limiters != limiters)
        fprintf(stderr, "  %u threads x %u regs, %llu B shared: got %u blocks, limiters %#x\n",
                threads, regs, (unsigned long long)shared, o.blocks, o.limiters);
    return o;
}

static void h100_cases(void)
{
    cp_sm_limits sm = h100();
    CHECK_EQ_U64(sm.register_unit, 256);
    CHECK_EQ_U64(sm.register_partitions, 4);
    CHECK_EQ_U64(sm.shared_unit, 128);

    /* 1024 threads x 32 regs: 32 warps of 1024 registers; a sub-partition's 16384 hold 16
     * warps, the SM 64: 2 blocks, and 2048 threads allow 2 too. Occupancy 1.0 */
    cp_occupancy o =
        check(&sm, 1024, 32, 0, 2, 1.0, BIT(CP_LIMIT_THREADS) | BIT(CP_LIMIT_REGISTERS));
    CHECK_EQ_U64(o.warps_per_block, 32);
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_THREADS], 2);
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_REGISTERS], 2);
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_BLOCKS], 32);
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_SHARED], UINT32_MAX);

    /* 1024 x 40 regs: 1280 registers a warp; 16384 / 1280 = 12 warps a sub-partition, 48 an
     * SM: one block of 32 warps, occupancy 0.5, held by the registers */
    o = check(&sm, 1024, 40, 0, 1, 0.5, BIT(CP_LIMIT_REGISTERS));
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_REGISTERS], 1);

    /* 33 regs: 1056 a warp rounds up to 1280: as 40 */
    check(&sm, 1024, 33, 0, 1, 0.5, BIT(CP_LIMIT_REGISTERS));

    /* the GEMM smem rung: 1024 threads, 30 regs (960 -> 1024 a warp), 8 KiB of tiles: 8192 +
     * 1024 reserved = 9216 B a block, 233472 / 9216 = 25 blocks by shared memory; 2 by threads
     * and registers */
    o = check(&sm, 1024, 30, 8192, 2, 1.0, BIT(CP_LIMIT_THREADS) | BIT(CP_LIMIT_REGISTERS));
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_SHARED], 25);

    /* the stride kernel: 256 threads (8 warps) x 16 regs: 8 blocks by threads, 16 by registers
     * (512 a warp: 32 warps a sub-partition) */
    o = check(&sm, 256, 16, 0, 8, 1.0, BIT(CP_LIMIT_THREADS));
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_REGISTERS], 16);

    /* 256 threads with 48 KiB of dynamic shared memory: 49152 + 1024 = 50176 B (a multiple of
     * 128), 233472 / 50176 = 4 blocks: 32 of 64 warps */
    o = check(&sm, 256, 16, 48 * 1024, 4, 0.5, BIT(CP_LIMIT_SHARED));
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_SHARED], 4);

    /* shared memory rounded up: 100 B + 1024 -> 1152 B a block, 233472 / 1152 = 202 */
    o = check(&sm, 32, 16, 100, 32, 0.5, BIT(CP_LIMIT_BLOCKS));
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_SHARED], 202);

    /* one-warp blocks: 64 by threads, 128 by registers, 32 by the SM's block slots: 32 warps */
    check(&sm, 32, 16, 0, 32, 0.5, BIT(CP_LIMIT_BLOCKS));

    /* a block of 48 threads takes 2 warps: 32 blocks, all 64 warps */
    o = check(&sm, 48, 16, 0, 32, 1.0, BIT(CP_LIMIT_THREADS) | BIT(CP_LIMIT_BLOCKS));
    CHECK_EQ_U64(o.warps_per_block, 2);

    /* a transpose tile launched `alone`: 4224 B static + 117760 - 4224 B dynamic + 1024 = 118784
     * B: one block per SM; 8 warps of 64 */
    check(&sm, 256, 16, 117760, 1, 0.125, BIT(CP_LIMIT_SHARED));

    /* 255 regs (8192 a warp): 2 warps a sub-partition, 8 an SM: no block of 32 warps fits */
    check(&sm, 1024, 255, 0, 0, 0.0, BIT(CP_LIMIT_REGISTERS));
}

static void other_sm(void)
{
    /* sm_75 (Turing): 1024 threads, 16 blocks, 64 KiB of shared memory per SM; units of 256 */
    cp_sm_limits sm = sm_limits(75, 1024, 16, 64 * 1024, 0);
    CHECK_EQ_U64(sm.shared_unit, 256);
    /* 1024 x 32: 2 blocks by registers, 1 by threads: occupancy 1.0, held by threads */
    check(&sm, 1024, 32, 0, 1, 1.0, BIT(CP_LIMIT_THREADS));
    /* 100 B of shared memory round up to 256: 256 blocks by shared memory, 16 by slots */
    cp_occupancy o = check(&sm, 64, 8, 100, 16, 1.0, BIT(CP_LIMIT_THREADS) | BIT(CP_LIMIT_BLOCKS));
    CHECK_EQ_U64(o.blocks_by[CP_LIMIT_SHARED], 256);
    CHECK(!cp_occupancy_arch_units(35, &sm));
}

static void refusals_and_names(void)
{
    cp_sm_limits sm = h100();
    cp_occupancy o;
    memset(&o, 0x5a, sizeof o);
    CHECK(!cp_occupancy_compute(&sm, 0, 32, 0, &o)); /* no threads */
    CHECK_EQ_U64(o.blocks, 0x5a5a5a5au);             /* untouched */
    cp_sm_limits none = {0};
    CHECK(!cp_occupancy_compute(&none, 256, 32, 0, &o));

    CHECK(strcmp(cp_limit_name(CP_LIMIT_THREADS), "threads") == 0);
    CHECK(strcmp(cp_limit_name(CP_LIMIT_REGISTERS), "registers") == 0);
    CHECK(strcmp(cp_limit_name(CP_LIMIT_SHARED), "shared_memory") == 0);
    CHECK(strcmp(cp_limit_name(CP_LIMIT_BLOCKS), "blocks") == 0);
    CHECK(strcmp(cp_limit_name(CP_LIMIT_COUNT), "?") == 0);
    char buf[64];
    cp_occupancy_describe_limiters(BIT(CP_LIMIT_THREADS) | BIT(CP_LIMIT_REGISTERS), "+", buf,
                                   sizeof buf);
    CHECK(strcmp(buf, "threads+registers") == 0);
    cp_occupancy_describe_limiters(0, "+", buf, sizeof buf);
    CHECK(strcmp(buf, "") == 0);
    char small[10];
    cp_occupancy_describe_limiters(BIT(CP_LIMIT_SHARED) | BIT(CP_LIMIT_BLOCKS), ", ", small,
                                   sizeof small);
    CHECK(strlen(small) < sizeof small); /* cut, never past the buffer */
}

int main(void)
{
    h100_cases();
    other_sm();
    refusals_and_names();
    return cp_test_finish();
}
