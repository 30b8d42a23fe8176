/* cp_regime.c: the regime of a working set (cp_regime.h): the cache sizes per architecture and
 * the comparison. */
#include "cp_regime.h"
#include "base/cp_base.h"

/* The unified L1 data cache and shared memory of one SM, per architecture (NVIDIA's tuning
 * guides: Volta 128 KB, Turing 96 KB, A100 192 KB, GA10x and Ada 128 KB, Hopper 256 KB; the
 * Blackwell guide: sm_100 256 KB, sm_120 128 KB). A kernel that uses no shared memory gets
 * nearly all of it as L1. */
static const struct {
    int arch;
    uint32_t l1_kib;
} cp_regime_l1[] = {
    {70, 128}, {72, 128}, {75, 96},  {80, 192},  {86, 128},
    {87, 192}, {89, 128}, {90, 256}, {100, 256}, {120, 128},
};

/* The constant cache's working set per SM: 8 KB on every architecture the CUDA C++ Programming
 * Guide lists (Technical Specifications per Compute Capability). */
#define CP_REGIME_CONSTANT_CACHE_BYTES 8192u

int cp_regime_caches(int arch, uint64_t l2_bytes, cp_cache_sizes *out)
{
    for (size_t i = 0; i < CP_COUNT_OF(cp_regime_l1); i++)
        if (cp_regime_l1[i].arch == arch) {
            out->l1_per_sm = (uint64_t)cp_regime_l1[i].l1_kib << 10;
            out->constant_cache_per_sm = CP_REGIME_CONSTANT_CACHE_BYTES;
            out->l2 = l2_bytes;
            return 1;
        }
    return 0;
}

cp_regime cp_regime_estimate(uint64_t bytes, int constant, const cp_cache_sizes *caches)
{
    if (bytes == 0)
        return CP_REGIME_UNKNOWN;
    if (constant) {
        if (!caches->constant_cache_per_sm)
            return CP_REGIME_UNKNOWN;
        return bytes <= caches->constant_cache_per_sm ? CP_REGIME_CONSTANT_CACHE
                                                      : CP_REGIME_BEYOND_CONSTANT;
    }
    if (!caches->l1_per_sm || !caches->l2)
        return CP_REGIME_UNKNOWN;
    if (bytes <= caches->l1_per_sm)
        return CP_REGIME_L1;
    return bytes <= caches->l2 ? CP_REGIME_L2 : CP_REGIME_DRAM;
}

/* Each regime's names: as JSON and CSV write it, and in a few letters for the table. */
static const struct {
    const char *name, *letters;
} cp_regime_names[] = {
    [CP_REGIME_UNKNOWN] = {NULL, "-"},
    [CP_REGIME_CONSTANT_CACHE] = {"constant_cache", "C$"},
    [CP_REGIME_BEYOND_CONSTANT] = {"beyond_constant_cache", ">C$"},
    [CP_REGIME_L1] = {"l1", "L1"},
    [CP_REGIME_L2] = {"l2", "L2"},
    [CP_REGIME_DRAM] = {"dram", "DRAM"},
};

const char *cp_regime_name(cp_regime r)
{
    return (unsigned)r < CP_COUNT_OF(cp_regime_names) ? cp_regime_names[r].name : NULL;
}

const char *cp_regime_letters(cp_regime r)
{
    return (unsigned)r < CP_COUNT_OF(cp_regime_names) ? cp_regime_names[r].letters : "-";
}
