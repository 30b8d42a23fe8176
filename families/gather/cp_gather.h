/* cp_gather.h: the gather family: thread i reads element idx[i] of an array through an index
 * array. idx is a seeded permutation of 0..n-1 made of runs of `run` contiguous elements in
 * random order (run 1: a random permutation of the elements); the last n % run elements stay
 * in place. Both the kernel that fills idx (cp_gather.cu) and the model
 * (cp_gather_model.c) compute idx[i] with cp_gather_index, so the model sees the very
 * array the GPU reads.
 *   out[i] = in[idx[i]]   (a dense read of idx, a gathered read of in, a dense write) */
#ifndef CP_GATHER_H
#define CP_GATHER_H

#include "cp_hash.h"
#include "cp_hd.h"

/* A bijection of [0, m): a 4-round Feistel network on the smallest even number of bits that
 * covers m, keyed by seed, walked until it lands below m (fewer than 4 steps expected). */
CP_HD uint64_t cp_gather_permute(uint64_t r, uint64_t m, uint64_t seed)
{
    unsigned half = 1;
    while ((1ull << (2 * half)) < m)
        half++;
    const uint64_t mask = (1ull << half) - 1;
    uint64_t x = r;
    do {
        uint64_t left = x >> half, right = x & mask;
        for (unsigned round = 0; round < 4; round++) {
            uint64_t f = cp_hash_mix(right ^ (seed * 0x9E3779B97F4A7C15ull) ^ round) & mask;
            uint64_t next = left ^ f;
            left = right;
            right = next;
        }
        x = (left << half) | right;
    } while (x >= m);
    return x;
}

/* The element of in that thread i reads: runs of `run` elements, permuted as wholes. */
CP_HD uint64_t cp_gather_index(uint64_t i, uint64_t n, uint64_t run, uint64_t seed)
{
    uint64_t runs = n / run;
    if (i >= runs * run)
        return i;
    return cp_gather_permute(i / run, runs, seed) * run + i % run;
}

#endif
