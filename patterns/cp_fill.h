/* cp_fill.h: the input values of every kernel: a non-zero float per 4-byte word, computed
 * from the word's index, so the host can check any output word without copying inputs. */
#ifndef CP_FILL_H
#define CP_FILL_H

#include "cp_hd.h"

/* A float in [1, 2) with 20 random mantissa bits for word `word` of buffer `seed`. */
CP_HD float cp_fill_value(uint64_t word, uint32_t seed)
{
    uint64_t x = word * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return 1.0f + (float)(x & 0xFFFFFu) * (1.0f / 1048576.0f);
}

#endif
