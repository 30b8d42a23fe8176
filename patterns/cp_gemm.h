/* cp_gemm.h: the FP32 GEMM family (C = A*B, row-major): which output each thread owns and
 * which elements of A, B and C it touches.
 *
 * A is m x k, B is k x n, C is m x n, all row-major floats. Both variants launch a grid of
 * ceil(m/32) x ceil(n/32) blocks, one thread per element of C, and skip threads outside C:
 *   naive:     blocks of 32 x 32 threads; row from threadIdx.x, so the 32 lanes of a warp
 *              walk down a column of C (and of A): the classic uncoalesced kernel.
 *   coalesced: blocks of 1024 threads in one dimension; row = tid / 32, col = tid % 32,
 *              so a warp covers 32 consecutive columns of one row.
 *   smem:      the coalesced thread order, with 32 x 32 tiles of A and B staged in shared
 *              memory: for each tile t of k, thread (r, c) of the block loads
 *              A[row][t*32 + c] and B[t*32 + r][col] (zero outside the matrices), the block
 *              synchronises, and each thread reads its row of the A tile and column of the B
 *              tile from shared memory.
 * naive and coalesced: thread (row, col) reads A[row][kk] and B[kk][col] for kk = 0..k-1,
 * then stores C[row][col]. Every variant skips threads outside C for the store.
 * The model (src/model/cp_model_*.c) and the kernels (kernels/cp_gemm.cu) both call these. */
#ifndef CP_GEMM_H
#define CP_GEMM_H

#include "cp_hd.h"

/* Edge of the square tile of C that one block computes. */
#define CP_GEMM_TILE 32u

/* naive: thread (tx, ty) of block (bx, by) owns C[row][col]. */
CP_HD void cp_gemm_naive_coords(uint64_t bx, uint64_t by, uint64_t tx, uint64_t ty, uint64_t *row,
                                uint64_t *col)
{
    *row = bx * CP_GEMM_TILE + tx;
    *col = by * CP_GEMM_TILE + ty;
}

/* coalesced: thread tid (0..1023) of block (bx, by) owns C[row][col]. */
CP_HD void cp_gemm_coalesced_coords(uint64_t bx, uint64_t by, uint64_t tid, uint64_t *row,
                                    uint64_t *col)
{
    *row = bx * CP_GEMM_TILE + tid / CP_GEMM_TILE;
    *col = by * CP_GEMM_TILE + tid % CP_GEMM_TILE;
}

/* Element of A (m x k) read at step kk by the thread of row `row`. */
CP_HD uint64_t cp_gemm_a_index(uint64_t row, uint64_t kk, uint64_t k)
{
    return row * k + kk;
}

/* Element of B (k x n) read at step kk by the thread of column `col`. */
CP_HD uint64_t cp_gemm_b_index(uint64_t kk, uint64_t col, uint64_t n)
{
    return kk * n + col;
}

/* smem: the column of A (within k) that thread tid loads for tile t. */
CP_HD uint64_t cp_gemm_smem_a_kk(uint64_t t, uint64_t tid)
{
    return t * CP_GEMM_TILE + tid % CP_GEMM_TILE;
}

/* smem: the row of B (within k) that thread tid loads for tile t. */
CP_HD uint64_t cp_gemm_smem_b_kk(uint64_t t, uint64_t tid)
{
    return t * CP_GEMM_TILE + tid / CP_GEMM_TILE;
}

/* smem: tiles of k. */
CP_HD uint64_t cp_gemm_tiles(uint64_t k)
{
    return (k + CP_GEMM_TILE - 1) / CP_GEMM_TILE;
}

/* Element of C (m x n) written by the thread that owns (row, col). */
CP_HD uint64_t cp_gemm_c_index(uint64_t row, uint64_t col, uint64_t n)
{
    return row * n + col;
}

#endif
