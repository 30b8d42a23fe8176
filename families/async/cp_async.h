/* cp_async.h: the asynchronous-copy family: a stream of tiles, each loaded into the SM and
 * computed, in five ways (the variant):
 *   plain       each thread loads its elements of the tile from global memory (LDG) and
 *               computes them
 *   smem        the tile is staged in shared memory (LDG, STS), __syncthreads, then computed
 *               from there (LDS)
 *   cp-async    the tile is copied into shared memory by cp.async (LDGSTS, 16 bytes a lane),
 *               `stages` tiles in flight
 *   tma-bulk    one thread copies the whole tile with cp.async.bulk (the TMA unit), an mbarrier
 *               says when it has landed; `stages` tiles in flight
 *   tma-tensor  the same through a 2-D tensor map (cp.async.bulk.tensor.2d), a box of
 *               CP_ASYNC_BOX_ROWS rows of CP_ASYNC_ROW floats
 * A tile is CP_ASYNC_TILE floats processed by a block of CP_ASYNC_BLOCK threads; thread t
 * computes elements e * CP_ASYNC_BLOCK + t (e = 0..15) of the tile, out[i] = cp_async_work(in[i],
 * work). The model (cp_async_model.c) and the kernels (cp_async.cu) both use
 * these definitions; tile k of the input is its floats [k * CP_ASYNC_TILE, (k + 1) *
 * CP_ASYNC_TILE), whichever block computes it. */
#ifndef CP_ASYNC_H
#define CP_ASYNC_H

#include "cp_hd.h"

#if !defined(__CUDACC__)
#include <math.h> /* fmaf */
#endif

#define CP_ASYNC_BLOCK 256u
#define CP_ASYNC_TILE 4096u                                  /* floats: 16 KB */
#define CP_ASYNC_PER_THREAD (CP_ASYNC_TILE / CP_ASYNC_BLOCK) /* 16 elements */
#define CP_ASYNC_CHUNK 16u                                   /* bytes one cp.async lane copies */
#define CP_ASYNC_CHUNKS_PER_THREAD (CP_ASYNC_TILE * 4u / CP_ASYNC_CHUNK / CP_ASYNC_BLOCK) /* 4 */
#define CP_ASYNC_ROW 256u      /* floats of a row of the tensor map: 1 KB */
#define CP_ASYNC_BOX_ROWS 16u  /* rows of a box: one tile */
#define CP_ASYNC_STAGES_MAX 4u /* tiles in flight: 64 KB of shared memory */
#define CP_ASYNC_WORK_MAX 4096u

/* The variants, in the order of their names (cp_async_config.h, cp_async_family.c). */
enum { CP_ASYNC_PLAIN, CP_ASYNC_SMEM, CP_ASYNC_CP_ASYNC, CP_ASYNC_TMA_BULK, CP_ASYNC_TMA_TENSOR };

/* The compute of one element: `work` dependent fused multiply-adds (fmaf: one rounding, on the
 * GPU an FFMA), so that the host computes the very same float. */
CP_HD float cp_async_work(float x, uint32_t work)
{
    for (uint32_t w = 0; w < work; w++)
        x = fmaf(x, 0.9999f, 0.0001f);
    return x;
}

/* The element of a tile that thread t computes in its step e. */
CP_HD uint32_t cp_async_element(uint32_t t, uint32_t e)
{
    return e * CP_ASYNC_BLOCK + t;
}

#endif
