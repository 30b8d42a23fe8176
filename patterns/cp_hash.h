/* cp_hash.h: a 64-bit mix that the index functions of several families hash with, the same in the
 * model (C) and in the kernels (CUDA). */
#ifndef CP_HASH_H
#define CP_HASH_H

#include "cp_hd.h"

/* A 64-bit mix (splitmix64's finaliser). */
CP_HD uint64_t cp_hash_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

#endif
