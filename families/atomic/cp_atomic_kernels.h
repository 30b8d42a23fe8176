/* cp_atomic_kernels.h: the launchers of the atomic family's kernels (cp_atomic.cu), for its
 * measure part; the __global__ functions stay private to the .cu file. */
#ifndef CP_ATOMIC_KERNELS_H
#define CP_ATOMIC_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* atomic family (cp_atomic.h): for i < n (n below 2^32), atomicAdd(&acc[cp_atomic_slot(i, variant,
 * addresses, stride)], 1) of type `type` (0 u32, 1 f32), the aggregated variant's warp adding its
 * active lanes from lane 0; with op 0 (atom) out[i] is the old value (the aggregated warp's, to
 * every lane), with op 1 (red) out is unused (may be NULL). */
cudaError_t cp_kernels_atomic_launch(int variant, int op, int type, void *acc, void *out,
                                     uint64_t n, uint64_t addresses, uint64_t stride,
                                     cudaStream_t stream);
/* The resources of the kernel the launcher runs for (variant, op, type). */
cudaError_t cp_kernels_atomic_resources(int variant, int op, int type, cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
