/* cp_smem.h: the smem family: a shared-memory access stride sweep. Each block holds an array of
 * 32 * stride elements of `width` bytes (4, 8 or 16) in shared memory; lane l of every warp
 * makes `iterations` accesses, at element cp_smem_index(l, stride, t) for t = 0, 1, ...: lanes
 * `stride` elements apart, the whole warp moving by 32 elements (which keeps every lane on its
 * bank) and wrapping around the array.
 *   op load:  every warp first stores the whole array (element r*32 + l for r < stride), then
 *             loads through the pattern and XORs what it read into one word, stored to out[i]
 *   op store: every warp stores through the pattern (element e holds cp_smem_value words), then
 *             loads back what its first `stride` iterations wrote (the same pattern, read) and
 *             XORs it into out[i]
 * Both the kernels (cp_smem.cu) and the model (cp_smem_model.c) walk these
 * functions, and the host checks out[] with them. */
#ifndef CP_SMEM_H
#define CP_SMEM_H

#include "cp_hd.h"

#define CP_SMEM_BLOCK 256u       /* threads per block */
#define CP_SMEM_BLOCKS 1056u     /* blocks: 8 per SM of a 132-SM H100, fixed for every GPU */
#define CP_SMEM_ITERATIONS 2048u /* accesses of the pattern per thread */

/* Elements of the shared array. */
CP_HD uint32_t cp_smem_elements(uint32_t stride)
{
    return 32u * stride;
}

/* The element lane `lane` accesses at iteration t (closed form; the kernels walk it with
 * cp_smem_start and cp_smem_next). */
CP_HD uint32_t cp_smem_index(uint32_t lane, uint32_t stride, uint64_t t)
{
    return (uint32_t)(((uint64_t)lane * stride + 32u * t) % cp_smem_elements(stride));
}

CP_HD uint32_t cp_smem_start(uint32_t lane, uint32_t stride)
{
    return lane * stride;
}

CP_HD uint32_t cp_smem_next(uint32_t e, uint32_t stride)
{
    e += 32u;
    return e >= cp_smem_elements(stride) ? e - cp_smem_elements(stride) : e;
}

/* op load, before the pattern: the element lane `lane` stores at fill step r (r < stride). */
CP_HD uint32_t cp_smem_fill_index(uint32_t lane, uint32_t r)
{
    return r * 32u + lane;
}

/* op store, after the pattern: the element lane `lane` loads back at step r (r < stride), one
 * its own pattern wrote. (Lanes never share an element here: on the H100, 8- and 16-byte
 * accesses whose lanes share an element cost more wavefronts than the bank model counts.) */
CP_HD uint32_t cp_smem_drain_index(uint32_t lane, uint32_t stride, uint32_t r)
{
    return cp_smem_index(lane, stride, r);
}

/* The value of 32-bit word `word` of the shared array (element e of w-byte elements holds words
 * e*w/4 .. e*w/4 + w/4 - 1): non-zero, different for neighbouring words. */
CP_HD uint32_t cp_smem_value(uint32_t word)
{
    uint32_t x = word * 2654435761u + 0x9E3779B9u;
    x ^= x >> 15;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    return x | 1u;
}

/* The XOR of the words of element e (w bytes). */
CP_HD uint32_t cp_smem_element_xor(uint32_t e, uint32_t width)
{
    uint32_t words = width / 4u, x = 0;
    for (uint32_t k = 0; k < words; k++)
        x ^= cp_smem_value(e * words + k);
    return x;
}

#endif
