/* cp_gather_kernels.h: the launchers of the gather family's kernels (cp_gather.cu), for its measure
 * part; the __global__ functions stay private to the .cu file. */
#ifndef CP_GATHER_KERNELS_H
#define CP_GATHER_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* gather family: idx[i] = cp_gather_index(i, n, run, seed) for i < n (n at most 2^32). */
cudaError_t cp_kernels_gather_index_launch(uint32_t *idx, uint64_t n, uint64_t run, uint64_t seed,
                                           cudaStream_t stream);

/* gather family: out[i] = in[idx[i]] for i < n. */
cudaError_t cp_kernels_gather_launch(const uint32_t *idx, const float *in, float *out, uint64_t n,
                                     cudaStream_t stream);
/* The resources of the kernel the launcher above runs for a timed launch (`alone` 0), with the
 * block size it launches; cudaErrorInvalidValue for arguments the launcher refuses. */
cudaError_t cp_kernels_gather_resources(cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
