/* cp_occupancy.c: CUDA's occupancy calculation on numbers alone, and the limit that holds a
 * kernel's blocks per SM down (the rules of cuda_occupancy.h, CUDA 13.0). */
#include "cp_occupancy.h"

#include <stdio.h>
#include <string.h>

int cp_occupancy_arch_units(int arch, cp_sm_limits *sm)
{
    if (arch < 50)
        return 0;
    sm->register_unit = 256;
    sm->register_partitions = 4;
    sm->shared_unit = arch < 80 ? 256 : 128;
    return 1;
}

static uint64_t cp_occupancy_round_up(uint64_t x, uint64_t unit)
{
    return unit ? (x + unit - 1) / unit * unit : x;
}

int cp_occupancy_compute(const cp_sm_limits *sm, uint32_t threads, uint32_t registers,
                         uint64_t shared_bytes, cp_occupancy *out)
{
    if (!threads || !sm->warp_size || !sm->max_threads_per_sm || !sm->max_blocks_per_sm ||
        !sm->registers_per_sm || !sm->register_unit || !sm->register_partitions || !sm->shared_unit)
        return 0;
    cp_occupancy o;
    memset(&o, 0, sizeof o);
    o.warps_per_block = (threads + sm->warp_size - 1) / sm->warp_size;
    uint32_t sm_warps = sm->max_threads_per_sm / sm->warp_size;
    o.blocks_by[CP_LIMIT_THREADS] = sm_warps / o.warps_per_block;
    o.blocks_by[CP_LIMIT_BLOCKS] = sm->max_blocks_per_sm;
    /* registers: per warp, rounded up to the unit; each sub-partition holds whole warps */
    o.blocks_by[CP_LIMIT_REGISTERS] = UINT32_MAX;
    if (registers) {
        uint64_t per_warp =
            cp_occupancy_round_up((uint64_t)registers * sm->warp_size, sm->register_unit);
        uint64_t warps =
            sm->registers_per_sm / sm->register_partitions / per_warp * sm->register_partitions;
        o.blocks_by[CP_LIMIT_REGISTERS] = (uint32_t)(warps / o.warps_per_block);
    }
    /* shared memory: the block's bytes plus the driver's reserve, rounded up to the unit (a
     * kernel with no shared memory of its own still takes the reserve, so it never binds
     * first: reported as unlimited) */
    o.blocks_by[CP_LIMIT_SHARED] = UINT32_MAX;
    if (shared_bytes) {
        uint64_t per_block =
            cp_occupancy_round_up(shared_bytes + sm->shared_reserved_per_block, sm->shared_unit);
        uint64_t blocks = sm->shared_bytes_per_sm / per_block;
        o.blocks_by[CP_LIMIT_SHARED] = blocks > UINT32_MAX ? UINT32_MAX : (uint32_t)blocks;
    }
    o.blocks = UINT32_MAX;
    for (int l = 0; l < CP_LIMIT_COUNT; l++)
        if (o.blocks_by[l] < o.blocks)
            o.blocks = o.blocks_by[l];
    for (int l = 0; l < CP_LIMIT_COUNT; l++)
        if (o.blocks_by[l] == o.blocks)
            o.limiters |= 1u << l;
    o.occupancy = sm_warps ? (double)o.blocks * o.warps_per_block / sm_warps : 0.0;
    *out = o;
    return 1;
}

const char *cp_limit_name(cp_limit l)
{
    static const char *const names[CP_LIMIT_COUNT] = {"threads", "registers", "shared_memory",
                                                      "blocks"};
    return (unsigned)l < CP_LIMIT_COUNT ? names[l] : "?";
}

void cp_occupancy_describe_limiters(unsigned limiters, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int l = 0; l < CP_LIMIT_COUNT; l++) {
        if (!(limiters & (1u << l)))
            continue;
        int n = snprintf(buf + used, len > used ? len - used : 0, "%s%s", used ? sep : "",
                         cp_limit_name((cp_limit)l));
        if (n < 0 || (size_t)n >= (len > used ? len - used : 0))
            return;
        used += (size_t)n;
    }
}
