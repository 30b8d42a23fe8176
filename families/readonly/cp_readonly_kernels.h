/* cp_readonly_kernels.h: the launchers of the readonly family's kernels (cp_readonly.cu), for its
 * measure part; the __global__ functions stay private to the .cu file. */
#ifndef CP_READONLY_KERNELS_H
#define CP_READONLY_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* readonly family (cp_readonly.h): out[i] = table[cp_readonly_entry(i, entries, index)]
 * for i < n (n below 2^32), the table read as `variant` says: 0 plain pointer, 1 const
 * __restrict__, 2 __ldg, 3 __constant__ memory (entries at most 16384: the table the last
 * cp_kernels_readonly_constant_load copied; `table` is then unused). */
cudaError_t cp_kernels_readonly_launch(int variant, int index, const float *table, float *out,
                                       uint64_t n, uint64_t entries, cudaStream_t stream);
/* Copies the first `bytes` of device buffer table into the constant variant's table. */
cudaError_t cp_kernels_readonly_constant_load(const float *table, uint64_t bytes,
                                              cudaStream_t stream);
cudaError_t cp_kernels_readonly_resources(int variant, int index, cp_kernel_resources *r);
/* The (mangled) name of the kernel cp_kernels_readonly_launch runs, for its SASS. */
cudaError_t cp_kernels_readonly_name(int variant, int index, const char **name);

#ifdef __cplusplus
}
#endif

#endif
