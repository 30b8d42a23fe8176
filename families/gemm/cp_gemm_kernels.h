/* cp_gemm_kernels.h: the launchers of the gemm family's kernels (cp_gemm.cu), for its measure
 * part; the __global__ functions stay private to the .cu file. */
#ifndef CP_GEMM_KERNELS_H
#define CP_GEMM_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cp_kernels.h" /* cp_kernel_resources */

#ifdef __cplusplus
extern "C" {
#endif

/* gemm family: C = A*B (row-major, m x k times k x n); variant 0 naive, 1 coalesced, 2 smem
 * (32 x 32 tiles in shared memory). */
cudaError_t cp_kernels_gemm_launch(int variant, const float *A, const float *B, float *C,
                                   uint64_t m, uint64_t n, uint64_t k, cudaStream_t stream);
/* The resources of the kernel cp_kernels_gemm_launch runs for these arguments. */
cudaError_t cp_kernels_gemm_resources(int variant, uint64_t m, uint64_t n, uint64_t k,
                                      cp_kernel_resources *r);

#ifdef __cplusplus
}
#endif

#endif
