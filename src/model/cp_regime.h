/* cp_regime.h: which level of the memory hierarchy can hold a kernel's working set (an estimate
 * of the regime: L1, L2 or DRAM; for constant memory the constant cache or beyond it), from the
 * cache sizes of the device's architecture. The counts of the model stay exact; this only says
 * where the sectors they count are likely served from. Pure functions: no GPU, no CUDA. */
#ifndef CP_REGIME_H
#define CP_REGIME_H

#include <stdint.h>

/* The caches a working set is compared with, in bytes (0: not known). */
typedef struct cp_cache_sizes {
    uint64_t l1_per_sm;             /* the SM's unified L1 data cache and shared memory */
    uint64_t constant_cache_per_sm; /* the constant cache's working set per SM */
    uint64_t l2;                    /* the device's L2 (read from the device) */
} cp_cache_sizes;

typedef enum {
    CP_REGIME_UNKNOWN,         /* no working set, or the architecture's caches are not known */
    CP_REGIME_CONSTANT_CACHE,  /* constant memory, fits the constant cache */
    CP_REGIME_BEYOND_CONSTANT, /* constant memory, larger than the constant cache */
    CP_REGIME_L1,              /* fits L1 */
    CP_REGIME_L2,              /* larger than L1, fits L2 */
    CP_REGIME_DRAM,            /* larger than L2 */
} cp_regime;

/* Fills out with the cache sizes of architecture `arch` (90 for sm_90) and the device's
 * l2_bytes, from NVIDIA's documentation (docs/model.md lists the sources). Returns 0 (out
 * untouched) for an architecture whose L1 size is not in the table, 1 otherwise. */
int cp_regime_caches(int arch, uint64_t l2_bytes, cp_cache_sizes *out);

/* The regime of a working set of `bytes` read from constant memory (constant 1) or global
 * memory (0); CP_REGIME_UNKNOWN when bytes is 0 or a size it needs is 0. */
cp_regime cp_regime_estimate(uint64_t bytes, int constant, const cp_cache_sizes *caches);

/* The regime as reports write it: "constant_cache", "beyond_constant_cache", "l1", "l2",
 * "dram"; NULL for CP_REGIME_UNKNOWN. */
const char *cp_regime_name(cp_regime r);

/* The regime in a few letters, as the table writes it: "L1", "L2", "DRAM", "C$" (the constant
 * cache), ">C$" (beyond it), "-" for CP_REGIME_UNKNOWN. */
const char *cp_regime_letters(cp_regime r);

#endif
