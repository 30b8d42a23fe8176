/* cp_atomic.h: the atomic family: thread i adds 1 to one accumulator of a global array, with an
 * atomicAdd whose old value it stores (atom: ATOM) or drops (red: RED), of 4-byte unsigned ints
 * or floats. Which accumulator thread i adds to (the variant):
 *   own          slot i: every lane its own address, a warp 32 consecutive words
 *   contention   slot (i / 32) * addresses + (i % 32) % addresses: the lanes of a warp share
 *                `addresses` consecutive words, 32 / addresses lanes on each
 *   strided      slot i * stride: lane i of a warp `stride` words past lane i - 1
 *   aggregated   slot i / 32: the warp's 32 ones summed by __shfl_xor_sync first, one atomic a
 *                warp, from lane 0
 * Every warp has the same lanes' slots relative to its first (a property the model uses: the
 * lanes on one address are those of its first and its last warp). The model
 * (cp_atomic_model.c) and the kernels (cp_atomic.cu) both call cp_atomic_slot. */
#ifndef CP_ATOMIC_H
#define CP_ATOMIC_H

#include "cp_hd.h"

/* The variants, ops and types, in the order of their names (cp_atomic_config.h). */
enum { CP_ATOMIC_OWN, CP_ATOMIC_CONTENTION, CP_ATOMIC_STRIDED, CP_ATOMIC_AGGREGATED };
enum { CP_ATOMIC_ATOM, CP_ATOMIC_RED };
enum { CP_ATOMIC_U32, CP_ATOMIC_F32 };

/* The accumulator thread i adds to. */
CP_HD uint64_t cp_atomic_slot(uint64_t i, int variant, uint64_t addresses, uint64_t stride)
{
    switch (variant) {
    case CP_ATOMIC_CONTENTION:
        return (i / 32) * addresses + (i % 32) % addresses;
    case CP_ATOMIC_STRIDED:
        return i * stride;
    case CP_ATOMIC_AGGREGATED:
        return i / 32;
    default:
        return i;
    }
}

/* The accumulators of n threads (the array's 4-byte words). */
CP_HD uint64_t cp_atomic_slots(uint64_t n, int variant, uint64_t addresses, uint64_t stride)
{
    uint64_t warps = (n + 31) / 32;
    switch (variant) {
    case CP_ATOMIC_CONTENTION:
        return warps * addresses;
    case CP_ATOMIC_STRIDED:
        return n ? (n - 1) * stride + 1 : 0;
    case CP_ATOMIC_AGGREGATED:
        return warps;
    default:
        return n;
    }
}

/* What accumulator `slot` holds after one launch of n threads from zero: the threads that add
 * to it (each adds 1; the aggregated warp adds its active lanes at once). */
CP_HD uint64_t cp_atomic_expected(uint64_t slot, uint64_t n, int variant, uint64_t addresses,
                                  uint64_t stride)
{
    switch (variant) {
    case CP_ATOMIC_CONTENTION: {
        uint64_t w = slot / addresses, j = slot % addresses;
        uint64_t active = n > w * 32 ? (n - w * 32 < 32 ? n - w * 32 : 32) : 0;
        return j < active ? (active - j + addresses - 1) / addresses : 0;
    }
    case CP_ATOMIC_STRIDED:
        return slot % stride == 0 && slot / stride < n;
    case CP_ATOMIC_AGGREGATED:
        return n > slot * 32 ? (n - slot * 32 < 32 ? n - slot * 32 : 32) : 0;
    default:
        return slot < n;
    }
}

#endif
