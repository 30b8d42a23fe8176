/* cp_readonly.h: the read-only path family: a lookup out[i] = table[j(i)] from a table of
 * `entries` 4-byte floats, read through a plain pointer, a const __restrict__ pointer, __ldg or
 * __constant__ memory (the variant). Which entry thread i reads (the index pattern):
 *   mod        j = i % entries: a warp reads 32 consecutive entries (one 128-byte line),
 *              and every entries/32 warps the same table again (the chapter's i % T)
 *   random     j = a seeded hash of i, modulo entries: a gather over the table
 *   broadcast  j = (i / 32) % entries: every lane of a warp reads the same entry
 * Thread i (blocks of CP_READONLY_BLOCK threads) writes out[i]. The model
 * (cp_readonly_model.c) and the kernel (cp_readonly.cu) both call
 * cp_readonly_entry. */
#ifndef CP_READONLY_H
#define CP_READONLY_H

#include "cp_hash.h"
#include "cp_hd.h"

#define CP_READONLY_BLOCK 256u
/* Bytes of __constant__ memory the constant variant's table may use (the whole bank). */
#define CP_READONLY_CONSTANT_BYTES 65536u
/* The random index pattern's seed: fixed, so that every run reads the same entries. */
#define CP_READONLY_SEED 1u
/* The largest table: 2^30 entries (4 GiB). */
#define CP_READONLY_TABLE_MAX (4ull << 30)

/* The variants and index patterns, in the order of their names (cp_readonly_config.h,
 * cp_readonly_family.c). */
enum { CP_READONLY_PLAIN, CP_READONLY_RESTRICT, CP_READONLY_LDG, CP_READONLY_CONSTANT };
enum { CP_READONLY_INDEX_MOD, CP_READONLY_INDEX_RANDOM, CP_READONLY_INDEX_BROADCAST };

/* The table entry thread i reads (i < 2^32, entries <= 2^30: 32-bit arithmetic, as a lookup
 * kernel would write it, so that the index costs the same few instructions in every variant). */
CP_HD uint32_t cp_readonly_entry(uint32_t i, uint32_t entries, int index)
{
    switch (index) {
    case CP_READONLY_INDEX_RANDOM:
        return (uint32_t)(cp_hash_mix(i ^ (CP_READONLY_SEED * 0x9E3779B97F4A7C15ull)) >> 32) %
               entries;
    case CP_READONLY_INDEX_BROADCAST:
        return (i / 32) % entries;
    default:
        return i % entries;
    }
}

#endif
