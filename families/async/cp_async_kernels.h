/* cp_async_kernels.h: the launchers of the async family's kernels (cp_async.cu), for its measure
 * part; the __global__ functions stay private to the .cu file. */
#ifndef CP_ASYNC_KERNELS_H
#define CP_ASYNC_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* async family (cp_async.h): out = cp_async_work(in, work) over `tiles` tiles of
 * CP_ASYNC_TILE floats, each loaded by `variant` (0 plain, 1 smem, 2 cp-async, 3 tma-bulk, 4
 * tma-tensor) with `stages` tiles in flight (1..4; plain and smem have one). The first launch of
 * a (variant, stages) on a device sets its shared-memory limit and sizes its grid, and the
 * first of an input its tensor map: later launches make no other call but cudaGetDevice.
 * Profiled as timed (not `alone`, below): SM active and achieved occupancy are the timed
 * launches'.
 * cudaErrorNotSupported on a device below cp_kernels_async_needs(variant). */
cudaError_t cp_kernels_async_launch(int variant, int stages, const float *in, float *out,
                                    uint64_t tiles, uint32_t work, cudaStream_t stream);
cudaError_t cp_kernels_async_resources(int variant, int stages, cp_kernel_resources *r);
/* The compute capability a variant needs, as major * 10 + minor (cp-async 80, tma 90; 0). */
int cp_kernels_async_needs(int variant);

#ifdef __cplusplus
}
#endif

#endif
