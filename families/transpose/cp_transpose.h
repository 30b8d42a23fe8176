/* cp_transpose.h: the transpose family: out (n x m) = transpose of in (m x n), row-major floats,
 * in 32 x 32 tiles: blocks of 32 x 8 threads, each thread moving 4 rows of its tile (row
 * ty + 8t, t < 4). Block (bx, by) handles rows by*32.. and columns bx*32.. of in.
 *   naive:  out[col][row] = in[row][col]: coalesced read, a write 4*m bytes between lanes
 *   tiled:  in -> tile[ty+8t][tx] (shared), sync, tile[tx][ty+8t] -> out: both global sides
 *           coalesced, but a warp reads one tile column: 32 lanes on one bank
 *   padded: the same with tile rows of 33 floats: the column spreads over all 32 banks
 * Every thread touches the tile (0 outside the matrix); only global accesses are guarded. The
 * kernels (cp_transpose.cu) and the model (cp_transpose_model.c) use these. */
#ifndef CP_TRANSPOSE_H
#define CP_TRANSPOSE_H

#include "cp_hd.h"

#define CP_TRANSPOSE_TILE 32u
#define CP_TRANSPOSE_ROWS 8u /* threadIdx.y values: a block is 32 x 8 threads */
#define CP_TRANSPOSE_STEPS (CP_TRANSPOSE_TILE / CP_TRANSPOSE_ROWS)

/* Floats per tile row in shared memory: 32, or 33 with padding. */
CP_HD uint32_t cp_transpose_pitch(int padded)
{
    return CP_TRANSPOSE_TILE + (padded ? 1u : 0u);
}

/* Row of in that thread (tx, ty) of block row `by` reads at step t; its column is
 * cp_transpose_in_col. */
CP_HD uint64_t cp_transpose_in_row(uint64_t by, uint32_t ty, uint32_t t)
{
    return by * CP_TRANSPOSE_TILE + ty + CP_TRANSPOSE_ROWS * t;
}

CP_HD uint64_t cp_transpose_in_col(uint64_t bx, uint32_t tx)
{
    return bx * CP_TRANSPOSE_TILE + tx;
}

/* Tiled variants: the row of out that thread (tx, ty) of block (bx, by) writes at step t, and
 * its column (out is n x m). */
CP_HD uint64_t cp_transpose_out_row(uint64_t bx, uint32_t ty, uint32_t t)
{
    return bx * CP_TRANSPOSE_TILE + ty + CP_TRANSPOSE_ROWS * t;
}

CP_HD uint64_t cp_transpose_out_col(uint64_t by, uint32_t tx)
{
    return by * CP_TRANSPOSE_TILE + tx;
}

/* Float index in the tile of the store at step t (row ty + 8t, column tx) and of the load
 * (row tx, column ty + 8t). */
CP_HD uint32_t cp_transpose_tile_store(uint32_t tx, uint32_t ty, uint32_t t, int padded)
{
    return (ty + CP_TRANSPOSE_ROWS * t) * cp_transpose_pitch(padded) + tx;
}

CP_HD uint32_t cp_transpose_tile_load(uint32_t tx, uint32_t ty, uint32_t t, int padded)
{
    return tx * cp_transpose_pitch(padded) + ty + CP_TRANSPOSE_ROWS * t;
}

#endif
