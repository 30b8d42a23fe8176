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
 * These are the first three kernels of Simon Boehm's SGEMM worklog ("How to Optimize a CUDA
 * Matmul Kernel for cuBLAS-like Performance"), with bounds checks for sizes that are not
 * multiples of 32.
 *
 * Two index widths: when cp_gemm_fits_i32() holds (every index, also of the threads just
 * past the edges, below 2^31) the kernels index with 32-bit int, as the worklog does, through
 * the *_i32 functions; otherwise a separate 64-bit code path uses the uint64_t functions.
 * Both address the same elements (tests/unit/test_model.c checks it); the model calls the
 * functions of the path the host launches.
 * The model (cp_gemm_model.c) and the kernels (cp_gemm.cu) both call these. */
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

/* --- the 32-bit path: the worklog's int indices --- */

/* 1 when the 32-bit kernels may run: (m+32)(k+32), (k+32)(n+32) and (m+32)(n+32) are at most
 * INT32_MAX, so no index or pointer offset of a thread of the grid overflows an int. */
CP_HD int cp_gemm_fits_i32(uint64_t m, uint64_t n, uint64_t k)
{
    const uint64_t lim = 0x7fffffffull, pad = CP_GEMM_TILE;
    if (m > lim || n > lim || k > lim)
        return 0;
    return (m + pad) * (k + pad) <= lim && (k + pad) * (n + pad) <= lim &&
           (m + pad) * (n + pad) <= lim;
}

/* naive: the worklog's x = blockIdx.x * 32 + threadIdx.x (the row), y likewise (the column). */
CP_HD void cp_gemm_naive_coords_i32(int bx, int by, int tx, int ty, int *row, int *col)
{
    *row = bx * (int)CP_GEMM_TILE + tx;
    *col = by * (int)CP_GEMM_TILE + ty;
}

/* coalesced and smem: cRow = blockIdx.x * 32 + tid / 32, cCol = blockIdx.y * 32 + tid % 32. */
CP_HD void cp_gemm_coalesced_coords_i32(int bx, int by, int tid, int *row, int *col)
{
    *row = bx * (int)CP_GEMM_TILE + tid / (int)CP_GEMM_TILE;
    *col = by * (int)CP_GEMM_TILE + tid % (int)CP_GEMM_TILE;
}

CP_HD int cp_gemm_a_index_i32(int row, int kk, int k)
{
    return row * k + kk;
}

CP_HD int cp_gemm_b_index_i32(int kk, int col, int n)
{
    return kk * n + col;
}

CP_HD int cp_gemm_c_index_i32(int row, int col, int n)
{
    return row * n + col;
}

/* smem: the worklog advances its A and B pointers by one tile per step of the k loop. Thread
 * tid starts at element base of A (row `row`, column tid % 32) and of B (row tid / 32, column
 * `col`) and moves by step each tile: tile t loads A[base_a + t * step_a] and
 * B[base_b + t * step_b], the elements cp_gemm_smem_a_kk / _b_kk name. */
CP_HD int cp_gemm_smem_a_base_i32(int row, int tid, int k)
{
    return cp_gemm_a_index_i32(row, tid % (int)CP_GEMM_TILE, k);
}

CP_HD int cp_gemm_smem_a_step_i32(void)
{
    return (int)CP_GEMM_TILE;
}

CP_HD int cp_gemm_smem_b_base_i32(int col, int tid, int n)
{
    return cp_gemm_b_index_i32(tid / (int)CP_GEMM_TILE, col, n);
}

CP_HD int cp_gemm_smem_b_step_i32(int n)
{
    return (int)CP_GEMM_TILE * n;
}

/* smem: the column of A and the row of B (within k) thread tid loads in the tile that starts
 * at k0 (a multiple of 32): the loads are inside the matrices when these are below k. */
CP_HD int cp_gemm_smem_a_kk_i32(int k0, int tid)
{
    return k0 + tid % (int)CP_GEMM_TILE;
}

CP_HD int cp_gemm_smem_b_kk_i32(int k0, int tid)
{
    return k0 + tid / (int)CP_GEMM_TILE;
}

#endif
