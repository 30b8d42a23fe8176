/* cp_stride_kernels.h: the launchers of the stride family's kernels (cp_stride.cu), for its measure
 * part; the __global__ functions stay private to the .cu file. */
#ifndef CP_STRIDE_KERNELS_H
#define CP_STRIDE_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* stride family: op 0 (load) runs out[i] = in[i*stride+offset], op 1 (store) runs
 * out[i*stride+offset] = in[i], for i < n, with elements of width_bytes (4, 8, 16, 32). */
cudaError_t cp_kernels_stride_launch(const void *in, void *out, uint64_t n, uint64_t stride,
                                     uint64_t offset, uint32_t width_bytes, int op,
                                     cudaStream_t stream);
/* The resources of the kernel the launcher above runs for a timed launch (`alone` 0), with the
 * block size it launches; cudaErrorInvalidValue for arguments the launcher refuses. */
cudaError_t cp_kernels_stride_resources(uint32_t width_bytes, int op, cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
